package dev.strata.config;

import dev.strata.addr.Provider;
import dev.strata.addr.VersionConstraint;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The providers a configuration needs, with every version constraint any module puts on each: from
 * {@code required_providers}, and implied by resources and provider blocks whose local names no
 * {@code required_providers} entry declares (as Terraform, these mean {@code hashicorp/<name>}).
 */
public final class ProviderRequirements {
    private ProviderRequirements() {}

    public static SortedMap<Provider, List<VersionConstraint>> of(ConfigTree tree) {
        SortedMap<Provider, List<VersionConstraint>> out = new TreeMap<>();
        for (ConfigNode n : tree.nodes()) {
            ModuleConfig m = n.module();
            for (RequiredProvider rp : m.requiredProviders().values()) {
                List<VersionConstraint> l = out.computeIfAbsent(rp.source(), k -> new ArrayList<>());
                if (rp.version() != null && !l.contains(rp.version())) {
                    l.add(rp.version());
                }
            }
            for (ResourceConfig r : m.resources().values()) {
                out.computeIfAbsent(m.providerFor(r.providerConfig().localName()), k -> new ArrayList<>());
            }
            for (CheckConfig c : m.checks().values()) {
                if (c.data() != null) {
                    out.computeIfAbsent(m.providerFor(c.data().providerConfig().localName()), k -> new ArrayList<>());
                }
            }
            for (ProviderConfig p : m.providerConfigs().values()) {
                out.computeIfAbsent(m.providerFor(p.name()), k -> new ArrayList<>());
            }
        }
        out.replaceAll((k, v) -> Collections.unmodifiableList(v));
        return Collections.unmodifiableSortedMap(out);
    }
}
