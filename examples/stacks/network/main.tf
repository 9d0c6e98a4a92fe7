terraform {
  required_providers {
    random = {
      source = "hashicorp/random"
    }
  }
}

variable "environment" {
  type = string
}

variable "region" {
  type = string
}

resource "random_pet" "network" {
  prefix = "${var.environment}-${var.region}"
}

resource "terraform_data" "network" {
  input = {
    name = random_pet.network.id
    cidr = "10.0.0.0/16"
  }
}

resource "terraform_data" "subnet" {
  count = 2
  input = cidrsubnet("10.0.0.0/16", 8, count.index)
}

output "network_id" {
  value = terraform_data.network.id
}

output "subnet_ids" {
  value = terraform_data.subnet[*].id
}
