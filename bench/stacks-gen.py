#!/usr/bin/env python3
"""Writes a Stack for the Stacks scale benchmark: DEPLOYMENTS deployments of COMPONENTS components
(each one reading the previous one's output), each component a module of RESOURCES terraform_data.

    bench/stacks-gen.py DIR [DEPLOYMENTS] [COMPONENTS] [RESOURCES]      (default 20 10 50)

Then: strata stacks apply -auto-approve (apply) and strata stacks plan (no-change plan) in DIR.
"""
import os
import sys

out = sys.argv[1]
deployments = int(sys.argv[2]) if len(sys.argv) > 2 else 20
components = int(sys.argv[3]) if len(sys.argv) > 3 else 10
resources = int(sys.argv[4]) if len(sys.argv) > 4 else 50

os.makedirs(os.path.join(out, "mod"), exist_ok=True)
with open(os.path.join(out, "mod", "main.tf"), "w") as f:
    f.write('variable "seed" {\n  type = string\n}\n\n')
    f.write('resource "terraform_data" "r" {\n  count = %d\n  input = "${var.seed}-${count.index}"\n}\n\n' % resources)
    f.write('output "last" {\n  value = terraform_data.r[%d].output\n}\n' % (resources - 1))

with open(os.path.join(out, "main.tfcomponent.hcl"), "w") as f:
    f.write('variable "name" {\n  type = string\n}\n\nprovider "terraform" "main" {}\n')
    for c in range(components):
        seed = 'var.name' if c == 0 else 'component.c%d.last' % (c - 1)
        f.write('\ncomponent "c%d" {\n  source    = "./mod"\n  inputs    = { seed = %s }\n'
                '  providers = { terraform = provider.terraform.main }\n}\n' % (c, seed))

with open(os.path.join(out, "main.tfdeploy.hcl"), "w") as f:
    for d in range(deployments):
        f.write('deployment "d%02d" {\n  inputs = { name = "d%02d" }\n}\n\n' % (d, d))
