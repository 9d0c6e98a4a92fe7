package dev.strata.state;

import dev.strata.addr.AbsResource;
import dev.strata.addr.AbsResourceInstance;
import dev.strata.addr.GoOrder;
import dev.strata.addr.InstanceKey;
import dev.strata.addr.ModuleInstance;
import java.util.Comparator;
import java.util.List;

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
        if (c == 0 && a.resource().mode() != b.resource().mode()) {
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

    /**
     * The module paths' texts ({@code module.a[1].module.b}) compared a step at a time: rendering whole paths
     * for every comparison made the binary search of {@link StateSnapshot#resource} the plan's hot spot.
     */
    static int compare(ModuleInstance a, ModuleInstance b) {
        if (a == b) {
            return 0;
        }
        List<ModuleInstance.Step> x = a.steps();
        List<ModuleInstance.Step> y = b.steps();
        int n = Math.min(x.size(), y.size());
        for (int i = 0; i < n; i++) {
            ModuleInstance.Step s = x.get(i);
            ModuleInstance.Step t = y.get(i);
            if (s.equals(t)) {
                continue;
            }
            if (s.name().equals(t.name())
                    && s.key() instanceof InstanceKey.StringKey k
                    && t.key() instanceof InstanceKey.StringKey l
                    && plain(k.key())
                    && plain(l.key())) {
                return compareQuoted(k.key(), l.key());
            }
            String p = s.toString();
            String q = t.toString();
            // The texts differ inside these two steps unless one is a prefix of the other (module.a, module.ab);
            // then what follows the shorter one decides: the end of its path, or the "." before its next step.
            if (q.startsWith(p)) {
                return i + 1 == x.size() ? -1 : Character.compare('.', q.charAt(p.length()));
            }
            if (p.startsWith(q)) {
                return i + 1 == y.size() ? 1 : Character.compare(p.charAt(q.length()), '.');
            }
            return GoOrder.compare(p, q);
        }
        return Integer.compare(x.size(), y.size());
    }

    /**
     * {@code module.m["a"]} against {@code module.m["b"]} without rendering either (the usual case: the
     * instances of one call, compared at every step of every binary search). Keys are the same text when
     * quoted, so the rendered texts differ first where the keys do, or where the shorter key's closing
     * quote meets the longer key's next character.
     */
    private static int compareQuoted(String a, String b) {
        int n = Math.min(a.length(), b.length());
        for (int i = 0; i < n; i++) {
            char x = a.charAt(i);
            char y = b.charAt(i);
            if (x != y) {
                return Character.compare(x, y);
            }
        }
        if (a.length() == b.length()) {
            return 0;
        }
        return a.length() < b.length() ? Character.compare('"', b.charAt(n)) : Character.compare(a.charAt(n), '"');
    }

    /** Printable ASCII that quoting leaves as it is (so texts compare as the keys do, byte for byte). */
    private static boolean plain(String key) {
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '$' || c == '%') {
                return false;
            }
        }
        return true;
    }
}
