package dev.strata.engine;

import dev.strata.addr.AttributePath;
import dev.strata.hcl.Body;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.SourceRange;
import dev.strata.lang.value.Mark;
import dev.strata.lang.value.Value;
import dev.strata.provider.Attribute;
import dev.strata.provider.Block;
import dev.strata.provider.NestedBlock;
import java.util.List;
import java.util.Map;

/**
 * Where ephemeral values may flow. An ephemeral value (an ephemeral variable, {@code terraform.applying},
 * anything derived from them) exists only during one plan or one apply: it may set write-only
 * attributes, provider configuration, locals and conditions, but no argument whose value is persisted
 * in a plan or state, and no output or module input not declared ephemeral.
 */
final class Ephemerals {
    private Ephemerals() {}

    /**
     * One error per argument of a resource or data source that is set from an ephemeral value and is not
     * write-only, at the argument's expression (or its nested block, or {@code fallback}).
     */
    static void checkResourceArguments(
            Body body, Block schema, Value config, SourceRange fallback, List<Diagnostic> out) {
        if (config == null || !config.hasMarkDeep(Mark.EPHEMERAL)) {
            return;
        }
        check(body, schema, schema, config, AttributePath.ROOT, fallback, out);
    }

    private static void check(
            Body body,
            Block root,
            Block schema,
            Value v,
            AttributePath path,
            SourceRange fallback,
            List<Diagnostic> out) {
        if (v.hasMark(Mark.EPHEMERAL) || !v.isKnownAndNotNull()) {
            // A whole nested block set from an ephemeral value (a dynamic block's for_each): its first argument.
            if (v.hasMarkDeep(Mark.EPHEMERAL)) {
                String name = path.steps().isEmpty() ? "" : lastName(path);
                out.add(invalidUse(name, at(body, root, path, fallback)));
            }
            return;
        }
        Map<String, Value> attrs = v.attributes();
        for (Map.Entry<String, Attribute> e : schema.attributes().entrySet()) {
            Value a = attrs.get(e.getKey());
            if (a != null && !e.getValue().writeOnly() && a.hasMarkDeep(Mark.EPHEMERAL)) {
                AttributePath p = path.attr(e.getKey());
                out.add(invalidUse(e.getKey(), at(body, root, p, fallback)));
            }
        }
        for (Map.Entry<String, NestedBlock> e : schema.blockTypes().entrySet()) {
            Value b = attrs.get(e.getKey());
            if (b == null || !b.hasMarkDeep(Mark.EPHEMERAL)) {
                continue;
            }
            AttributePath p = path.attr(e.getKey());
            Block nested = e.getValue().block();
            if (b.hasMark(Mark.EPHEMERAL) || !b.isKnownAndNotNull()) {
                out.add(invalidUse(e.getKey(), at(body, root, p, fallback)));
                continue;
            }
            switch (e.getValue().nesting()) {
                case SINGLE -> check(body, root, nested, b, p, fallback, out);
                case LIST, SET -> {
                    List<Value> els = b.elements();
                    for (int i = 0; i < els.size(); i++) {
                        check(body, root, nested, els.get(i), p.index(i), fallback, out);
                    }
                }
                case MAP -> b.attributes().forEach((k, el) -> check(body, root, nested, el, p.key(k), fallback, out));
            }
        }
    }

    private static String lastName(AttributePath p) {
        for (int i = p.steps().size() - 1; i >= 0; i--) {
            if (p.steps().get(i) instanceof AttributePath.Attr(String name)) {
                return name;
            }
        }
        return "";
    }

    private static SourceRange at(Body body, Block schema, AttributePath p, SourceRange fallback) {
        SourceRange r = body == null ? null : PathRanges.find(body, schema, p);
        return r != null ? r : fallback;
    }

    private static Diagnostic invalidUse(String argument, SourceRange at) {
        return Diagnostic.error(
                "Invalid use of ephemeral value",
                "Ephemeral values are not valid for \"" + argument
                        + "\", because it is not a write-only attribute and must be persisted to state.",
                at);
    }

    /** The error for an output whose value is ephemeral but which is not declared so, or null. */
    static Diagnostic checkOutput(boolean declaredEphemeral, Value v, SourceRange at) {
        boolean ephemeral = v.hasMarkDeep(Mark.EPHEMERAL);
        if (ephemeral && !declaredEphemeral) {
            return Diagnostic.error(
                    "Ephemeral value not allowed",
                    "This output value is not declared as returning an ephemeral value, so it cannot be set to a "
                            + "result derived from an ephemeral value.",
                    at);
        }
        if (!ephemeral && declaredEphemeral && v.isWhollyKnown()) {
            return Diagnostic.error(
                    "Value not allowed in ephemeral output",
                    "This output value is declared as returning an ephemeral value, so it can only be set to an "
                            + "ephemeral value.",
                    at);
        }
        return null;
    }

    /** The error for a module input set from an ephemeral value to a variable not declared ephemeral, or null. */
    static Diagnostic checkInput(boolean declaredEphemeral, Value v, SourceRange at) {
        if (declaredEphemeral || !v.hasMarkDeep(Mark.EPHEMERAL)) {
            return null;
        }
        // Terraform's text, grammar included, so that scripts matching it keep working.
        return Diagnostic.error(
                "Ephemeral value not allowed",
                "This input variable is not declared as accepting a ephemeral values, so it cannot be set to a "
                        + "result derived from an ephemeral value.",
                at);
    }

    /** The error for an ephemeral output in the root module, whose outputs are persisted in state. */
    static Diagnostic rootOutput(SourceRange declRange) {
        return Diagnostic.error(
                "Ephemeral output not allowed",
                "Ephemeral outputs are not allowed in context of a root module",
                declRange);
    }
}
