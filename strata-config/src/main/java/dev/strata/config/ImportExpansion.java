package dev.strata.config;

import dev.strata.addr.AbsResourceInstance;
import dev.strata.addr.Addrs;
import dev.strata.addr.ForEachAttr;
import dev.strata.addr.InputVariable;
import dev.strata.addr.InstanceKey;
import dev.strata.addr.LocalValue;
import dev.strata.addr.ModuleCall;
import dev.strata.addr.PathAttr;
import dev.strata.addr.Reference;
import dev.strata.addr.Resource;
import dev.strata.addr.TerraformAttr;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Expression;
import dev.strata.hcl.Literal;
import dev.strata.hcl.Result;
import dev.strata.hcl.SourceRange;
import dev.strata.hcl.Traversal;
import dev.strata.hcl.Traverser;
import dev.strata.hcl.syntax.Expr;
import dev.strata.lang.eval.Evaluator;
import dev.strata.lang.funcs.FunctionTable;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Mark;
import dev.strata.lang.value.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * How an {@code import} block becomes import targets, as Terraform 1.7+ expands them: {@code for_each}
 * (a map, object, set, list or tuple; null imports nothing) gives one target per element, and the
 * {@code to} address is a static reference whose index keys alone are evaluated, with {@code each.key}
 * and {@code each.value} as the only names in scope. Static validation and the plan both ask here, so
 * a block gets the same diagnostics whichever phase meets it first.
 */
public final class ImportExpansion {
    private ImportExpansion() {}

    /**
     * The {@code to} expression's tree. In JSON syntax {@code to} is a string containing the address
     * (with {@code each.key} in its index), as Terraform reads it, not a template.
     */
    private static Result<Expr> toSyntax(Expression to) {
        return to instanceof dev.strata.hcl.json.JsonExpression j ? j.asNativeExpression() : to.syntax();
    }

    /** One element of an import block's {@code for_each}: what {@code each.key} and {@code each.value} are. */
    public record Each(Value key, Value value) {}

    /** Where an import block's {@code to} points, with its index keys left out: the resource configuration. */
    public record ConfigTarget(dev.strata.addr.Module module, Resource resource) {}

    private static final String STATIC_REFERENCE = "A single static variable reference is required: only attribute "
            + "access and indexing with constant keys. No calculations, function calls, template expressions, etc are "
            + "allowed here.";

    /** The elements of an evaluated {@code for_each} value, in key order; an unknown value is an error here. */
    public static Result<List<Each>> forEach(Value v, SourceRange at) {
        if (v.isNull()) {
            return Result.of(List.of(), Diagnostics.NONE);
        }
        if (!v.isIterable() && v.type() != Type.DYNAMIC) {
            return Result.of(
                    null,
                    Diagnostics.of(Diagnostic.error(
                            "Invalid for_each argument", "The \"for_each\" expression must be a collection.", at)));
        }
        if (!v.isWhollyKnown()
                && !(v.isKnown() && (v.type().isStructural() || v.type().isCollection()) && keysKnown(v))) {
            return Result.of(
                    null,
                    Diagnostics.of(Diagnostic.error(
                            "Invalid for_each argument",
                            "The \"for_each\" expression includes values derived from other resource attributes that "
                                    + "cannot be determined until apply, and so Strata cannot determine the full set "
                                    + "of values that might be used to import this resource.",
                            at)));
        }
        if (v.hasMark(Mark.EPHEMERAL)
                || v.hasMarkDeep(Mark.EPHEMERAL) && !v.type().isStructural()) {
            return Result.of(
                    null,
                    Diagnostics.of(Diagnostic.error(
                            "Invalid for_each argument",
                            "The given \"for_each\" value is derived from an ephemeral value, which means that Strata "
                                    + "cannot persist it between plan/apply rounds. Use only non-ephemeral values to "
                                    + "choose the objects to import.",
                            at)));
        }
        var marks = v.marks();
        Value raw = v.unmark();
        List<Each> out = new ArrayList<>();
        if (raw.type().isStructural() && !(raw.type() instanceof dev.strata.lang.types.TupleType)
                || raw.type() instanceof dev.strata.lang.types.MapType) {
            for (Map.Entry<String, Value> e : raw.attributes().entrySet()) {
                out.add(new Each(Value.string(e.getKey()), e.getValue().withMarks(marks)));
            }
        } else if (raw.type() instanceof dev.strata.lang.types.SetType) {
            for (Value el : raw.elements()) {
                out.add(new Each(el.withMarks(marks), el.withMarks(marks)));
            }
        } else {
            List<Value> els = raw.elements();
            for (int i = 0; i < els.size(); i++) {
                out.add(new Each(Value.number(i), els.get(i).withMarks(marks)));
            }
        }
        return Result.of(out, Diagnostics.NONE);
    }

