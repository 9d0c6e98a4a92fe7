package dev.strata.config;

import static dev.strata.config.Fixtures.brief;
import static dev.strata.config.Fixtures.validate;
import static dev.strata.config.Fixtures.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ValidatorTest {
    @TempDir
    Path dir;

    private Diagnostics run(String main) {
        write(dir, "main.tf", main);
        return validate(dir);
    }

    private static String detail(Diagnostics ds, int i) {
        return ds.asList().get(i).detail();
    }

    @Test
    void undeclaredReferencesWithSuggestions() {
        Diagnostics ds = run("""
                variable "region" {}
                locals { name = "x" }
                resource "aws_instance" "web" {}
                module "net" { source = "./net" }
                output "a" { value = var.regoin }
                output "b" { value = local.nmae }
                output "c" { value = aws_instance.webb.id }
                output "d" { value = data.aws_ami.x.id }
                output "e" { value = module.nett.x }
                output "f" { value = module.net.y }
                output "g" { value = var.other }
                """);
        write(dir, "net/main.tf", "output \"x\" { value = 1 }\n");
        ds = validate(dir);
        assertThat(brief(ds))
                .containsExactly(
                        "main.tf:5,22-32: Reference to undeclared input variable",
                        "main.tf:6,22-32: Reference to undeclared local value",
                        "main.tf:7,22-39: Reference to undeclared resource",
                        "main.tf:8,22-36: Reference to undeclared resource",
                        "main.tf:9,22-35: Reference to undeclared module",
                        "main.tf:10,32-34: Unsupported attribute",
                        "main.tf:11,22-31: Reference to undeclared input variable");
        assertThat(detail(ds, 0))
                .isEqualTo("An input variable with the name \"regoin\" has not been declared. Did you "
                        + "mean \"region\"?");
        assertThat(detail(ds, 1)).endsWith("Did you mean \"name\"?");
        assertThat(detail(ds, 2))
                .isEqualTo("A managed resource \"aws_instance\" \"webb\" has not been declared in the "
                        + "root module. Did you mean \"web\"?");
        assertThat(detail(ds, 3)).startsWith("A data resource \"aws_ami\" \"x\"");
        assertThat(detail(ds, 4)).endsWith("Did you mean \"net\"?");
        assertThat(detail(ds, 6))
                .isEqualTo("An input variable with the name \"other\" has not been declared. This "
                        + "variable can be declared with a variable \"other\" {} block.");
    }

    @Test
    void instancingRulesReportedOncePerReferenceAtItsRange() {
        Diagnostics ds = run("""
                resource "terraform_data" "counted" { count = 2 }
                resource "terraform_data" "keyed" { for_each = toset(["a", "b"]) }
                resource "terraform_data" "single" {}
                resource "terraform_data" "uses" {
                  input = [
                    terraform_data.counted.id,
                    terraform_data.keyed.id,
                    terraform_data.single[0].id,
                    terraform_data.counted[5].id,
                    terraform_data.counted["x"].id,
                    terraform_data.keyed["c"].id,
                    terraform_data.counted[1].id,
                    terraform_data.keyed["a"].id,
                    terraform_data.counted[*].id,
                    length(terraform_data.keyed),
                    [for k, v in terraform_data.keyed : v.id],
                  ]
                }
                """);
        assertThat(brief(ds))
                .containsExactly(
                        "main.tf:6,5-27: Missing resource instance key",
                        "main.tf:7,5-25: Missing resource instance key",
                        "main.tf:8,5-29: Unexpected resource instance key",
                        "main.tf:9,5-30: Invalid resource instance key",
                        "main.tf:10,5-32: Invalid resource instance key",
                        "main.tf:11,5-30: Invalid resource instance key");
        assertThat(detail(ds, 0))
                .isEqualTo("Because terraform_data.counted has \"count\" set, its attributes must be "
                        + "accessed on specific instances.\n\nFor example, to correlate with indices of a referring resource, "
                        + "use:\n    terraform_data.counted[count.index]");
        assertThat(detail(ds, 1)).endsWith("terraform_data.keyed[each.key]");
        assertThat(detail(ds, 3)).contains("numbered from 0 to 1");
        assertThat(detail(ds, 5)).contains("\"a\", \"b\"");
    }

    @Test
    void anAbsentInstanceKeyIsNoErrorWhereFailureIsHandled() {
        // As in Terraform: try()/can() and conditional results may name an instance that a literal
        // count or for_each does not create (the VPC module's `try(aws_x.this[0].id, null)`).
        Diagnostics ds = run("""
                resource "terraform_data" "none" { count = 0 }
                resource "terraform_data" "keyed" { for_each = toset(["a"]) }
                output "a" { value = try(terraform_data.none[0].id, null) }
                output "b" { value = can(terraform_data.keyed["z"]) }
                output "c" { value = length(terraform_data.none) > 0 ? terraform_data.none[0].id : null }
                output "d" { value = terraform_data.none[0].id }
                """);
        assertThat(brief(ds)).containsExactly("main.tf:6,22-44: Invalid resource instance key");
    }

    @Test
    void countEachAndSelfOutsideTheirBlocks() {
        Diagnostics ds = run("""
                resource "terraform_data" "a" {
                  input = count.index
                  lifecycle {
                    precondition {
                      condition     = self.id != ""
                      error_message = each.key
                    }
                  }
                }
                resource "terraform_data" "b" {
                  count = 1
                  input = [count.index, each.value]
                  lifecycle {
                    postcondition {
                      condition     = self.id != ""
                      error_message = "x"
                    }
                  }
                }
                output "o" { value = count.index }
                """);
        assertThat(brief(ds))
                .containsExactly(
                        "main.tf:2,11-22: Reference to \"count\" in non-counted context",
                        "main.tf:5,23-27: Invalid \"self\" reference",
                        "main.tf:6,23-31: Reference to \"each\" in context without for_each",
                        "main.tf:12,25-35: Reference to \"each\" in context without for_each",
                        "main.tf:20,22-33: Reference to \"count\" in non-counted context");
    }

    @Test
    void literalCountAndForEach() {
        Diagnostics ds = run("""
                resource "terraform_data" "a" { count = -1 }
                resource "terraform_data" "b" { count = 1.5 }
                resource "terraform_data" "c" { for_each = ["a"] }
                resource "terraform_data" "d" { for_each = toset([1]) }
                resource "terraform_data" "e" { count = null }
                resource "terraform_data" "f" { count = "2" }
                resource "terraform_data" "g" { for_each = { a = 1 } }
                module "m" {
                  source = "./m"
                  count  = -2
                }
                """);
        write(dir, "m/main.tf", "");
        ds = validate(dir);
        assertThat(brief(ds))
                .containsExactly(
                        "main.tf:1,41-43: Invalid count argument",
                        "main.tf:2,41-44: Invalid count argument",
                        "main.tf:3,44-49: Invalid for_each argument",
                        "main.tf:4,44-54: Invalid for_each set argument",
                        "main.tf:5,41-45: Invalid count argument",
                        "main.tf:10,12-14: Invalid count argument");
        assertThat(detail(ds, 0))
                .isEqualTo("The given \"count\" argument value is unsuitable: must be greater than or "
                        + "equal to zero.");
        assertThat(detail(ds, 2))
                .isEqualTo("The given \"for_each\" argument value is unsuitable: the \"for_each\" "
                        + "argument must be a map, or set of strings, and you have provided a value of type tuple.");
    }

    @Test
    void unknownFunctionsAndTypeErrors() {
        Diagnostics ds = run("""
                variable "s" { type = string }
                locals {
                  a = lenght([1])
                  b = 1 + "x"
                  c = var.s.attr
                  d = upper(var.s)
                }
                """);
        assertThat(brief(ds))
                .containsExactly(
                        "main.tf:3,7-13: Call to unknown function",
                        "main.tf:4,11-14: Invalid operand",
                        "main.tf:5,12-17: Unsupported attribute");
        assertThat(detail(ds, 0)).isEqualTo("There is no function named \"lenght\". Did you mean \"length\"?");
    }

    @Test
    void moduleArgumentsAgainstChildVariables() {
        write(dir, "main.tf", """
                module "m" {
                  source = "./m"
                  regoin = "x"
                }
                """, "m/main.tf", """
                variable "region" {}
                variable "opt" { default = 1 }
                """);
        Diagnostics ds = validate(dir);
        assertThat(brief(ds))
                .containsExactly("main.tf:1,12-12: Missing required argument", "main.tf:3,3-9: Unsupported argument");
        assertThat(detail(ds, 1)).endsWith("Did you mean \"region\"?");
    }

    @Test
    void dynamicBlockIteratorsAndForVariablesAreBound() {
        Diagnostics ds = run("""
                variable "rules" { type = list(object({ port = number })) }
                resource "aws_security_group" "sg" {
                  dynamic "ingress" {
                    for_each = var.rules
                    content {
                      from_port = ingress.value.port
                      dynamic "x" {
                        for_each = [1]
                        iterator = it
                        content { v = it.value + ingress.key }
                      }
                    }
                  }
                  tags = { for k, v in var.rules : k => v.port }
                }
                """);
        assertThat(brief(ds)).isEmpty();
    }

    @Test
    void checkScopedDataIsVisibleOnlyInItsCheck() {
        Diagnostics ds = run("""
                check "c" {
                  data "http" "h" { url = "x" }
                  assert {
                    condition     = data.http.h.status_code == 200
                    error_message = "down"
                  }
                }
                output "o" { value = data.http.h.status_code }
                """);
        assertThat(brief(ds)).containsExactly("main.tf:8,22-33: Reference to scoped resource");
    }

    @Test
    void selfReferenceAndModuleInstanceKeys() {
        write(dir, "main.tf", """
                resource "terraform_data" "a" { input = terraform_data.a.id }
                module "m" {
                  source   = "./m"
                  for_each = toset(["x"])
                }
                module "s" { source = "./m" }
                output "a" { value = module.m.out }
                output "b" { value = module.m["x"].out }
                output "c" { value = module.s["x"].out }
                output "d" { value = module.m["x"].nope }
                """, "m/main.tf", "output \"out\" { value = 1 }\n");
        Diagnostics ds = validate(dir);
        assertThat(brief(ds))
                .containsExactly(
                        "main.tf:1,41-57: Self-referential block",
                        "main.tf:7,22-34: Missing module instance key",
                        "main.tf:9,22-39: Unexpected module instance key",
                        "main.tf:10,35-40: Unsupported attribute");
    }

    @Test
    void eachDiagnosticHasExactlyOneOwner() {
        Diagnostics ds = run("""
                resource "terraform_data" "x" {
                  count = 3
                  input = var.nope
                }
                """);
        assertThat(ds.asList())
                .extracting(Diagnostic::summary)
                .containsExactly("Reference to undeclared input variable");
    }

    @Test
    void jsonConfigurationsAreValidatedWithJsonRanges() {
        write(dir, "main.tf.json", """
                {
                  "variable": {"rules": {"type": "list(number)"}},
                  "resource": {"aws_security_group": {"sg": {
                    "count": "${length(var.rules)}",
                    "name": "${var.nme}",
                    "dynamic": {"ingress": {
                      "for_each": "${var.rules}",
                      "content": {"from_port": "${ingress.value}"}
                    }}
                  }}},
                  "output": {"o": {"value": "${aws_security_group.sg.id}"}}
                }
                """);
        Diagnostics ds = validate(dir);
        assertThat(brief(ds))
                .containsExactly(
                        "main.tf.json:5,16-23: Reference to undeclared input variable",
                        "main.tf.json:11,32-53: Missing resource instance key");
    }

    @Test
    void localCyclesAreReportedOnceNamingEveryReference() {
        Diagnostics ds = run("""
                locals {
                  a = local.b
                  b = [local.c, local.ok]
                  c = "${local.a}"
                  ok = 1
                  self = local.self
                }
                """);
        assertThat(brief(ds))
                .containsExactly("main.tf:2,3-14: Cycle in local values", "main.tf:6,3-20: Cycle in local values");
        assertThat(detail(ds, 0))
                .isEqualTo("These local values refer to each other, so none can be evaluated: "
                        + "local.a refers to local.b at main.tf:2,7-14, which refers to local.c at main.tf:3,8-15, which "
                        + "refers to local.a at main.tf:4,10-17. Break the cycle by computing one of them without the "
                        + "others.");
    }

    @Test
    void providerConfigurationReferences() {
        Diagnostics ds = run("""
                provider "aws" { alias = "west" }
                provider "aws" {
                  alias    = "by_region"
                  for_each = toset(["a", "b"])
                }
                resource "aws_instance" "a" { provider = aws.wets }
                resource "aws_instance" "b" { provider = aws.by_region }
                resource "aws_instance" "c" { provider = aws.west["x"] }
                resource "aws_instance" "d" {
                  for_each = toset(["a"])
                  provider = aws.by_region[each.key]
                }
                resource "aws_instance" "e" { provider = aws.west }
                """);
        assertThat(brief(ds))
                .containsExactly(
                        "main.tf:6,42-50: Provider configuration not present",
                        "main.tf:7,42-55: Missing provider instance key",
                        "main.tf:8,42-55: Unexpected provider instance key");
        assertThat(detail(ds, 0)).endsWith("Did you mean \"west\"?");
    }

    @Test
    void importTargetsWithoutConfigurationAreLeftToThePlan() {
        Diagnostics ds = run("""
                resource "terraform_data" "t" { for_each = toset(["a"]) }
                import {
                  for_each = toset(["a"])
                  to       = terraform_data.t[each.key]
                  id       = each.value
                }
                import {
                  to = terraform_data.missing
                  id = "x"
                }
                """);
        // As terraform validate: the plan reports it, or writes the configuration with -generate-config-out.
        assertThat(brief(ds)).isEmpty();
    }

    @Test
    void constantLocalsAreKnownAtValidateTime() {
        Diagnostics ds = run("""
                variable "v" { type = string }
                locals {
                  n     = -1
                  half  = 1.5
                  list  = ["a"]
                  s     = "abc"
                  keys  = toset(["a", "b"])
                  bad   = local.s + 1
                  fromv = var.v
                  two   = local.one + 1
                  one   = 1
                  loop1 = local.loop2
                  loop2 = local.loop1
                }
                resource "terraform_data" "a" { count = local.n }
                resource "terraform_data" "b" { count = local.half }
                resource "terraform_data" "c" { for_each = local.list }
                resource "terraform_data" "d" { for_each = local.keys }
                resource "terraform_data" "e" { count = local.two }
                resource "terraform_data" "f" { count = length(local.fromv) }
                output "o1" { value = local.s * 2 }
                output "o2" { value = terraform_data.d["z"].id }
                output "o3" { value = terraform_data.e[2].id }
                output "o4" { value = local.fromv }
                output "o5" { value = local.bad * 2 }
                output "o6" { value = terraform_data.d["b"].id }
                output "o7" { value = local.loop1 * 2 }
                """);
        assertThat(brief(ds))
                .containsExactly(
                        "main.tf:8,11-18: Invalid operand",
                        "main.tf:12,3-22: Cycle in local values",
                        "main.tf:15,41-48: Invalid count argument",
                        "main.tf:16,41-51: Invalid count argument",
                        "main.tf:17,44-54: Invalid for_each argument",
                        "main.tf:21,23-30: Invalid operand",
                        "main.tf:22,23-44: Invalid resource instance key",
                        "main.tf:23,23-42: Invalid resource instance key");
        assertThat(detail(ds, 2)).endsWith("must be greater than or equal to zero.");
        assertThat(detail(ds, 7)).contains("count = 2");
    }

    @Test
    void aSelfContainedLocalIsEvaluatedOnceForTheLiteralChecksAndItsOwnCheck() {
        write(dir, "main.tf", """
                locals {
                  keys   = toset([for i in range(50) : counted(i)])
                  suffix = "-${local.keys == null ? 0 : 1}"
                  bad    = counted(1) * 2
                }
                module "m" {
                  source   = "./m"
                  for_each = local.keys
                }
                resource "terraform_data" "r" {
                  for_each = local.keys
                  input    = "${each.key}${local.suffix}"
                }
                resource "terraform_data" "s" {
                  count = local.bad
                }
                """);
        write(dir, "m/main.tf", "");
        java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
        dev.strata.lang.funcs.Function counted = dev.strata.lang.funcs.Function.builder("counted")
                .param("n", dev.strata.lang.types.Type.NUMBER)
                .returns(dev.strata.lang.types.Type.STRING)
                .impl((a, t) -> {
                    calls.incrementAndGet();
                    return dev.strata.lang.value.Value.string(
                            "k" + a.getFirst().asNumber().intValue());
                })
                .build();
        dev.strata.lang.funcs.FunctionTable functions = dev.strata.lang.eval.TemplateFunctions.planning(
                        dev.strata.lang.funcs.FunctionContext.system(dir))
                .with(counted);
        Result<ConfigTree> tree = Fixtures.load(dir);
        Diagnostics ds = Validator.validate(tree.value(), m -> functions);
        // keys: 50 calls, once for both for_each checks and its own check (100 before); bad: 1 call for the
        // count check and its own, its error reported once.
        assertThat(calls.get()).isEqualTo(51);
        assertThat(brief(ds)).containsExactly("main.tf:4,12-22: Invalid operand");
    }
}
