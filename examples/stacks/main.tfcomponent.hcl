# A network and an app that reads its outputs, once per region. Each region gets its own
# configuration of the random provider (provider for_each); terraform_data is built in.

required_providers {
  random = {
    source = "hashicorp/random"
  }
}

variable "environment" {
  type = string
}

variable "regions" {
  type = set(string)
}

variable "app_instances" {
  type    = number
  default = 1
}

provider "random" "region" {
  for_each = var.regions
}

provider "terraform" "main" {}

component "network" {
  for_each = var.regions
  source   = "./network"

  inputs = {
    environment = var.environment
    region      = each.value
  }

  providers = {
    random    = provider.random.region[each.value]
    terraform = provider.terraform.main
  }
}

component "app" {
  for_each = var.regions
  source   = "./app"

  inputs = {
    environment = var.environment
    network_id  = component.network[each.value].network_id
    subnet_ids  = component.network[each.value].subnet_ids
    instances   = var.app_instances
  }

  providers = {
    terraform = provider.terraform.main
  }
}

output "endpoints" {
  type        = map(string)
  description = "The app's endpoint in each region."
  value       = { for r in var.regions : r => component.app[r].endpoint }
}
