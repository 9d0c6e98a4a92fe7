# Guardrails for the AWS VPC example, checked by every plan, apply and destroy in this directory
# (Strata reads the root module's *.policy.hcl files; Terraform ignores them). See docs/guardrails.md.

policy "owner_tag" {
  description   = "Every taggable resource names its owner in an owner tag"
  enforcement   = "mandatory"
  actions       = ["create", "update"]
  # A resource type without a tags argument passes; tags_all includes the provider's default_tags.
  condition = !can(change.after.tags) || contains(
    keys(merge(coalesce(try(change.after.tags, null), {}), coalesce(try(change.after.tags_all, null), {}))),
    "owner"
  )
  error_message = "${change.address} has no owner tag; add tags = { owner = \"...\" } (or the provider's default_tags)."
}

policy "no_public_ssh" {
  description    = "No security group opens SSH (port 22) to the whole internet"
  enforcement    = "mandatory"
  resource_types = ["aws_security_group"]
  actions        = ["create", "update"]
  # Inline ingress blocks; protocol "-1" is every port.
  condition = alltrue([
    for r in coalesce(try(change.after.ingress, null), []) : !(
      (r.protocol == "-1" || (r.from_port <= 22 && r.to_port >= 22)) &&
      contains(coalesce(r.cidr_blocks, []), "0.0.0.0/0")
    )
  ])
  error_message = "${change.address} opens SSH (port 22) to 0.0.0.0/0 in an ingress block; allow an admin network instead."
}

policy "no_public_ssh_rule" {
  description    = "No security group rule opens SSH (port 22) to the whole internet"
  enforcement    = "mandatory"
  resource_types = ["aws_vpc_security_group_ingress_rule", "aws_security_group_rule"]
  actions        = ["create", "update"]
  condition = !(
    try(change.after.type, "ingress") == "ingress" &&
    (try(change.after.ip_protocol, change.after.protocol) == "-1" ||
     (coalesce(try(change.after.from_port, null), 0) <= 22 && coalesce(try(change.after.to_port, null), 65535) >= 22)) &&
    (try(change.after.cidr_ipv4, null) == "0.0.0.0/0" ||
     contains(coalesce(try(change.after.cidr_blocks, null), []), "0.0.0.0/0"))
  )
  error_message = "${change.address} opens SSH (port 22) to 0.0.0.0/0; allow an admin network instead."
}

policy "no_destroy_of_protected_types" {
  description    = "Databases, buckets and the VPC are not destroyed in prod unless allow_destroy is set"
  enforcement    = "mandatory"
  resource_types = ["aws_db_instance", "aws_rds_cluster", "aws_s3_bucket", "aws_vpc"]
  actions        = ["delete"] # a replacement deletes too, so it is checked as well
  condition      = var.environment != "prod" || var.allow_destroy
  error_message  = "${change.address} would be destroyed (${change.action}) in prod; run with -var=allow_destroy=true to allow it."
}
