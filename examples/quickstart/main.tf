terraform {
  required_version = ">= 1.5"
}

variable "environment" {
  type        = string
  description = "Deployment environment name."
  default     = "dev"
}

variable "services" {
  type = map(object({
    port     = number
    replicas = optional(number, 1)
  }))
  default = {
    api = { port = 8080, replicas = 2 }
    web = { port = 80 }
  }
}

locals {
  prefix = "strata-${var.environment}"
  ports  = { for name, svc in var.services : name => svc.port }
}

resource "terraform_data" "service" {
  for_each = var.services

  input = {
    name     = "${local.prefix}-${each.key}"
    port     = each.value.port
    replicas = each.value.replicas
  }
}

output "service_names" {
  value = [for s in terraform_data.service : s.input.name]
}
