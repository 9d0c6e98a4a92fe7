terraform {
  required_providers {
    aws = { source = "hashicorp/aws", version = "5.100.0" }
  }
}
provider "aws" {
  region                      = "us-east-1"
  access_key                  = "mock"
  secret_key                  = "mock"
  skip_credentials_validation = true
  skip_requesting_account_id  = true
  skip_metadata_api_check     = true
}
data "aws_iam_policy_document" "p" {
  statement {
    sid       = "AllowRead"
    effect    = "Allow"
    actions   = ["s3:GetObject", "s3:ListBucket"]
    resources = ["arn:aws:s3:::example", "arn:aws:s3:::example/*"]
    principals {
      type        = "AWS"
      identifiers = ["arn:aws:iam::123456789012:root"]
    }
    condition {
      test     = "StringEquals"
      variable = "aws:PrincipalTag/team"
      values   = ["platform"]
    }
  }
  statement {
    effect    = "Deny"
    actions   = ["s3:DeleteObject"]
    resources = ["*"]
  }
}
output "json" { value = data.aws_iam_policy_document.p.json }
output "arn" { value = provider::aws::arn_parse("arn:aws:iam::123456789012:role/example") }
