package main

import rego.v1

# Every created or updated terraform_data names its owner.
deny contains msg if {
	some rc in input.resource_changes
	rc.type == "terraform_data"
	some action in rc.change.actions
	action in {"create", "update"}
	rc.change.after.input.tags.owner == ""
	msg := sprintf("%s has no owner", [rc.address])
}

# No ingress rule opens SSH to the whole internet.
deny contains msg if {
	some rc in input.resource_changes
	some rule in rc.change.after.input.ingress
	rule.port == 22
	rule.cidr == "0.0.0.0/0"
	msg := sprintf("%s opens SSH to 0.0.0.0/0", [rc.address])
}
