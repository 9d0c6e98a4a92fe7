package dev.strata.tfplugin;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import dev.strata.lang.types.DynamicType;
import dev.strata.lang.types.ListType;
import dev.strata.lang.types.MapType;
import dev.strata.lang.types.ObjectType;
import dev.strata.lang.types.PrimitiveType;
import dev.strata.lang.types.SetType;
import dev.strata.lang.types.TupleType;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Mark;
import dev.strata.lang.value.Value;
import dev.strata.tfplugin.ProviderSchema.Attribute;
import dev.strata.tfplugin.ProviderSchema.Block;
import dev.strata.tfplugin.ProviderSchema.NestedBlock;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListSet;

/**
 * Keeps secret strings out of what a plugin writes to its stderr, which Strata logs: providers log
 * their API traffic at debug level (the AWS provider logs request bodies), so a write-only or
 * ephemeral value sent to a provider would otherwise reach Strata's log file. Every string a request
 * carries that is sensitive, ephemeral or set in a write-only attribute is remembered for the life of
 * the plugin process, and replaced in each line before it is logged or kept for error messages, in
 * its plain form and as it appears inside one or two levels of JSON string quoting.
 *
 * <p>A provider may log a secret before any request of this run carried it (a refresh reads back a
 * value written by an earlier run), so the command line hands over the secret input variables' values
 * first ({@link #rememberEverywhere}); they are cleaned from every plugin's lines.
 */
public final class LogRedactor {
    /** Shorter strings would mangle ordinary log text; no real secret is that short. */
    static final int MIN_LENGTH = 4;

    static final String REPLACEMENT = "(redacted)";

    /** Longest first, so that a secret containing another is replaced whole. */
    private static Set<String> newSet() {
        return new ConcurrentSkipListSet<>(
                Comparator.comparingInt(String::length).reversed().thenComparing(Comparator.naturalOrder()));
    }

    private static final LogRedactor EVERYWHERE = new LogRedactor();

    private final Set<String> secrets = newSet();

    LogRedactor() {}

    /**
     * Remembers, for every plugin this process starts, the strings in {@code v} that are marked sensitive
     * or ephemeral (an input variable's value).
     */
    public static void rememberEverywhere(Value v) {
        EVERYWHERE.remember(v, null);
    }

    /** Remembers the secret strings in {@code v}, an object of {@code schema}'s block (null: marks only). */
    void remember(Value v, Block schema) {
        collect(v, schema, false);
    }

    private void collect(Value v, Block schema, boolean secret) {
        if (v == null || !v.isKnown() || v.isNull()) {
            return;
        }
        boolean s = secret || v.hasMark(Mark.SENSITIVE) || v.hasMark(Mark.EPHEMERAL);
        if (!s
                && !v.hasMarkDeep(Mark.SENSITIVE)
                && !v.hasMarkDeep(Mark.EPHEMERAL)
                && (schema == null || !hasWriteOnly(schema))) {
            return;
        }
        Type t = v.type();
        if (t == Type.STRING) {
            if (s) {
                add(v.asString());
            }
            return;
        }
        if (t instanceof ObjectType && schema != null) {
            v.attributes().forEach((name, a) -> {
                Attribute at = schema.attributes().get(name);
                NestedBlock nb = schema.blockTypes().get(name);
                if (at != null) {
                    collect(a, null, s || at.writeOnly() || at.sensitive());
                } else if (nb != null) {
                    collectBlocks(a, nb.block(), s);
                } else {
                    collect(a, null, s);
                }
            });
            return;
        }
        switch (t) {
            case ObjectType o -> v.attributes().values().forEach(a -> collect(a, null, s));
            case MapType m -> v.attributes().values().forEach(a -> collect(a, null, s));
            case ListType l -> v.elements().forEach(e -> collect(e, null, s));
            case SetType st -> v.elements().forEach(e -> collect(e, null, s));
            case TupleType tt -> v.elements().forEach(e -> collect(e, null, s));
            case PrimitiveType p -> {}
            case DynamicType d -> {}
        }
    }

    private void collectBlocks(Value v, Block b, boolean secret) {
        if (v == null || !v.isKnown() || v.isNull()) {
            return;
        }
        switch (v.type()) {
            case ObjectType o -> collect(v, b, secret);
            case MapType m -> v.attributes().values().forEach(e -> collect(e, b, secret));
            case ListType l -> v.elements().forEach(e -> collect(e, b, secret));
            case SetType st -> v.elements().forEach(e -> collect(e, b, secret));
            case TupleType tt -> v.elements().forEach(e -> collect(e, b, secret));
            case PrimitiveType p -> {}
            case DynamicType d -> {}
        }
    }

    private static boolean hasWriteOnly(Block b) {
        return b.attributes().values().stream().anyMatch(Attribute::writeOnly)
                || b.blockTypes().values().stream().anyMatch(nb -> hasWriteOnly(nb.block()));
    }

    void add(String secret) {
        if (secret.length() < MIN_LENGTH) {
            return;
        }
        JsonStringEncoder enc = JsonStringEncoder.getInstance();
        String once = new String(enc.quoteAsString(secret));
        String twice = new String(enc.quoteAsString(once));
        for (String form : List.of(secret, once, twice)) {
            secrets.add(form);
        }
    }

    /** The line with every remembered secret replaced. */
    String redact(String line) {
        String out = this == EVERYWHERE ? line : EVERYWHERE.redact(line);
        if (secrets.isEmpty()) {
            return out;
        }
        for (String s : secrets) {
            if (out.contains(s)) {
                out = out.replace(s, REPLACEMENT);
            }
        }
        return out;
    }
}
