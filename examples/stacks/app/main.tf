variable "environment" {
  type = string
}

variable "network_id" {
  type = string
}

variable "subnet_ids" {
  type = list(string)
}

variable "instances" {
  type = number
}

resource "terraform_data" "server" {
  count = var.instances
  input = {
    network = var.network_id
    subnet  = var.subnet_ids[count.index % length(var.subnet_ids)]
  }
}

output "endpoint" {
  value = "https://${var.environment}.example.test/${terraform_data.server[0].id}"
}
