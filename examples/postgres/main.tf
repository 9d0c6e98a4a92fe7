# Databases, roles and grants on a real PostgreSQL server with the built-in postgresql provider
# (cyrilgdn/postgresql's resource names). Point it at a server you own:
#   PGPASSWORD=... ./strata -chdir=examples/postgres apply -auto-approve -var host=127.0.0.1 -var port=5432
terraform {
  required_providers {
    postgresql = { source = "cyrilgdn/postgresql" }
  }
}

variable "host" {
  type    = string
  default = "127.0.0.1"
}

variable "port" {
  type    = number
  default = 5432
}

variable "admin_user" {
  type    = string
  default = "postgres"
}

provider "postgresql" {
  host     = var.host
  port     = var.port
  username = var.admin_user
  sslmode  = "disable"
}

resource "random_password" "app" {
  length  = 24
  special = false
}

resource "postgresql_role" "app" {
  name     = "strata_app"
  login    = true
  password = random_password.app.result
}

resource "postgresql_database" "app" {
  name  = "strata_app"
  owner = postgresql_role.app.name
}

resource "postgresql_schema" "reporting" {
  name     = "reporting"
  database = postgresql_database.app.name
  owner    = postgresql_role.app.name
}

output "database" {
  value = postgresql_database.app.name
}
