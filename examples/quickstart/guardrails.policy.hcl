# Guardrails for the quickstart, checked by every plan, apply and destroy in this directory (Strata
# reads the root module's *.policy.hcl files; Terraform ignores them). See docs/guardrails.md.

policy "owner_tag" {
  description   = "Every taggable resource names its owner in an owner tag"
  enforcement   = "mandatory"
  actions       = ["create", "update"]
  # Resources without a tags argument (all of this example's, so far) pass.
  condition     = !can(change.after.tags) || contains(keys(coalesce(try(change.after.tags, null), {})), "owner")
  error_message = "${change.address} has no owner tag; add tags = { owner = \"...\" }."
}

policy "no_public_ssh" {
  description    = "No service listens on the SSH port"
  enforcement    = "advisory"
  resource_types = ["terraform_data"]
  actions        = ["create", "update"]
  condition      = try(change.after.input.port, null) != 22
  error_message  = "${change.address} puts a service on port 22 (SSH); pick another port."
}

policy "no_destroy_of_protected_types" {
  description    = "In prod, keys and the generated name are not destroyed unless allow_destroy is set"
  enforcement    = "mandatory"
  resource_types = ["tls_private_key", "random_pet"]
  actions        = ["delete"] # a replacement deletes too, so it is checked as well
  condition      = var.environment != "prod" || var.allow_destroy
  error_message  = "${change.address} would be destroyed (${change.action}) in prod; run with -var=allow_destroy=true to allow it."
}
