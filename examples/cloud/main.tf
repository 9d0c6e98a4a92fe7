# A network, subnets, instances and a load balancer on Strata's local cloud simulator.
#   examples/cloud/run.sh          (starts the simulator, applies, shows the simulator's counters)
variable "endpoint" {
  type        = string
  description = "URL of the cloud simulator, e.g. http://127.0.0.1:8787"
}

variable "zones" {
  type    = list(string)
  default = ["a", "b", "c"]
}

terraform {
  required_providers {
    cloudsim = { source = "strata/cloudsim" }
  }
}

provider "cloudsim" {
  endpoint = var.endpoint
}

resource "cloudsim_network" "main" {
  cidr = "10.20.0.0/16"
  name = "main"
}

resource "cloudsim_subnet" "zone" {
  for_each   = toset(var.zones)
  network_id = cloudsim_network.main.id
  cidr       = cidrsubnet(cloudsim_network.main.cidr, 8, index(var.zones, each.key))
  name       = "subnet-${each.key}"
}

resource "cloudsim_security_group" "web" {
  network_id = cloudsim_network.main.id
  name       = "web"
  rule {
    protocol  = "tcp"
    from_port = 80
    to_port   = 80
    cidr      = "0.0.0.0/0"
  }
}

resource "cloudsim_instance" "web" {
  for_each           = cloudsim_subnet.zone
  subnet_id          = each.value.id
  image              = "debian-12"
  size               = "small"
  name               = "web-${each.key}"
  security_group_ids = [cloudsim_security_group.web.id]
}

resource "cloudsim_load_balancer" "web" {
  network_id          = cloudsim_network.main.id
  name                = "web"
  target_instance_ids = [for i in cloudsim_instance.web : i.id]
}

output "load_balancer" {
  value = cloudsim_load_balancer.web.dns_name
}
