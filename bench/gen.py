#!/usr/bin/env python3
"""Writes a benchmark configuration of about N resource instances into a directory.

    bench/gen.py SHAPE N DIR [--provider data|sim] [--block B] [--width W] [--keys K]
                             [--per-module R] [--vars V]

Shapes (the instance count is exactly N where N divides evenly, else rounded down):
  wide      N independent instances: N/B resource blocks with count = B (B = --block, default 10)
  chain     N instances in one dependency chain: block i reads block i-1
  layered   N/(W+1) layers of W instances (W = --width, default 100) plus one "hub" each: every
            instance of a layer reads the hub before it (fan-out), the layer's hub reads all W
            instances of its layer (fan-in)
  modules   one local module called with for_each over K keys (K = N/R); the module declares R
            (--per-module, default 20) resources, each reading the one before it and V variables
            (--vars, default 10)
  expr      heavy expressions: locals built with for expressions, merge, flatten and templates,
            and resources with for_each over those maps
  bigvalue  one instance whose input is a string of N megabytes (10^6 bytes of printable ASCII, no
            newline) read with file("big.txt"): the memory of a large value through plan, journal,
            state and the rendered plan
Providers: data = terraform_data (built in, zero latency; works with Terraform too), sim = Strata's
cloud simulator (cloudsim_bucket; endpoint from the variable "endpoint").
With --state (shape wide, provider data only) it also writes the terraform.tfstate an apply of the
configuration would leave, so that a "no changes" plan can be measured without the apply first.
The generator is deterministic: the same arguments write the same files.
"""
import argparse
import os
import sys


def header(provider):
    if provider == "sim":
        return (
            'variable "endpoint" {\n  type = string\n}\n\n'
            'variable "client_id" {\n  type    = string\n  default = "bench"\n}\n\n'
            'terraform {\n  required_providers {\n    cloudsim = { source = "strata/cloudsim" }\n  }\n}\n\n'
            'provider "cloudsim" {\n  endpoint    = var.endpoint\n  client_id   = var.client_id\n'
            '  max_retries = 50\n}\n\n'
        )
    return ""


def res_type(provider):
    return "cloudsim_bucket" if provider == "sim" else "terraform_data"


def attr(provider):
    # the configurable argument and an attribute to read from another instance
    return ("name", "id") if provider == "sim" else ("input", "output")


def block(provider, name, value_expr, extra=""):
    t = res_type(provider)
    a, _ = attr(provider)
    return f'resource "{t}" "{name}" {{\n{extra}  {a} = {value_expr}\n}}\n\n'


