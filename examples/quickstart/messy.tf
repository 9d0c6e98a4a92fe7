# This file is deliberately not in canonical style: `strata fmt -diff` shows what it would change.
resource "terraform_data" "extra" {
    input = {
      a=1
      longer_name="x"
    }
    triggers_replace = [terraform_data.service["api"].id,terraform_data.service["web"].id]
}
