package dev.strata.state;

import dev.strata.addr.AbsResource;
import dev.strata.addr.AbsResourceInstance;
import dev.strata.addr.GoOrder;
import dev.strata.addr.ModuleInstance;
import java.util.Comparator;

/**
 * Terraform's order of the state file: resources by module path as text, mode, type and name (Go's string
 * order), then instances by key. The module path compares as text ({@code module.a[10]} before
 * {@code module.a[9]}), unlike {@link ModuleInstance}'s own order, because Terraform sorts the file that way.
 */
final class StateOrder {
    private StateOrder() {}

    static final Comparator<AbsResource> RESOURCES = StateOrder::compare;
    static final Comparator<AbsResourceInstance> INSTANCES = StateOrder::compare;

    static int compare(AbsResource a, AbsResource b) {
        int c = compare(a.module(), b.module());
        if (c == 0) {
            c = GoOrder.compare(
                    a.resource().mode().jsonName(), b.resource().mode().jsonName());
        }
        if (c == 0) {
            c = GoOrder.compare(a.resource().type(), b.resource().type());
        }
        return c != 0 ? c : GoOrder.compare(a.resource().name(), b.resource().name());
    }

    static int compare(AbsResourceInstance a, AbsResourceInstance b) {
        int c = compare(a.containingResource(), b.containingResource());
        return c != 0 ? c : a.resource().key().compareTo(b.resource().key());
    }

    private static int compare(ModuleInstance a, ModuleInstance b) {
        if (a.isRoot() || b.isRoot()) {
            return Boolean.compare(!a.isRoot(), !b.isRoot());
        }
        return a.equals(b) ? 0 : GoOrder.compare(a.toString(), b.toString());
    }
}
