variable "name" {
  type = string
}

variable "instances" {
  type = number
  validation {
    condition     = var.instances >= 1
    error_message = "A service needs at least one instance."
  }
}

resource "random_id" "suffix" {
  byte_length = 3
}

resource "terraform_data" "instance" {
  count = var.instances
  input = "${var.name}-${random_id.suffix.hex}-${count.index}"
}

output "instance_names" {
  value = terraform_data.instance[*].output
}