    private static boolean keysKnown(Value v) {
        // A map's or object's keys are known once the value is: unknown element values only become each.value.
        return v.type() instanceof dev.strata.lang.types.MapType
                || v.type() instanceof dev.strata.lang.types.ObjectType;
    }

    /** The resource configuration {@code to} names, whatever its index keys evaluate to. */
    public static Result<ConfigTarget> configTarget(Expression to) {
        Result<Traversal> t = traversal(to, k -> Result.of(Value.string("_"), Diagnostics.NONE));
        if (t.value() == null) {
            return Result.of(null, t.diagnostics());
        }
        Result<AbsResourceInstance> a = Addrs.parseAbsResourceInstance(t.value());
        if (a.value() == null) {
            return Result.of(null, a.diagnostics());
        }
        return Result.of(
                new ConfigTarget(
                        a.value().module().module(), a.value().resource().resource()),
                a.diagnostics());
    }

    /** Whether {@code to} has index expressions that are not constants (which need {@code for_each}). */
    public static boolean isStatic(Expression to) {
        Result<Expr> syn = toSyntax(to);
        if (syn.value() == null) {
            return true;
        }
        boolean[] dynamic = {false};
        dev.strata.hcl.syntax.ExprWalk.forEach(syn.value(), e -> {
            if (e instanceof Expr.Index) {
                dynamic[0] = true;
            }
        });
        return !dynamic[0];
    }

    /**
     * The static problems of {@code to}: an expression that is not an address, and index keys that
     * name anything but {@code each} (or anything at all without {@code for_each}).
     */
    public static Diagnostics checkTo(Expression to, boolean forEach) {
        Diagnostics out = Diagnostics.NONE;
        Result<Expr> syn = toSyntax(to);
        if (syn.value() == null) {
            return syn.diagnostics();
        }
        List<Expr> keys = new ArrayList<>();
        if (!collectKeys(syn.value(), keys)) {
            return Diagnostics.of(Diagnostic.error("Invalid expression", STATIC_REFERENCE, to.range()));
        }
        if (!keys.isEmpty() && !forEach) {
            return Diagnostics.of(Diagnostic.error("Invalid expression", STATIC_REFERENCE, to.range()));
        }
        for (Expr k : keys) {
            for (Traversal v : k.variables()) {
                if (!v.rootName().equals("each")) {
                    out = out.with(Diagnostics.of(Diagnostic.error(
                            "Unknown variable",
                            "There is no variable named \"" + v.rootName() + "\".Only \"each.key\" and "
                                    + "\"each.value\" can be used in import address index expressions.",
                            v.rootRange())));
                }
            }
        }
        return out;
    }

    /** The address {@code to} names for one element of {@code for_each} (null without one). */
    public static Result<AbsResourceInstance> target(Expression to, Each each, FunctionTable functions) {
        Result<Traversal> t = traversal(to, k -> {
            Result<Value> v = new Evaluator(new ReferenceScope(new EachData(each, functions))).evaluate(k);
            if (v.value() != null && v.value().hasMarkDeep(Mark.SENSITIVE)) {
                return Result.of(
                        null,
                        Diagnostics.of(Diagnostic.error(
                                "Invalid index expression",
                                "Import address index expression cannot be sensitive.",
                                k.range())));
            }
            return v;
        });
        if (t.value() == null) {
            return Result.of(null, t.diagnostics());
        }
        Result<AbsResourceInstance> a = Addrs.parseAbsResourceInstance(t.value());
        return Result.of(a.value(), t.diagnostics().with(a.diagnostics()));
    }

    /**
     * Whether an import into {@code key} agrees with how the target resource repeats: a string key
     * needs {@code for_each}, a number {@code count}, and no key neither (rc null: not configured).
     */
    public static Diagnostics checkExpansion(ResourceConfig rc, InstanceKey key, SourceRange to) {
        boolean forEach = rc != null && rc.forEach() != null;
        boolean count = rc != null && rc.count() != null;
        String problem = switch (key) {
            case InstanceKey.StringKey s -> forEach ? null : "The target resource does not use for_each.";
            case InstanceKey.IntKey i -> count ? null : "The target resource does not use count.";
            case InstanceKey.NoKey n ->
                forEach
                        ? "The target resource is using for_each."
                        : count ? "The target resource is using count." : null;
        };
        return problem == null
                ? Diagnostics.NONE
                : Diagnostics.of(Diagnostic.error("Invalid import 'to' expression", problem, to));
    }