def wide(n, args):
    b = max(1, min(args.block, n))
    out = []
    for i in range(n // b):
        out.append(block(args.provider, f"w{i}", f'"w{i}-${{count.index}}"', f"  count = {b}\n"))
    return "".join(out)


def wide_state(n, args):
    b = max(1, min(args.block, n))
    resources = []
    for i in sorted(range(n // b), key=lambda i: f"w{i}"):
        instances = []
        for k in range(b):
            v = {"value": f"w{i}-{k}", "type": "string"}
            instances.append({"index_key": k, "schema_version": 0, "attributes": {
                "id": "%08x-0000-4000-8000-%012x" % (i, k), "input": v, "output": v, "triggers_replace": None},
                "sensitive_attributes": []})
        resources.append({"mode": "managed", "type": "terraform_data", "name": f"w{i}",
                          "provider": 'provider["terraform.io/builtin/terraform"]', "instances": instances})
    return {"version": 4, "terraform_version": "1.11.4", "serial": 1,
            "lineage": "00000000-0000-4000-8000-000000000000", "outputs": {}, "resources": resources,
            "check_results": None}


def chain(n, args):
    t = res_type(args.provider)
    _, read = attr(args.provider)
    out = [block(args.provider, "c0", '"c00"')]
    for i in range(1, n):
        # the length, not the value: a value that embedded its predecessor's would grow with the chain
        out.append(block(args.provider, f"c{i}", f'"c{i}-${{length({t}.c{i - 1}.{read})}}"'))
    return "".join(out)


def layered(n, args):
    t = res_type(args.provider)
    _, read = attr(args.provider)
    w = max(1, args.width)
    layers = max(1, n // (w + 1))
    out = [block(args.provider, "hub0", '"hub0"')]
    for l in range(1, layers + 1):
        # fan-out: W instances read the previous hub; fan-in: the new hub reads all W of them
        out.append(block(args.provider, f"l{l}", f'"l{l}-${{count.index}}-${{{t}.hub{l - 1}.{read}}}"',
                         f"  count = {w}\n"))
        out.append(block(args.provider, f"hub{l}",
                         f'"hub{l}-${{length(join(",", [for x in {t}.l{l} : x.{read}]))}}"'))
    return "".join(out)


def modules(n, args, root):
    r = max(1, args.per_module)
    k = max(1, n // r)
    v = max(1, args.vars)
    t = res_type(args.provider)
    a, read = attr(args.provider)
    child = []
    if args.provider == "sim":
        child.append('terraform {\n  required_providers {\n    cloudsim = { source = "strata/cloudsim" }\n  }\n}\n\n')
    child.append('variable "key" {\n  type = string\n}\n\n')
    for j in range(v):
        child.append(f'variable "v{j}" {{\n  type    = string\n  default = "d{j}"\n}}\n\n')
    child.append("locals {\n  prefix = \"${var.key}-${var.v0}\"\n}\n\n")
    for j in range(r):
        src = f'"${{local.prefix}}-r{j}-${{var.v{j % v}}}"' if j == 0 else \
            f'"${{local.prefix}}-r{j}-${{var.v{j % v}}}-${{length({t}.r{j - 1}.{read})}}"'
        child.append(f'resource "{t}" "r{j}" {{\n  {a} = {src}\n}}\n\n')
    child.append(f'output "last" {{\n  value = {t}.r{r - 1}.{read}\n}}\n')
    os.makedirs(os.path.join(root, "modules", "unit"), exist_ok=True)
    with open(os.path.join(root, "modules", "unit", "main.tf"), "w") as f:
        f.write("".join(child))
    args_lines = "".join(f'  v{j} = "k-${{each.key}}-{j}"\n' for j in range(v))
    # range() yields at most 1,024 values (Terraform's limit too): more keys come from nested ranges.
    if k <= 1024:
        keys = f'toset([for i in range({k}) : format("k%05d", i)])'
    else:
        hi = (k + 999) // 1000
        keys = (f'toset(flatten([for a in range({hi}) : [for b in range(1000) : format("k%05d", a * 1000 + b)'
                f' if a * 1000 + b < {k}]]))')
    return (f'locals {{\n  keys = {keys}\n}}\n\n'
            f'module "m" {{\n  source   = "./modules/unit"\n  for_each = local.keys\n  key      = each.key\n'
            f'{args_lines}}}\n\n'
            f'output "count" {{\n  value = length(module.m)\n}}\n')


def expr(n, args):
    t = res_type(args.provider)
    a, read = attr(args.provider)
    groups = max(1, n // 100)
    out = [f'locals {{\n  groups = [for g in range({groups}) : format("g%04d", g)]\n'
           '  items  = merge([for g in local.groups : { for i in range(100) : "${g}-${i}" => {\n'
           '    name = "svc-${g}-${i}"\n    port = 8000 + i\n    tags = { team = upper(g), idx = tostring(i % 7) }\n'
           '  } }]...)\n'
           '  flat   = flatten([for k, v in local.items : [v.name, v.tags.team]])\n'
           '}\n\n']
    out.append(f'resource "{t}" "e" {{\n  for_each = local.items\n'
               f'  {a} = "${{each.value.name}}:${{each.value.port}}:${{join("/", [for k in sort(keys(each.value.tags)) : "${{k}}=${{each.value.tags[k]}}"])}}"\n'
               '}\n\n')
    out.append(f'output "n" {{\n  value = length(local.flat)\n}}\n')
    return "".join(out)


def bigvalue(n, args, root):
    line = "".join(chr(33 + (i * 7919) % 94) for i in range(1000)).replace('"', "q").replace("\\", "b")
    with open(os.path.join(root, "big.txt"), "w") as f:
        for _ in range(n * 1000):
            f.write(line)
    return block(args.provider, "big", 'file("${path.module}/big.txt")')


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("shape", choices=["wide", "chain", "layered", "modules", "expr", "bigvalue"])
    p.add_argument("n", type=int)
    p.add_argument("dir")
    p.add_argument("--provider", choices=["data", "sim"], default="data")
    p.add_argument("--block", type=int, default=10)
    p.add_argument("--width", type=int, default=100)
    p.add_argument("--per-module", type=int, default=20)
    p.add_argument("--vars", type=int, default=10)
    p.add_argument("--state", action="store_true")
    args = p.parse_args()
    if args.n < 1:
        sys.exit("gen: N must be at least 1")
    os.makedirs(args.dir, exist_ok=True)
    body = {
        "wide": lambda: wide(args.n, args),
        "chain": lambda: chain(args.n, args),
        "layered": lambda: layered(args.n, args),
        "modules": lambda: modules(args.n, args, args.dir),
        "expr": lambda: expr(args.n, args),
        "bigvalue": lambda: bigvalue(args.n, args, args.dir),
    }[args.shape]()
    with open(os.path.join(args.dir, "main.tf"), "w") as f:
        f.write(header(args.provider) + body)
    if args.state:
        if args.shape != "wide" or args.provider != "data":
            sys.exit("gen: --state is implemented for the shape wide with the provider data")
        import json
        with open(os.path.join(args.dir, "terraform.tfstate"), "w") as f:
            json.dump(wide_state(args.n, args), f, indent=2)
            f.write("\n")


if __name__ == "__main__":
    main()
