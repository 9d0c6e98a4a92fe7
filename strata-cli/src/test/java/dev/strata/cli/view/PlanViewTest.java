package dev.strata.cli.view;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.addr.AbsProviderConfig;
import dev.strata.addr.AbsResourceInstance;
import dev.strata.addr.Addrs;
import dev.strata.addr.AttributePath;
import dev.strata.addr.Module;
import dev.strata.addr.Provider;
import dev.strata.cli.command.CommandContext;
import dev.strata.engine.Action;
import dev.strata.engine.Plan;
import dev.strata.engine.PlanMode;
import dev.strata.engine.ResourceChange;
import dev.strata.engine.Schemas;
import dev.strata.hcl.Diagnostics;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Mark;
import dev.strata.lang.value.Value;
import dev.strata.provider.ProviderRegistry;
import dev.strata.state.StateSnapshot;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Exact plan text for each action and value shape, as Terraform prints them. */
class PlanViewTest {
    private static final AbsProviderConfig DATA = new AbsProviderConfig(Module.ROOT, Provider.BUILTIN_TERRAFORM, null);
    private static final AbsProviderConfig SIM = new AbsProviderConfig(
            Module.ROOT, Provider.parse("strata/cloudsim", null).value(), null);

    private static String render(ResourceChange... changes) {
        CommandContext ctx = new CommandContext(
                Path.of("."),
                new ByteArrayInputStream(new byte[0]),
                new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(new ByteArrayOutputStream()),
                false,
                80,
                Map.of(),
                "test");
        PlanView v =
                new PlanView(ctx).withSchemas(new Schemas(ProviderRegistry.load(PlanViewTest.class.getClassLoader())));
        Plan p = new Plan(
                PlanMode.NORMAL,
                StateSnapshot.empty("test"),
                new TreeMap<>(),
                List.of(changes),
                List.of(),
                List.of(),
                new TreeMap<>(),
                List.of(),
                Diagnostics.NONE,
                java.time.Instant.EPOCH);
        String all = v.render(p);
        return all.substring(all.indexOf("  # "), all.indexOf("Plan:"));
    }

    private static AbsResourceInstance addr(String s) {
        return Addrs.parseAbsResourceInstance(s).value();
    }

    private static ResourceChange change(
            String address,
            Action a,
            Value before,
            Value after,
            AbsProviderConfig p,
            List<AttributePath> replace,
            String reason) {
        return new ResourceChange(addr(address), null, a, before, after, replace, reason, p, 0, null, null, null);
    }

    private static Value data(Value id, Value input, Value output, Value triggers) {
        return Value.objectOf("id", id, "input", input, "output", output, "triggers_replace", triggers);
    }

    private static final Value NULL_DATA =
            Value.nullValue(data(Value.NULL, Value.NULL, Value.NULL, Value.NULL).type());

    @Test
    void createWithMapsListsSetsHeredocsAndSensitiveValues() {
        Value input = Value.objectOf(
                "list", Value.listOf(List.of(Value.string("a"), Value.string("b"))),
                "map", Value.map(Type.STRING, Map.of("k1", Value.string("v1"), "k-2", Value.string("v2"))),
                "set", Value.setOf(List.of(Value.number(1), Value.number(2))),
                "text", Value.string("line one\nline two\n"),
                "secret", Value.string("hunter2").mark(Mark.SENSITIVE));
        String text = render(change(
                "terraform_data.x",
                Action.CREATE,
                NULL_DATA,
                data(Value.unknown(Type.STRING), input, Value.unknown(Type.DYNAMIC), Value.nullValue(Type.DYNAMIC)),
                DATA,
                List.of(),
                null));
        assertThat(text).isEqualTo("""
                  # terraform_data.x will be created
                  + resource "terraform_data" "x" {
                      + id     = (known after apply)
                      + input  = {
                          + list   = [
                              + "a",
                              + "b",
                            ]
                          + map    = {
                              + k-2 = "v2"
                              + k1  = "v1"
                            }
                          + secret = (sensitive value)
                          + set    = [
                              + 1,
                              + 2,
                            ]
                          + text   = <<-EOT
                                line one
                                line two
                            EOT
                        }
                      + output = (known after apply)
                    }

                """);
        assertThat(text).doesNotContain("hunter2");
    }

    @Test
    void updateInPlaceShowsOnlyWhatChangesAndCountsTheRest() {
        Value before = data(
                Value.string("i-1"),
                Value.objectOf(
                        "a",
                        Value.string("x"),
                        "b",
                        Value.number(1),
                        "c",
                        Value.listOf(List.of(Value.string("p"), Value.string("q")))),
                Value.string("o"),
                Value.NULL);
        Value after = data(
                Value.string("i-1"),
                Value.objectOf(
                        "a",
                        Value.string("y"),
                        "b",
                        Value.number(1),
                        "c",
                        Value.listOf(List.of(Value.string("p"), Value.string("r")))),
                Value.unknown(Type.DYNAMIC),
                Value.NULL);
        assertThat(render(change("terraform_data.x", Action.UPDATE, before, after, DATA, List.of(), null)))
                .isEqualTo("""
                  # terraform_data.x will be updated in-place
                  ~ resource "terraform_data" "x" {
                        id     = "i-1"
                      ~ input  = {
                          ~ a = "x" -> "y"
                          ~ c = [
                                "p",
                              ~ "q" -> "r",
                            ]
                            # (1 unchanged attribute hidden)
                        }
                      ~ output = "o" -> (known after apply)
                    }

                """);
    }

