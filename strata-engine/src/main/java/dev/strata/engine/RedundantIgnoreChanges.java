package dev.strata.engine;

import dev.strata.config.ResourceConfig;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Traversal;
import dev.strata.hcl.Traverser;
import dev.strata.provider.Attribute;
import dev.strata.provider.Block;
import java.util.ArrayList;
import java.util.List;

/**
 * Terraform's warning for an {@code ignore_changes} entry naming an attribute the provider alone decides
 * (computed, not optional): there is no configured value to hold on to, so the entry does nothing. Given
 * by {@code validate} and while planning, at the resource type label (as Terraform).
 */
final class RedundantIgnoreChanges {
    private RedundantIgnoreChanges() {}

    static List<Diagnostic> of(ResourceConfig rc, Block schema) {
        List<Diagnostic> out = new ArrayList<>();
        if (rc.lifecycle() == null) {
            return out;
        }
        for (Traversal t : rc.lifecycle().ignoreChanges()) {
            if (t.steps().isEmpty() || !(t.steps().getFirst() instanceof Traverser.Root root)) {
                continue;
            }
            Attribute a = schema.attributes().get(root.name());
            if (a != null && a.computedOnly()) {
                out.add(Diagnostic.warning(
                        "Redundant ignore_changes element",
                        "Adding an attribute name to ignore_changes tells Strata to ignore future changes to the "
                                + "argument in configuration after the object has been created, retaining the value "
                                + "originally configured.\n\nThe attribute " + root.name() + " is decided by the "
                                + "provider alone and therefore there can be no configured value to compare with. "
                                + "Including this attribute in ignore_changes has no effect. Remove the attribute "
                                + "from ignore_changes to quiet this warning.",
                        rc.typeRange()));
            }
        }
        return out;
    }
}
