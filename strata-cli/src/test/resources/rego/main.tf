# The fixture configuration of PlanJsonForRegoTest: its plan JSON (plan.json) is the input of the
# Rego policy shown in docs/guardrails.md.
variable "environment" {
  type    = string
  default = "prod"
}

variable "owners" {
  type    = map(string)
  default = { api = "team-api", web = "" }
}

resource "terraform_data" "service" {
  for_each = var.owners
  input = {
    name = each.key
    tags = { owner = each.value, environment = var.environment }
  }
}

resource "terraform_data" "firewall" {
  input = { ingress = [{ port = 443, cidr = "0.0.0.0/0" }, { port = 22, cidr = "10.0.0.0/8" }] }
}

output "services" {
  value = keys(terraform_data.service)
}
