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

    // equals, hashCode and compareTo of the address records are written out (the generated ones are slow
    // under C1): equal addresses built apart must be equal with one hash, different ones not equal.
    @Property(tries = 500)
    void equalityIsByValue(
            @ForAll("resourceInstances") AbsResourceInstance a, @ForAll("resourceInstances") AbsResourceInstance b) {
        AbsResourceInstance copy = Addrs.parseAbsResourceInstance(a.toString()).value();
        assertThat(copy).isNotSameAs(a).isEqualTo(a);
        assertThat(copy.hashCode()).isEqualTo(a.hashCode());
        assertThat(copy.containingResource()).isEqualTo(a.containingResource());
        assertThat(copy.containingResource().hashCode())
                .isEqualTo(a.containingResource().hashCode());
        assertThat(copy.module()).isEqualTo(a.module());
        assertThat(copy.module().hashCode()).isEqualTo(a.module().hashCode());
        assertThat(copy.module().module()).isEqualTo(a.module().module());
        assertThat(copy.module().module().hashCode())
                .isEqualTo(a.module().module().hashCode());
        assertThat(copy.resource()).isEqualTo(a.resource());
        assertThat(copy.resource().hashCode()).isEqualTo(a.resource().hashCode());
        // The renderings are unique, so they tell whether two addresses are the same.
        boolean same = a.toString().equals(b.toString());
        assertThat(a.equals(b)).isEqualTo(same);
        assertThat(a.containingResource().equals(b.containingResource()))
                .isEqualTo(a.containingResource()
                        .toString()
                        .equals(b.containingResource().toString()));
        assertThat(a.module().equals(b.module()))
                .isEqualTo(a.module().toString().equals(b.module().toString()));
        assertThat(a.resource().key().equals(b.resource().key()))
                .isEqualTo(
                        a.resource().key().toString().equals(b.resource().key().toString()));
        assertThat(a.equals(null)).isFalse();
        assertThat(a.module().equals(a.containingResource())).isFalse();
    }

    @Property(tries = 500)
    void resourcesOrderAsTheirRenderings(@ForAll("closeResources") Resource a, @ForAll("closeResources") Resource b) {
        assertThat(Integer.signum(a.compareTo(b)))
                .as(a + " " + b)
                .isEqualTo(Integer.signum(a.toString().compareTo(b.toString())));
        assertThat(Integer.signum(a.compareTo((Referenceable) new InputVariable(b.name()))))
                .isEqualTo(Integer.signum(a.toString().compareTo(new InputVariable(b.name()).toString())));
    }

    @Property(tries = 300)
    void resourceAndInstanceOrdersAgree(
            @ForAll("resourceInstances") AbsResourceInstance a, @ForAll("resourceInstances") AbsResourceInstance b) {
        int byResource = a.containingResource().compareTo(b.containingResource());
        if (byResource != 0) {
            assertThat(Integer.signum(a.compareTo(b))).isEqualTo(Integer.signum(byResource));
        } else {
            assertThat(Integer.signum(a.compareTo(b)))
                    .isEqualTo(Integer.signum(
                            a.resource().key().compareTo(b.resource().key())));
        }
    }

    /** Resources whose renderings often share a prefix or are equal (e.g. data.a.b against a_b). */
    @Provide
    Arbitrary<Resource> closeResources() {
        Arbitrary<String> texts = Arbitraries.strings()
                .withChars('a', 'b', '_', 'd')
                .ofMinLength(1)
                .ofMaxLength(4);
        return Combinators.combine(Arbitraries.of(ResourceMode.values()), texts, texts)
                .as(Resource::new);
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