    /**
     * A second import of the same instance: as Terraform says of two blocks naming one address (where
     * Terraform would let the later block win, Strata refuses either way).
     */
    public static Diagnostic duplicate(AbsResourceInstance addr, SourceRange earlier, SourceRange to) {
        String q = quoted(addr.toString());
        return Diagnostic.error(
                "Duplicate import configuration for " + q,
                "An import block for the resource " + q + " was already declared at " + earlier
                        + ". A resource can have only one import block.",
                to);
    }

    /** Go's %q of an address, as Terraform quotes addresses in summaries. */
    static String quoted(String s) {
        return '"' + s.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }

    private static boolean collectKeys(Expr e, List<Expr> keys) {
        return switch (e) {
            case Expr.ScopeTraversal s -> true;
            case Expr.RelativeTraversal r -> collectKeys(r.source(), keys);
            case Expr.Index ix -> {
                keys.add(ix.key());
                yield collectKeys(ix.collection(), keys);
            }
            default -> false;
        };
    }

    private interface KeyEval {
        Result<Value> eval(Expr key);
    }

    private static Result<Traversal> traversal(Expression to, KeyEval keys) {
        Result<Expr> syn = toSyntax(to);
        if (syn.value() == null) {
            return Result.of(null, syn.diagnostics());
        }
        List<Traverser> steps = new ArrayList<>();
        Diagnostics d = build(syn.value(), keys, steps, to.range());
        return d.hasErrors() ? Result.of(null, d) : Result.of(new Traversal(steps), d);
    }

    private static Diagnostics build(Expr e, KeyEval keys, List<Traverser> out, SourceRange whole) {
        switch (e) {
            case Expr.ScopeTraversal s -> out.addAll(s.traversal().steps());
            case Expr.RelativeTraversal r -> {
                Diagnostics d = build(r.source(), keys, out, whole);
                out.addAll(r.steps());
                return d;
            }
            case Expr.Index ix -> {
                Diagnostics d = build(ix.collection(), keys, out, whole);
                if (d.hasErrors()) {
                    return d;
                }
                Result<Value> k = keys.eval(ix.key());
                d = d.with(k.diagnostics());
                if (k.hasErrors() || k.value() == null) {
                    return d;
                }
                Value v = k.value().unmarkDeep();
                Literal lit;
                if (v.isKnownAndNotNull() && v.type() == Type.STRING) {
                    lit = new Literal.StringLit(v.asString());
                } else if (v.isKnownAndNotNull() && v.type() == Type.NUMBER) {
                    lit = new Literal.NumberLit(v.asNumber());
                } else {
                    return d.with(Diagnostics.of(Diagnostic.error(
                            "Invalid index expression",
                            "An import address index must be a known string or number.",
                            ix.key().range())));
                }
                out.add(new Traverser.Index(lit, ix.bracketRange()));
                return d;
            }
            default -> {
                return Diagnostics.of(Diagnostic.error("Invalid expression", STATIC_REFERENCE, whole));
            }
        }
        return Diagnostics.NONE;
    }

    /** The only names in scope in an import address's index keys: {@code each.key} and {@code each.value}. */
    private record EachData(Each each, FunctionTable functions) implements ScopeData {
        @Override
        public Result<Value> forEachAttr(ForEachAttr attr, Reference ref) {
            if (each == null) {
                return unavailable("each", ref);
            }
            return Result.of(attr.name().equals("key") ? each.key() : each.value(), Diagnostics.NONE);
        }

        @Override
        public Result<Value> inputVariable(InputVariable variable, Reference ref) {
            return unavailable("var", ref);
        }

        @Override
        public Result<Value> localValue(LocalValue local, Reference ref) {
            return unavailable("local", ref);
        }

        @Override
        public Result<Value> resource(Resource resource, InstanceKey key, Reference ref) {
            return unavailable(resource.mode() == dev.strata.addr.ResourceMode.DATA ? "data" : resource.type(), ref);
        }

        @Override
        public Result<Value> moduleCall(ModuleCall call, InstanceKey key, String output, Reference ref) {
            return unavailable("module", ref);
        }

        @Override
        public Result<Value> countIndex(Reference ref) {
            return unavailable("count", ref);
        }

        @Override
        public Result<Value> pathAttr(PathAttr attr, Reference ref) {
            return unavailable("path", ref);
        }

        @Override
        public Result<Value> terraformAttr(TerraformAttr attr, Reference ref) {
            return unavailable("terraform", ref);
        }

        @Override
        public Result<Value> self(Reference ref) {
            return unavailable("self", ref);
        }

        private static Result<Value> unavailable(String name, Reference ref) {
            return Result.of(
                    Value.DYNAMIC_UNKNOWN,
                    Diagnostics.of(Diagnostic.error(
                            "Unknown variable",
                            "There is no variable named \"" + name + "\".Only \"each.key\" and \"each.value\" can be "
                                    + "used in import address index expressions.",
                            ref.range())));
        }
    }
}
