# The count of "worker" depends on a value known only after apply. Terraform stops with
# "The count value depends on resource attributes that cannot be determined until apply";
# Strata plans it as deferred and creates the workers in the same apply.
#   ./strata -chdir=examples/deferred-count apply -auto-approve
resource "random_integer" "workers" {
  min = 2
  max = 4
}

resource "terraform_data" "worker" {
  count = random_integer.workers.result
  input = "worker-${count.index}"
}

output "workers" {
  value = terraform_data.worker[*].output
}
