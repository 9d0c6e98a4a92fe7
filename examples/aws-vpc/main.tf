# A VPC with public subnets, a web security group and a bucket for its flow logs, with the AWS
# provider, and the guardrails in guardrails.policy.hcl that every plan here is checked against.
#   ./strata -chdir=examples/aws-vpc init      (needs the hashicorp/aws provider: registry or mirror)
#   ./strata -chdir=examples/aws-vpc plan      (plans offline: fake keys, no account look-ups)
# Applying needs real credentials: drop the skip_* settings and the fake keys below.
terraform {
  required_providers {
    aws = { source = "hashicorp/aws", version = "~> 5.0" }
  }
}

provider "aws" {
  region                      = var.region
  access_key                  = "AKIAEXAMPLE"
  secret_key                  = "not-a-secret"
  skip_credentials_validation = true
  skip_requesting_account_id  = true
  skip_metadata_api_check     = true
}

variable "region" {
  type    = string
  default = "eu-west-1"
}

variable "environment" {
  type    = string
  default = "dev"
}

variable "owner" {
  type        = string
  description = "Team that owns everything here; every resource carries it as its owner tag."
  default     = "platform"
}

variable "admin_cidr" {
  type        = string
  description = "Where SSH is allowed from (never 0.0.0.0/0: policy no_public_ssh)."
  default     = "10.0.0.0/8"
}

variable "allow_destroy" {
  type        = bool
  description = "Let a plan in prod destroy the protected objects (see guardrails.policy.hcl)."
  default     = false
}

locals {
  tags  = { owner = var.owner, environment = var.environment }
  zones = ["a", "b"]
}

resource "aws_vpc" "main" {
  cidr_block           = "10.30.0.0/16"
  enable_dns_hostnames = true
  tags                 = merge(local.tags, { Name = "main" })
}

resource "aws_subnet" "public" {
  for_each          = toset(local.zones)
  vpc_id            = aws_vpc.main.id
  cidr_block        = cidrsubnet(aws_vpc.main.cidr_block, 8, index(local.zones, each.key))
  availability_zone = "${var.region}${each.key}"
  tags              = merge(local.tags, { Name = "public-${each.key}" })
}

resource "aws_security_group" "web" {
  name   = "web"
  vpc_id = aws_vpc.main.id
  tags   = local.tags

  ingress {
    description = "HTTPS from anywhere"
    protocol    = "tcp"
    from_port   = 443
    to_port     = 443
    cidr_blocks = ["0.0.0.0/0"]
  }
}

resource "aws_vpc_security_group_ingress_rule" "ssh" {
  security_group_id = aws_security_group.web.id
  description       = "SSH from the admin network"
  ip_protocol       = "tcp"
  from_port         = 22
  to_port           = 22
  cidr_ipv4         = var.admin_cidr
  tags              = local.tags
}

resource "aws_s3_bucket" "flow_logs" {
  bucket = "strata-example-flow-logs-${var.environment}"
  tags   = local.tags
}

output "vpc_id" {
  value = aws_vpc.main.id
}
