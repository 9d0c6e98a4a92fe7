package dev.strata.addr;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Result;
import java.util.List;
import org.junit.jupiter.api.Test;

class AddrsTest {

    @Test
    void parsesTheIssueExample() {
        Result<AbsResourceInstance> r = Addrs.parseAbsResourceInstance("module.net[\"eu\"].aws_subnet.a[0]");
        assertThat(r.value())
                .isEqualTo(new AbsResourceInstance(
                        ModuleInstance.ROOT.child("net", InstanceKey.of("eu")),
                        Resource.managed("aws_subnet", "a").instance(InstanceKey.of(0))));
        assertThat(r.value().toString()).isEqualTo("module.net[\"eu\"].aws_subnet.a[0]");
    }

    @Test
    void targetsOfEachKind() {
        assertThat(Addrs.parseTarget("module.a").value()).isEqualTo(ModuleInstance.ROOT.child("a", InstanceKey.NONE));
        assertThat(Addrs.parseTarget("data.aws_ami.x").value())
                .isEqualTo(new AbsResource(ModuleInstance.ROOT, Resource.data("aws_ami", "x")));
        assertThat(Addrs.parseTarget("module.a[1].data.aws_ami.x[\"k\"]")
                        .value()
                        .toString())
                .isEqualTo("module.a[1].data.aws_ami.x[\"k\"]");
    }

    @Test
    void badTargetsAreDiagnosedWithRanges() {
        Result<Targetable> r = Addrs.parseTarget("aws_instance");
        assertThat(r.value()).isNull();
        Diagnostic d = r.diagnostics().asList().getFirst();
        assertThat(d.summary()).isEqualTo("Invalid address");
        assertThat(d.subject().filename()).isEqualTo("<command-line>");

        r = Addrs.parseTarget("aws_instance.web[1.5]");
        assertThat(r.diagnostics().asList().getFirst().detail()).contains("whole number");
        assertThat(Addrs.parseTarget("aws_instance.web[0].id")
                        .diagnostics()
                        .asList()
                        .getFirst()
                        .detail())
                .contains("extra operators");
        assertThat(Addrs.parseTarget("module.").hasErrors()).isTrue();
    }

    @Test
    void referencesKeepTheRemainingSteps() {
        Reference r = Addrs.parseReference("aws_instance.web.id").value();
        assertThat(r.subject()).isEqualTo(Resource.managed("aws_instance", "web"));
        assertThat(r.remaining()).hasSize(1);
        assertThat(r.range().end().column()).isEqualTo(17);
        r = Addrs.parseReference("module.m[\"a\"].out.x").value();
        assertThat(r.subject().toString()).isEqualTo("module.m[\"a\"].out");
        assertThat(r.remaining()).hasSize(1);
        r = Addrs.parseReference("data.d.n[2]").value();
        assertThat(r.subject()).isEqualTo(Resource.data("d", "n").instance(InstanceKey.of(2)));
    }

    @Test
    void malformedReferences() {
        assertThat(Addrs.parseReference("var").diagnostics().asList().getFirst().detail())
                .isEqualTo("The \"var\" object cannot be accessed directly. Instead, access one of its attributes.");
        assertThat(Addrs.parseReference("count.foo")
                        .diagnostics()
                        .asList()
                        .getFirst()
                        .summary())
                .isEqualTo("Invalid \"count\" attribute");
        assertThat(Addrs.parseReference("each.index")
                        .diagnostics()
                        .asList()
                        .getFirst()
                        .summary())
                .isEqualTo("Invalid \"each\" attribute");
        assertThat(Addrs.parseReference("data.x")
                        .diagnostics()
                        .asList()
                        .getFirst()
                        .detail())
                .contains("two attribute names");
        assertThat(Addrs.parseReference("aws_instance")
                        .diagnostics()
                        .asList()
                        .getFirst()
                        .detail())
                .contains("specifying the resource name");
        assertThat(Addrs.parseReference("template.x")
                        .diagnostics()
                        .asList()
                        .getFirst()
                        .summary())
                .isEqualTo("Reserved symbol name");
    }

    @Test
    void providerSources() {
        assertThat(Provider.parse("aws", null).value().toString()).isEqualTo("registry.terraform.io/hashicorp/aws");
        assertThat(Provider.parse("Hashicorp/AWS", null).value().forDisplay()).isEqualTo("hashicorp/aws");
        assertThat(Provider.parse("example.com/acme/thing", null).value().forDisplay())
                .isEqualTo("example.com/acme/thing");
        assertThat(Provider.parse("a/b/c/d", null).hasErrors()).isTrue();
        assertThat(Provider.parse("acme/terraform-provider-x", null)
                        .diagnostics()
                        .asList()
                        .getFirst()
                        .detail())
                .contains("use \"x\"");
        assertThat(Provider.implied("terraform").isBuiltIn()).isTrue();
        AbsProviderConfig c = new AbsProviderConfig(Module.ROOT.child("m"), Provider.implied("aws"), "west");
        assertThat(c.toString()).isEqualTo("module.m.provider[\"registry.terraform.io/hashicorp/aws\"].west");
    }

    @Test
    void keysOrderIntsBeforeStrings() {
        List<InstanceKey> keys = new java.util.ArrayList<>(List.of(
                InstanceKey.of("b"), InstanceKey.of(10), InstanceKey.NONE, InstanceKey.of(2), InstanceKey.of("a")));
        java.util.Collections.sort(keys);
        assertThat(keys.toString()).isEqualTo("[, [2], [10], [\"a\"], [\"b\"]]");
        assertThat(InstanceKey.of("${x}\"\\").toString()).isEqualTo("[\"$${x}\\\"\\\\\"]");
    }

    /** As terraform 1.11 writes them in a plan: what Go does not count as printable is escaped, the rest kept. */
    @Test
    void stringKeysEscapeWhatIsNotPrintableAsTerraformDoes() {
        assertThat(InstanceKey.of("a\u200bb").toString()).isEqualTo("[\"a\\u200bb\"]");
        assertThat(InstanceKey.of("e\u0085f").toString()).isEqualTo("[\"e\\u0085f\"]");
        assertThat(InstanceKey.of("g\u007fh").toString()).isEqualTo("[\"g\\u007fh\"]");
        assertThat(InstanceKey.of("c\u00e9d\n").toString()).isEqualTo("[\"c\u00e9d\\n\"]");
    }
}
