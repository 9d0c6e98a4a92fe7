# Nested local modules with for_each: one "service" module instance per entry of var.services,
# each with its own instances. ./strata -chdir=examples/modules apply -auto-approve
variable "services" {
  type = map(number)
  default = {
    api    = 2
    worker = 1
  }
}

module "service" {
  source   = "./modules/service"
  for_each = var.services

  name      = each.key
  instances = each.value
}

output "instance_names" {
  value = { for k, m in module.service : k => m.instance_names }
}
