package dev.strata.addr;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.hcl.Result;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class AddrProperties {

    @Property(tries = 500)
    void resourceInstancesRoundTrip(@ForAll("resourceInstances") AbsResourceInstance a) {
        Result<AbsResourceInstance> back = Addrs.parseAbsResourceInstance(a.toString());
        assertThat(back.diagnostics().isEmpty())
                .as(a + " " + back.diagnostics())
                .isTrue();
        assertThat(back.value()).isEqualTo(a);
        assertThat(back.value().toString()).isEqualTo(a.toString());
    }

    @Property(tries = 300)
    void targetsRoundTrip(@ForAll("resourceInstances") AbsResourceInstance a) {
        // A resource instance without a key renders as its resource, which is what a target of that
        // text means; the root module renders as nothing and is no target.
        List<Targetable> targets = new java.util.ArrayList<>(List.of(a.containingResource()));
        if (!(a.resource().key() instanceof InstanceKey.NoKey)) {
            targets.add(a);
        }
        if (!a.module().isRoot()) {
            targets.add(a.module());
        }
        for (Targetable t : targets) {
            assertThat(Addrs.parseTarget(t.toString()).value()).as(t.toString()).isEqualTo(t);
        }
    }

    @Property(tries = 300)
    void moduleInstancesRoundTrip(@ForAll("moduleInstances") ModuleInstance m) {
        assertThat(Addrs.parseModuleInstance(m.toString()).value()).isEqualTo(m);
    }

    @Property(tries = 300)
    void referencesRoundTrip(@ForAll("references") Referenceable r) {
        Result<Reference> back = Addrs.parseReference(r.toString());
        assertThat(back.diagnostics().isEmpty())
                .as(r + " " + back.diagnostics())
                .isTrue();
        assertThat(back.value().subject()).isEqualTo(r);
        assertThat(back.value().remaining()).isEmpty();
    }

    @Property(tries = 200)
    void orderIsConsistentWithEquals(
            @ForAll("resourceInstances") AbsResourceInstance a, @ForAll("resourceInstances") AbsResourceInstance b) {
        assertThat(a.compareTo(b) == 0).isEqualTo(a.equals(b));
        assertThat(Integer.signum(a.compareTo(b))).isEqualTo(-Integer.signum(b.compareTo(a)));
    }

    @Provide
    Arbitrary<AbsResourceInstance> resourceInstances() {
        return Combinators.combine(moduleInstances(), resources(), keys())
                .as((m, r, k) -> new AbsResourceInstance(m, r.instance(k)));
    }

    @Provide
    Arbitrary<ModuleInstance> moduleInstances() {
        return Combinators.combine(names(), keys())
                .as(ModuleInstance.Step::new)
                .list()
                .ofMaxSize(3)
                .map(ModuleInstance::new);
    }

    @Provide
    Arbitrary<Referenceable> references() {
        return Arbitraries.oneOf(
                names().map(InputVariable::new),
                names().map(LocalValue::new),
                names().map(ModuleCall::new),
                Combinators.combine(names(), keys())
                        .as((n, k) -> new ModuleCallInstance(new ModuleCall(n), k))
                        .filter(m -> !(m.key() instanceof InstanceKey.NoKey)),
                Combinators.combine(names(), keys(), names())
                        .as((n, k, o) -> new ModuleCallInstanceOutput(new ModuleCallInstance(new ModuleCall(n), k), o)),
                resources(),
                Combinators.combine(resources(), keys())
                        .as(Resource::instance)
                        .filter(r -> !(r.key() instanceof InstanceKey.NoKey)),
                Arbitraries.of(
                        new CountAttr("index"),
                        new ForEachAttr("key"),
                        new ForEachAttr("value"),
                        new PathAttr("module"),
                        new PathAttr("root"),
                        new PathAttr("cwd"),
                        new TerraformAttr("workspace"),
                        Self.INSTANCE));
    }

    Arbitrary<Resource> resources() {
        return Combinators.combine(Arbitraries.of(ResourceMode.values()), names(), names())
                .as(Resource::new);
    }

    Arbitrary<InstanceKey> keys() {
        Arbitrary<String> strings = Arbitraries.strings()
                .withCharRange(' ', '~')
                .withChars('\n', '\t', '\r', '\u0001', 'é', '€', '世')
                .ofMaxLength(12);
        return Arbitraries.oneOf(
                Arbitraries.just(InstanceKey.NONE),
                Arbitraries.integers().between(0, Integer.MAX_VALUE).map(InstanceKey::of),
                strings.map(InstanceKey::of));
    }

    Arbitrary<String> names() {
        Arbitrary<Character> first = Arbitraries.chars().range('a', 'z').with('_');
        Arbitrary<String> rest = Arbitraries.strings()
                .withCharRange('a', 'z')
                .withChars('0', '9', '_', '-')
                .ofMaxLength(8);
        return Combinators.combine(first, rest)
                .as((f, r) -> f + r)
                .filter(n -> !List.of(
                                "module",
                                "data",
                                "resource",
                                "count",
                                "each",
                                "path",
                                "terraform",
                                "var",
                                "local",
                                "self",
                                "template",
                                "lazy",
                                "arg",
                                "_")
                        .contains(n));
    }
}
