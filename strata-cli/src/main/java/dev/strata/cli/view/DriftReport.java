package dev.strata.cli.view;

import dev.strata.engine.Action;
import dev.strata.engine.ResourceChange;
import dev.strata.lang.value.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.regex.Pattern;

/**
 * What changed outside Strata, per resource instance and attribute: the refresh's drift with the
 * ignored attributes ({@code TYPE.ATTRIBUTE} prefixes) left out, and objects with nothing left
 * dropped.
 *
 * @param checked how many managed objects were read
 */
public record DriftReport(int checked, List<Drifted> objects) {

    /** One object that changed ({@code update}) or is gone ({@code delete}) outside Strata. */
    public record Drifted(String address, String type, String action, List<AttributeChange> attributes) {
        /** The same object and the same changes, for reporting each drift once under -watch. */
        public String fingerprint() {
            StringBuilder b = new StringBuilder(address).append('|').append(action);
            for (AttributeChange a : attributes) {
                b.append('|').append(a.path()).append('=').append(a.afterHash());
            }
            return b.toString();
        }
    }

    /** One attribute's value in the state and in the real world; sensitive values are not kept. */
    public record AttributeChange(String path, Value before, Value after, boolean sensitive) {
        int afterHash() {
            return after.unmarkDeep().hashCode();
        }
    }

    /** Only the objects whose drift {@code seen} does not hold yet; adds them to it. */
    public DriftReport unseen(Set<String> seen) {
        List<Drifted> fresh = new ArrayList<>();
        for (Drifted d : objects) {
            if (seen.add(d.fingerprint())) {
                fresh.add(d);
            }
        }
        return new DriftReport(checked, fresh);
    }

    public boolean drifted() {
        return !objects.isEmpty();
    }

    public static DriftReport of(int checked, List<ResourceChange> drift, Map<String, Set<String>> ignored) {
        List<Drifted> out = new ArrayList<>();
        for (ResourceChange c : drift) {
            String type = c.addr().resource().resource().type();
            Set<String> ignore = ignored.getOrDefault(type, Set.of());
            if (c.action() == Action.DELETE) {
                out.add(new Drifted(c.addr().toString(), type, "delete", List.of()));
                continue;
            }
            List<AttributeChange> attrs = new ArrayList<>();
            diff("", c.before(), c.after(), attrs);
            attrs.removeIf(a -> ignore.stream().anyMatch(i -> covers(i, a.path())));
            if (!attrs.isEmpty()) {
                out.add(new Drifted(c.addr().toString(), type, "update", List.copyOf(attrs)));
            }
        }
        return new DriftReport(checked, out);
    }

    /** Whether the ignored attribute {@code ignore} is {@code path} or contains it. */
    public static boolean covers(String ignore, String path) {
        return path.equals(ignore) || path.startsWith(ignore + ".") || path.startsWith(ignore + "[");
    }

    private static final Pattern IDENT = Pattern.compile("[A-Za-z_][A-Za-z0-9_-]*");

    private static boolean keyed(Value v) {
        return v.type() instanceof dev.strata.lang.types.ObjectType
                || v.type() instanceof dev.strata.lang.types.MapType;
    }

    private static boolean sequence(Value v) {
        return v.type() instanceof dev.strata.lang.types.ListType
                || v.type() instanceof dev.strata.lang.types.TupleType;
    }

    /**
     * Whether {@code v} is null or an empty collection. Providers on the legacy SDK read back an empty
     * collection for the null they were given (the AWS provider's {@code tags = {}} on a resource
     * without tags), which {@code terraform plan -refresh-only} shows as a change although nothing
     * changed outside; a drift detector that reported it after every apply would only be noise.
     */
    static boolean absent(Value v) {
        return v.isNull() || (v.isKnown() && v.isIterable() && v.length() == 0);
    }

    private static void diff(String path, Value before, Value after, List<AttributeChange> out) {
        if (before.equals(after)) {
            return;
        }
        boolean sensitive = before.isSensitive() || after.isSensitive();
        Value b = before.unmark();
        Value a = after.unmark();
        if (!sensitive && absent(b) && absent(a)) {
            return;
        }
        if (!sensitive && b.isKnownAndNotNull() && a.isKnownAndNotNull() && keyed(b) && keyed(a)) {
            SortedMap<String, Value> ba = b.attributes();
            SortedMap<String, Value> aa = a.attributes();
            java.util.TreeSet<String> keys = new java.util.TreeSet<>(ba.keySet());
            keys.addAll(aa.keySet());
            for (String k : keys) {
                String p = IDENT.matcher(k).matches()
                        ? (path.isEmpty() ? k : path + "." + k)
                        : path + "[" + dev.strata.lang.value.Quote.quote(k) + "]";
                diff(p, ba.getOrDefault(k, Value.NULL), aa.getOrDefault(k, Value.NULL), out);
            }
            return;
        }
        if (!sensitive
                && b.isKnownAndNotNull()
                && a.isKnownAndNotNull()
                && sequence(b)
                && sequence(a)
                && b.length() == a.length()) {
            for (int i = 0; i < b.length(); i++) {
                diff(path + "[" + i + "]", b.elements().get(i), a.elements().get(i), out);
            }
            return;
        }
        out.add(new AttributeChange(path, before, after, sensitive));
    }
}
