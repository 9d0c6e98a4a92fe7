# Strata's quick start: HashiCorp's utility providers, built into Strata, with no network needed.
#   ./strata -chdir=examples/quickstart apply -auto-approve    (a second run changes nothing)
#   ./strata -chdir=examples/quickstart destroy -auto-approve
# guardrails.policy.hcl holds the policies every plan here is checked against (docs/guardrails.md).
terraform {
  required_version = ">= 1.5"
  required_providers {
    random = { source = "hashicorp/random" }
    local  = { source = "hashicorp/local" }
    tls    = { source = "hashicorp/tls" }
    time   = { source = "hashicorp/time" }
  }
}

variable "environment" {
  type        = string
  description = "Deployment environment name."
  default     = "dev"
}

variable "allow_destroy" {
  type        = bool
  description = "Let a plan in prod destroy the protected objects (see guardrails.policy.hcl)."
  default     = false
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

resource "random_pet" "name" {
  prefix = local.prefix
  length = 2
}

resource "time_static" "created" {}

resource "tls_private_key" "service" {
  for_each  = var.services
  algorithm = "ECDSA"
}

resource "terraform_data" "service" {
  for_each = var.services

  input = {
    name     = "${random_pet.name.id}-${each.key}"
    port     = each.value.port
    replicas = each.value.replicas
  }
}

resource "local_file" "inventory" {
  filename = "${path.module}/inventory.json"
  content = jsonencode({
    created  = time_static.created.rfc3339
    services = { for k, s in terraform_data.service : k => s.output }
    keys     = { for k, key in tls_private_key.service : k => key.public_key_fingerprint_sha256 }
  })
}

output "service_names" {
  value = [for s in terraform_data.service : s.output.name]
}

output "inventory_file" {
  value = basename(local_file.inventory.filename)
}