    /**
     * terraform_data's triggers_replace forces the replacement but is dynamically typed: Terraform renders
     * such an attribute as JSON, without "# forces replacement" (measured with terraform 1.11).
     */
    @Test
    void replacementsInBothOrdersLeaveADynamicForcingAttributeUnmarked() {
        Value before = data(Value.string("i-1"), Value.string("v"), Value.string("v"), Value.string("t1"));
        Value after =
                data(Value.unknown(Type.STRING), Value.string("v"), Value.unknown(Type.DYNAMIC), Value.string("t2"));
        List<AttributePath> forcing = List.of(AttributePath.of("triggers_replace"));
        assertThat(render(change(
                        "terraform_data.x",
                        Action.DELETE_THEN_CREATE,
                        before,
                        after,
                        DATA,
                        forcing,
                        "replace_because_cannot_update")))
                .isEqualTo("""
                  # terraform_data.x must be replaced
                -/+ resource "terraform_data" "x" {
                      ~ id               = "i-1" -> (known after apply)
                      ~ output           = "v" -> (known after apply)
                      ~ triggers_replace = "t1" -> "t2"
                        # (1 unchanged attribute hidden)
                    }

                """);
        assertThat(render(change(
                        "terraform_data.x",
                        Action.CREATE_THEN_DELETE,
                        before,
                        after,
                        DATA,
                        forcing,
                        "replace_by_request")))
                .startsWith("""
                  # terraform_data.x will be replaced, as requested
                +/- resource "terraform_data" "x" {
                """);
    }

    @Test
    void deleteShowsEveryAttributeGoingAway() {
        Value before = data(Value.string("i-1"), Value.listOf(List.of(Value.number(0))), Value.string("o"), Value.NULL);
        assertThat(render(change(
                        "terraform_data.x[1]",
                        Action.DELETE,
                        before,
                        NULL_DATA,
                        DATA,
                        List.of(),
                        "delete_because_count_index")))
                .isEqualTo("""
                  # terraform_data.x[1] will be destroyed
                  # (because index [1] is out of range for count)
                  - resource "terraform_data" "x" {
                      - id     = "i-1" -> null
                      - input  = [
                          - 0,
                        ] -> null
                      - output = "o" -> null
                    }

                """);
    }

    /** As terraform 1.11: an object whose resource is gone from its module is named without the module. */
    @Test
    void aResourceGoneFromItsModuleIsNamedWithinIt() {
        Value before = data(Value.string("i-1"), Value.NULL, Value.NULL, Value.NULL);
        assertThat(render(change(
                        "module.m[0].terraform_data.x",
                        Action.DELETE,
                        before,
                        NULL_DATA,
                        DATA,
                        List.of(),
                        "delete_because_no_resource_config")))
                .startsWith("""
                  # module.m[0].terraform_data.x will be destroyed
                  # (because terraform_data.x is not in configuration)
                """);
    }

    @Test
    void nestedBlocksRenderAsBlocks() {
        Value rule80 = Value.objectOf(
                "protocol",
                Value.string("tcp"),
                "from_port",
                Value.number(80),
                "to_port",
                Value.number(80),
                "cidr",
                Value.string("0.0.0.0/0"));
        Value rule443 = Value.objectOf(
                "protocol",
                Value.string("tcp"),
                "from_port",
                Value.number(443),
                "to_port",
                Value.number(443),
                "cidr",
                Value.string("0.0.0.0/0"));
        Value before = Value.objectOf(
                "network_id",
                Value.string("n-1"),
                "name",
                Value.string("web"),
                "id",
                Value.string("sg-1"),
                "arn",
                Value.string("arn:sg-1"),
                "rule",
                Value.listOf(List.of(rule80)));
        Value after = Value.objectOf(
                "network_id",
                Value.string("n-1"),
                "name",
                Value.string("web"),
                "id",
                Value.string("sg-1"),
                "arn",
                Value.string("arn:sg-1"),
                "rule",
                Value.listOf(List.of(rule80, rule443)));
        assertThat(render(change("cloudsim_security_group.web", Action.UPDATE, before, after, SIM, List.of(), null)))
                .isEqualTo("""
                  # cloudsim_security_group.web will be updated in-place
                  ~ resource "cloudsim_security_group" "web" {
                        id         = "sg-1"
                        name       = "web"
                        # (2 unchanged attributes hidden)

                      + rule {
                          + cidr      = "0.0.0.0/0"
                          + from_port = 443
                          + protocol  = "tcp"
                          + to_port   = 443
                        }

                        # (1 unchanged block hidden)
                    }

                """);
    }

    @Test
    void dataSourcesReadDuringApply() {
        Value after = Value.objectOf("filename", Value.string("/tmp/x"), "content", Value.unknown(Type.STRING));
        String text = render(new ResourceChange(
                addr("data.local_file.f"),
                null,
                Action.READ,
                Value.nullValue(after.type()),
                after,
                List.of(),
                "read_because_config_unknown",
                new AbsProviderConfig(
                        Module.ROOT, Provider.parse("hashicorp/local", null).value(), null),
                0,
                null,
                null,
                null));
        assertThat(text).startsWith("""
                  # data.local_file.f will be read during apply
                  # (config refers to values not yet known)
                 <= data "local_file" "f" {
                      + content  = (known after apply)
                      + filename = "/tmp/x"
                    }
                """);
    }
}
