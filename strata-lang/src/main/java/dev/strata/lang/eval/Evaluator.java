package dev.strata.lang.eval;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.DidYouMean;
import dev.strata.hcl.Expression;
import dev.strata.hcl.Literal;
import dev.strata.hcl.Nesting;
import dev.strata.hcl.Result;
import dev.strata.hcl.SourceRange;
import dev.strata.hcl.Traversal;
import dev.strata.hcl.Traverser;
import dev.strata.hcl.json.JsonExpression;
import dev.strata.hcl.syntax.Expr;
import dev.strata.lang.funcs.CallResult;
import dev.strata.lang.funcs.Function;
import dev.strata.lang.funcs.FunctionTable;
import dev.strata.lang.funcs.Param;
import dev.strata.lang.types.DynamicType;
import dev.strata.lang.types.ListType;
import dev.strata.lang.types.MapType;
import dev.strata.lang.types.ObjectType;
import dev.strata.lang.types.SetType;
import dev.strata.lang.types.TupleType;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.ConversionResult;
import dev.strata.lang.value.Convert;
import dev.strata.lang.value.Mark;
import dev.strata.lang.value.OpResult;
import dev.strata.lang.value.Operations;
import dev.strata.lang.value.Unify;
import dev.strata.lang.value.Value;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Evaluates expressions of either syntax to values, with Terraform's semantics: unknown values and
 * marks (sensitive) propagate through every operation, type errors become diagnostics on the
 * sub-expression at fault, and a failed sub-expression yields an unknown placeholder so that
 * evaluation goes on and reports every independent problem once.
 */
public final class Evaluator {
    private final Scope scope;

    public Evaluator(Scope scope) {
        this.scope = scope;
    }

    /**
     * The value of one reference, or null when it does not evaluate; its problems are neither kept nor
     * described (for the lines under a diagnostic's snippet, see {@link ExpressionValues}).
     */
    static Value quietly(Scope scope, Traversal t) {
        Run probe = new Evaluator(scope).new Run(Diagnostics.builder());
        probe.quiet = true;
        Value v = probe.eval(new Expr.ScopeTraversal(t, t.range()), Map.of());
        return probe.diags.hasErrors() ? null : v;
    }

    /** Evaluates an expression of either syntax. */
    public Result<Value> evaluate(Expression expression) {
        return evaluate(expression.syntax());
    }

    /**
     * {@code expression} where its value must be constant ({@code .tfvars} files, variable defaults,
     * {@code decode_tfvars}), in {@link Scope#constant()}. In JSON syntax its strings are plain strings,
     * never templates, as HCL's JSON syntax defines for an evaluation without variables or functions.
     */
    public static Result<Value> constant(Expression expression) {
        Evaluator constants = new Evaluator(Scope.constant());
        return expression instanceof JsonExpression json
                ? constants.evaluate(json.literalSyntax())
                : constants.evaluate(expression);
    }

    private Result<Value> evaluate(Result<Expr> tree) {
        Diagnostics.Builder diags = Diagnostics.builder().addAll(tree.diagnostics());
        if (tree.hasErrors()) {
            return Result.of(Value.DYNAMIC_UNKNOWN, diags.build());
        }
        Value v = new Run(diags).eval(tree.value(), Map.of());
        return Result.of(v, diags.build());
    }

    /** One evaluation: collects diagnostics; {@code locals} are for-expression and splat symbols. */
    private final class Run {
        private final Diagnostics.Builder diags;
        /**
         * Where references to undeclared objects are reported: the outermost run's diagnostics.
         * Terraform checks references before it evaluates anything, so no try, can or untaken
         * conditional branch can hide them.
         */
        private final Diagnostics.Builder unhideable;

        Run(Diagnostics.Builder diags) {
            this(diags, diags);
        }

        private Run(Diagnostics.Builder diags, Diagnostics.Builder unhideable) {
            this.diags = diags;
            this.unhideable = unhideable;
        }

        private Value fail(String summary, String detail, SourceRange subject, SourceRange context) {
            return failIn(current, summary, detail, subject, context);
        }

        /**
         * A problem of {@code expression}'s evaluation, with what its references held (Terraform's lines under
         * the snippet, {@code var.c is a bool}): Terraform names the expression that failed, which is the one
         * being evaluated except where an operand's value is at fault.
         */
        private Value failIn(Expr expression, String summary, String detail, SourceRange subject, SourceRange context) {
            Diagnostic d = Diagnostic.error(summary, detail, subject, context);
            if (!quiet && calling != null) {
                d = d.withFunctionCall(calling);
            }
            diags.add(quiet || expression == null ? d : d.withValues(ExpressionValues.ofFailure(expression, scope)));
            return Value.DYNAMIC_UNKNOWN;
        }

        /** The expression being evaluated: what {@link #fail} reports on. */
        private Expr current;

        /** Whether this run's problems are never shown ({@code try}, {@code can}): no values are worked out. */
        private boolean quiet;

        /** Nesting of the evaluation in progress (see {@link Nesting}). */
        private int depth;

        Value eval(Expr e, Map<Object, Value> locals) {
            if (depth >= Nesting.MAX_DEPTH) {
                // The parser bounds nesting, but a long chain of binary operators nests only here.
                if (!tooDeepReported) {
                    tooDeepReported = true;
                    diags.add(Nesting.tooDeep("Expression", e.range()));
                }
                return Value.DYNAMIC_UNKNOWN;
            }
            depth++;
            Expr outer = current;
            current = e;
            try {
                return depth == Nesting.HANDOFF_DEPTH
                        ? Nesting.onDeepStack(() -> evalNode(e, locals))
                        : evalNode(e, locals);
            } finally {
                depth--;
                current = outer;
            }
        }

        private boolean tooDeepReported;

        /** A run for a sub-expression whose diagnostics are kept apart, at this run's depth. */
        private Run child() {
            Run r = new Run(Diagnostics.builder(), unhideable);
            r.depth = depth;
            r.quiet = quiet;
            return r;
        }

        private Value evalNode(Expr e, Map<Object, Value> locals) {
            return switch (e) {
                case Expr.LiteralValue l -> literal(l.value());
                case Expr.ScopeTraversal s -> traversal(s, locals);
                case Expr.RelativeTraversal r -> {
                    Value src = eval(r.source(), locals);
                    yield applySteps(src, r.steps(), 0, r.range());
                }
                case Expr.FunctionCall f -> call(f, locals);
                case Expr.Conditional c -> conditional(c, locals);
                case Expr.Binary b -> binary(b, locals);
                case Expr.Unary u -> unary(u, locals);
                case Expr.Template t -> template(t, locals);
                case Expr.TemplateWrap w -> eval(w.wrapped(), locals);
                case Expr.TemplateJoin j -> templateJoin(j, locals);
                case Expr.TupleCons t -> {
                    List<Value> elems = new ArrayList<>(t.elements().size());
                    for (Expr x : t.elements()) {
                        elems.add(eval(x, locals));
                    }
                    yield Value.tuple(elems);
                }
                case Expr.ObjectCons o -> object(o, locals);
                case Expr.ObjectKey k -> eval(k.wrapped(), locals);
                case Expr.ForExpr f -> forExpr(f, locals);
                case Expr.Index i -> {
                    Value coll = eval(i.collection(), locals);
                    Value key = eval(i.key(), locals);
                    yield index(coll, key, i.bracketRange(), i.range());
                }
                case Expr.Splat s -> splat(s, locals);
                case Expr.AnonSymbol a -> {
                    Value item = locals.get(a);
                    yield item != null ? item : Value.DYNAMIC_UNKNOWN;
                }
                case Expr.Parentheses p -> eval(p.expr(), locals);
            };
        }

        private Value literal(Literal l) {
            return switch (l) {
                case Literal.NumberLit n -> Value.number(n.value());
                case Literal.StringLit s -> Value.string(s.value());
                case Literal.BoolLit b -> Value.bool(b.value());
                case Literal.NullLit n -> Value.NULL;
            };
        }

        // ---- references ------------------------------------------------------------------------

        private Value traversal(Expr.ScopeTraversal s, Map<Object, Value> locals) {
            Traversal t = s.traversal();
            Value local = locals.get(t.rootName());
            if (local != null) {
                return applySteps(local, t.steps(), 1, s.range());
            }
            if (!locals.isEmpty() && scope instanceof ConstantScope) {
                // HCL evaluates a for expression in a child of the missing context: there, a name the
                // expression does not bind is unknown, not forbidden.
                java.util.SortedSet<String> bound = new java.util.TreeSet<>();
                locals.keySet().forEach(k -> {
                    if (k instanceof String n) {
                        bound.add(n);
                    }
                });
                return fail(
                        "Unknown variable",
                        "There is no variable named \"" + t.rootName() + "\"."
                                + DidYouMean.sentence(t.rootName(), bound),
                        t.rootRange(),
                        s.range());
            }
            Result<Scope.Resolved> r = scope.resolve(t);
            for (Diagnostic d : r.diagnostics()) {
                boolean undeclared = d.isError() && d.summary().startsWith("Reference to undeclared ");
                (undeclared ? unhideable : diags).add(d);
            }
            if (r.hasErrors()) {
                return Value.DYNAMIC_UNKNOWN;
            }
            return applySteps(r.value().value(), t.steps(), r.value().stepsConsumed(), s.range());
        }

        private Value applySteps(Value v, List<Traverser> steps, int from, SourceRange whole) {
            Value cur = v;
            for (int i = from; i < steps.size(); i++) {
                Traverser step = steps.get(i);
                cur = switch (step) {
                    case Traverser.Attr a -> attribute(cur, a.name(), a.range(), whole);
                    case Traverser.Index ix -> index(cur, literal(ix.key()), ix.range(), whole);
                    case Traverser.Root r ->
                        fail("Invalid reference", "A reference cannot contain a second root.", r.range(), whole);
                    case Traverser.Splat sp ->
                        fail("Invalid reference", "A splat ([*]) is not allowed in this position.", sp.range(), whole);
                };
            }
            return cur;
        }

        private Value attribute(Value v, String name, SourceRange subject, SourceRange context) {
            Set<Mark> marks = v.marks();
            if (v.isNull()) {
                return fail(
                        "Attempt to get attribute from null value",
                        "This value is null, so it does not have any attributes.",
                        subject,
                        context);
            }
            Type t = v.type();
            if (!v.isKnown()) {
                return switch (t) {
                    case ObjectType o
                    when o.attrs().containsKey(name) ->
                        Value.unknown(o.attrs().get(name)).withMarks(marks);
                    case ObjectType o -> unsupportedAttribute(o.attrs().keySet(), name, subject, context);
                    case MapType m -> Value.unknown(m.elem()).withMarks(marks);
                    case DynamicType d -> Value.DYNAMIC_UNKNOWN.withMarks(marks);
                    default -> noAttributes(t, name, subject, context);
                };
            }
            return switch (t) {
                case ObjectType o -> {
                    Value a = v.attributes().get(name);
                    yield a != null
                            ? a.withMarks(marks)
                            : unsupportedAttribute(o.attrs().keySet(), name, subject, context);
                }
                case MapType m -> {
                    Value a = v.attributes().get(name);
                    yield a != null
                            ? a.withMarks(marks)
                            : fail(
                                    "Missing map element",
                                    "This map does not have an element with the key \"" + name + "\".",
                                    subject,
                                    context);
                }
                default -> noAttributes(t, name, subject, context);
            };
        }

        private Value unsupportedAttribute(Set<String> names, String name, SourceRange subject, SourceRange context) {
            return fail(
                    "Unsupported attribute",
                    "This object does not have an attribute named \"" + name + "\".",
                    subject,
                    context);
        }

        private Value noAttributes(Type t, String name, SourceRange subject, SourceRange context) {
            String attr = "attribute \"" + name + "\"";
            String detail = switch (t) {
                case ListType l ->
                    "Can't access attributes on a list of " + plural(l.elem())
                            + ". Did you mean to access " + attr + " for a specific element of the list, or across all "
                            + "elements of the list?";
                case SetType s ->
                    "Can't access attributes on a set of " + plural(s.elem()) + ". Did you mean to access " + attr
                            + " across all elements of the set?";
                case TupleType tt ->
                    "Can't access attributes on a tuple. Did you mean to access " + attr + " for a "
                            + "specific element of the tuple, or across all elements of the tuple?";
                default -> "Can't access attributes on a primitive-typed value (" + t.friendlyName() + ").";
            };
            return fail("Unsupported attribute", detail, subject, context);
        }

        private static String plural(Type elem) {
            return switch (elem) {
                case ObjectType o -> "objects";
                case ListType l -> "lists";
                case SetType s -> "sets";
                case MapType m -> "maps";
                case TupleType t -> "tuples";
                default -> elem.friendlyName() + (elem instanceof DynamicType ? " values" : "s");
            };
        }

        private Value index(Value coll, Value key, SourceRange subject, SourceRange context) {
            Set<Mark> marks = new java.util.HashSet<>(coll.marks());
            marks.addAll(key.marks());
            if (coll.isNull()) {
                return fail(
                        "Attempt to index null value",
                        "This value is null, so it does not have any indices.",
                        subject,
                        context);
            }
            if (key.isNull()) {
                return fail("Invalid index", "Can't use a null value as an indexing key.", subject, context);
            }
            Type t = coll.type();
            if (t instanceof SetType) {
                return fail(
                        "Invalid index",
                        "Elements of a set are identified only by their value and don't have "
                                + "any separate index or key to select with, so it's only possible to perform operations "
                                + "across all elements of the set.",
                        subject,
                        context);
            }
            boolean sequence = t instanceof ListType || t instanceof TupleType;
            boolean mapping = t instanceof MapType || t instanceof ObjectType;
            if (!sequence && !mapping && !(t instanceof DynamicType)) {
                return fail("Invalid index", "This value does not have any indices.", subject, context);
            }
            if (!coll.isKnown() || !key.isKnown()) {
                Type elem = switch (t) {
                    case ListType l -> l.elem();
                    case MapType m -> m.elem();
                    default -> Type.DYNAMIC;
                };
                return Value.unknown(elem).withMarks(marks);
            }
            if (sequence) {
                ConversionResult k = Convert.convert(key.unmark(), Type.NUMBER);
                if (!k.isOk()) {
                    return fail(
                            "Invalid index",
                            "The given key does not identify an element in this collection "
                                    + "value: a number is required.",
                            subject,
                            context);
                }
                BigDecimal n = k.value().asNumber();
                if (n.signum() < 0) {
                    return fail(
                            "Invalid index",
                            "The given key does not identify an element in this collection "
                                    + "value: a negative number is not a valid index for a sequence.",
                            subject,
                            context);
                }
                if (n.stripTrailingZeros().scale() > 0) {
                    return fail(
                            "Invalid index",
                            "The given key does not identify an element in this collection "
                                    + "value: indexing a sequence requires a whole number, but the given index has a "
                                    + "fractional part.",
                            subject,
                            context);
                }
                List<Value> elems = coll.elements();
                if (n.compareTo(BigDecimal.valueOf(elems.size())) >= 0) {
                    return fail(
                            "Invalid index",
                            // As Terraform 1.11: a reason only for the index just past the end.
                            n.compareTo(BigDecimal.valueOf(elems.size())) > 0
                                    ? "The given key does not identify an element in this collection value."
                                    : elems.isEmpty()
                                            ? "The given key does not identify an element in this collection "
                                                    + "value: the collection has no elements."
                                            : "The given key does not identify an element in this collection "
                                                    + "value: the given index is greater than or equal to the "
                                                    + "length of the collection.",
                            subject,
                            context);
                }
                return elems.get(n.intValueExact()).withMarks(marks);
            }
            ConversionResult k = Convert.convert(key.unmark(), Type.STRING);
            if (!k.isOk()) {
                return fail(
                        "Invalid index",
                        "The given key does not identify an element in this collection value: "
                                + "a string is required.",
                        subject,
                        context);
            }
            String name = k.value().asString();
            Value found = coll.attributes().get(name);
            if (found == null) {
                return fail(
                        "Invalid index",
                        "The given key does not identify an element in this collection value.",
                        subject,
                        context);
            }
            return found.withMarks(marks);
        }

        // ---- function calls --------------------------------------------------------------------

        private Value call(Expr.FunctionCall f, Map<Object, Value> locals) {
            if (!scope.functionsAllowed()) {
                return fail("Function calls not allowed", "Functions may not be called here.", f.range(), null);
            }
            String plain = f.name().startsWith("core::") ? f.name().substring(6) : f.name();
            if ((plain.equals("try") || plain.equals("can")) && !f.expandFinal()) {
                return plain.equals("try") ? tryCall(f, locals) : canCall(f, locals);
            }
            Optional<Function> fn = scope.functions().lookup(f.name());
            List<Value> args = new ArrayList<>(f.args().size());
            boolean argErrors = false;
            for (Expr a : f.args()) {
                int before = diags.size();
                args.add(eval(a, locals));
                argErrors |= diags.size() > before;
            }
            if (fn.isEmpty()) {
                if (f.name().startsWith(FunctionTable.PROVIDER_PREFIX)
                        && scope.functions().find(f.name()) instanceof FunctionTable.Lookup.Missing m) {
                    return fail(m.summary(), m.detail(), f.nameRange(), f.range());
                }
                String detail = "There is no function named \"" + f.name() + "\"."
                        + DidYouMean.sentence(f.name(), scope.functions().names());
                return fail("Call to unknown function", detail, f.nameRange(), f.range());
            }
            if (argErrors) {
                // An argument already failed: the call would only repeat that problem.
                return Value.DYNAMIC_UNKNOWN;
            }
            Function func = fn.get();
            Diagnostic.FunctionCall outer = calling;
            calling = new Diagnostic.FunctionCall(
                    f.name(),
                    func.params().stream().map(Param::name).toList(),
                    func.varParam().map(Param::name).orElse(null));
            try {
                return invoke(f, func, args, plain);
            } finally {
                calling = outer;
            }
        }

        /** The function whose call is being checked and made, for the problems of that call. */
        private Diagnostic.FunctionCall calling;

        private Value invoke(Expr.FunctionCall f, Function func, List<Value> args, String plain) {
            List<Expr> argExprs = f.args();
            if (plain.equals("templatestring")
                    && argExprs.size() == 2
                    && args.get(1).isKnown()
                    && !args.get(1).isNull()
                    && (argExprs.get(0) instanceof Expr.Template || argExprs.get(0) instanceof Expr.TemplateWrap)) {
                // The template would already have been rendered as a string literal before the call. As in
                // Terraform, this is checked when the call runs: not for unknown vars (the result is unknown),
                // nor for null vars (the parameter's own error).
                return fail(
                        "Invalid function argument",
                        "Invalid value for \"template\" parameter: invalid "
                                + "template expression: templatestring is only for rendering templates retrieved "
                                + "dynamically from elsewhere, and so does not support providing a literal template; "
                                + "consider using a template string expression instead.",
                        argExprs.get(0).range(),
                        f.range());
            }
            if (plain.equals("templatestring")
                    && argExprs.size() == 2
                    && args.get(1).isKnown()
                    && !args.get(1).isNull()
                    && !(argExprs.get(0) instanceof Expr.ScopeTraversal)) {
                // Terraform accepts only a reference to a string from elsewhere, so that a template is
                // never built from pieces (or escapes) in the calling expression.
                return fail(
                        "Invalid function argument",
                        "Invalid value for \"template\" parameter: invalid template expression: must be a direct "
                                + "reference to a single string from elsewhere, containing valid Terraform template "
                                + "syntax.",
                        argExprs.get(0).range(),
                        f.range());
            }
            if (f.expandFinal()) {
                Value last = args.remove(args.size() - 1);
                SourceRange lastRange = argExprs.get(argExprs.size() - 1).range();
                if (last.isNull()) {
                    return fail(
                            "Invalid expanding argument value",
                            "The expanding argument (indicated by ...) must " + "not be null.",
                            lastRange,
                            f.range());
                }
                Type lt = last.type();
                if (!(lt instanceof ListType
                        || lt instanceof SetType
                        || lt instanceof TupleType
                        || lt instanceof DynamicType)) {
                    return fail(
                            "Invalid expanding argument value",
                            "The expanding argument (indicated by ...) must " + "be of a tuple, list, or set type.",
                            lastRange,
                            f.range());
                }
                if (!last.isKnown()) {
                    return Value.DYNAMIC_UNKNOWN.withMarks(last.marks());
                }
                for (Value x : last.elements()) {
                    args.add(x.withMarks(last.marks()));
                }
            }
            int required = func.params().size();
            if (args.size() < required) {
                String missing = func.params().get(args.size()).name();
                return fail(
                        "Not enough function arguments",
                        "Function \"" + f.name() + "\" expects "
                                + (func.varParam().isPresent() ? "at least " : "") + required
                                + " argument(s). Missing value for \"" + missing + "\".",
                        f.closeParenRange(),
                        f.range());
            }
            if (args.size() > required && func.varParam().isEmpty()) {
                SourceRange extra = args.size() - 1 < argExprs.size() && !f.expandFinal()
                        ? argExprs.get(required).startRange()
                        : f.range();
                return fail(
                        "Too many function arguments",
                        "Function \"" + f.name() + "\" expects only " + required + " argument(s).",
                        extra,
                        f.range());
            }
            CallResult r;
            try {
                r = func.call(args);
            } catch (RuntimeException e) {
                // A function bug must not take the whole run down; report it as a failed call.
                return fail(
                        "Error in function call",
                        "Call to function \"" + f.name() + "\" failed unexpectedly: this is a bug in Strata; "
                                + "please report it with the arguments given.",
                        f.range(),
                        null);
            }
            return switch (r) {
                case CallResult.Success s -> s.value();
                case CallResult.Failure fl -> {
                    // As HCL: an argument's problem points at the start of that argument, the call's at "name(".
                    SourceRange subject = fl.argIndex() >= 0 && fl.argIndex() < argExprs.size() && !f.expandFinal()
                            ? argExprs.get(fl.argIndex()).startRange()
                            : f.startRange();
                    yield fail(fl.summary(), fl.detail(), subject, f.range());
                }
            };
        }

        /**
         * {@code try(a, b, ...)}: the first argument that evaluates without errors. An unknown result
         * makes the whole call unknown, since it could still fail once known.
         */
        private Value tryCall(Expr.FunctionCall f, Map<Object, Value> locals) {
            if (f.args().isEmpty()) {
                return fail(
                        "Error in function call",
                        "Call to function \"try\" failed: at least one argument is " + "required.",
                        f.range(),
                        null);
            }
            StringBuilder why = new StringBuilder();
            for (Expr arg : f.args()) {
                Run sub = child();
                sub.quiet = true;
                Value v = sub.eval(arg, locals);
                Diagnostics d = sub.diags.build();
                if (!d.hasErrors()) {
                    return v.isWhollyKnown() ? v : Value.DYNAMIC_UNKNOWN.withMarks(v.marks());
                }
                for (Diagnostic x : d) {
                    if (x.isError()) {
                        why.append("\n- ")
                                .append(x.summary())
                                .append(x.subject() == null ? "" : " (at " + x.subject() + ")")
                                .append(x.detail().isEmpty() ? "" : "\n  " + x.detail());
                    }
                }
            }
            return fail(
                    "Error in function call",
                    "Call to function \"try\" failed: no expression succeeded:" + why
                            + "\nAt least one expression must produce a successful result.",
                    f.range(),
                    null);
        }

        /** {@code can(expr)}: whether the argument evaluates without errors (unknown while it can't tell). */
        private Value canCall(Expr.FunctionCall f, Map<Object, Value> locals) {
            if (f.args().isEmpty()) {
                return fail(
                        "Not enough function arguments",
                        "Function \"can\" expects 1 argument(s). Missing value " + "for \"expression\".",
                        f.closeParenRange(),
                        f.range());
            }
            if (f.args().size() > 1) {
                return fail(
                        "Too many function arguments",
                        "Function \"can\" expects only 1 argument(s).",
                        f.args().get(1).range(),
                        f.range());
            }
            Run sub = child();
            sub.quiet = true;
            Value v = sub.eval(f.args().get(0), locals);
            if (sub.diags.hasErrors()) {
                return Value.FALSE;
            }
            return v.isWhollyKnown() ? Value.TRUE : Value.unknown(Type.BOOL);
        }

        // ---- operators -------------------------------------------------------------------------

        private Value conditional(Expr.Conditional c, Map<Object, Value> locals) {
            // Like HCL, both results are evaluated (their types decide the result type), but only the
            // chosen one's diagnostics count: `length(l) > 0 ? l[0] : null` must not fail on an empty
            // list, and with an unknown condition neither branch's errors are reported yet.
            Run trueRun = child();
            Value t = trueRun.eval(c.trueResult(), locals);
            Run falseRun = child();
            Value f = falseRun.eval(c.falseResult(), locals);
            Optional<Type> unified = conditionalType(t, f);
            if (unified.isEmpty()) {
                return fail(
                        "Inconsistent conditional result types",
                        "The true and false result expressions must have consistent types. "
                                + mismatch(t.type(), f.type()) + ".",
                        SourceRange.between(
                                c.trueResult().range(), c.falseResult().range()),
                        c.range());
            }
            Type rt = unified.get();
            Value cond = eval(c.condition(), locals);
            if (cond.isNull()) {
                return fail(
                        "Null condition",
                        "The condition value is null. Conditions must either be true or false.",
                        c.condition().range(),
                        c.range());
            }
            ConversionResult cb = Convert.convert(cond.unmark(), Type.BOOL);
            if (!cb.isOk()) {
                return fail(
                        "Incorrect condition type",
                        "The condition expression must be of type bool.",
                        c.condition().range(),
                        c.range());
            }
            if (!cond.isKnown()) {
                // Either outcome is null when both are, so the result is known to be null.
                Value either = t.isKnown() && t.isNull() && f.isKnown() && f.isNull()
                        ? Value.nullValue(rt)
                        : Value.unknown(rt);
                return either.withMarks(cond.marks()).withMarks(t.marks()).withMarks(f.marks());
            }
            diags.addAll((cb.value().asBool() ? trueRun : falseRun).diags.build());
            Value chosen = cb.value().asBool() ? t : f;
            Value converted = convertOr(chosen, rt, cb.value().asBool() ? c.trueResult() : c.falseResult(), c);
            return converted.withMarks(cond.marks());
        }

        /**
         * Why two result types do not unify, as Terraform words it: an attribute one object has and the other
         * lacks, tuples of different lengths, else the first attribute or element whose types differ, else the
         * two types.
         */
        private static String mismatch(Type t, Type f) {
            if (t instanceof ObjectType to && f instanceof ObjectType fo) {
                for (String n : to.attrs().keySet()) {
                    if (!fo.attrs().containsKey(n)) {
                        return "The 'true' value includes object attribute \"" + n
                                + "\", which is absent in the 'false' value";
                    }
                }
                for (String n : fo.attrs().keySet()) {
                    if (!to.attrs().containsKey(n)) {
                        return "The 'false' value includes object attribute \"" + n
                                + "\", which is absent in the 'true' value";
                    }
                }
                for (String n : to.attrs().keySet()) {
                    Type a = to.attrs().get(n);
                    Type b = fo.attrs().get(n);
                    if (Unify.unify(List.of(a, b)).isEmpty()) {
                        return "Type mismatch for object attribute \"" + n + "\": " + mismatch(a, b);
                    }
                }
            }
            if (t instanceof TupleType tt && f instanceof TupleType ft) {
                if (tt.elems().size() != ft.elems().size()) {
                    return "The 'true' tuple has length " + tt.elems().size() + ", but the 'false' tuple has length "
                            + ft.elems().size();
                }
                for (int i = 0; i < tt.elems().size(); i++) {
                    if (Unify.unify(List.of(tt.elems().get(i), ft.elems().get(i)))
                            .isEmpty()) {
                        return "Type mismatch for tuple element " + i + ": "
                                + mismatch(tt.elems().get(i), ft.elems().get(i));
                    }
                }
            }
            return "The 'true' value is " + t.friendlyName() + ", but the 'false' value is " + f.friendlyName();
        }

        /**
         * The result type of a conditional, as HCL decides it: an untyped {@code null} takes the
         * other result's type; a result whose type is not known yet makes the result type unknown
         * (the chosen result is then returned as it is); otherwise the types are unified.
         */
        private static Optional<Type> conditionalType(Value t, Value f) {
            if (t.equals(Value.NULL)) {
                return Optional.of(f.type());
            }
            if (f.equals(Value.NULL)) {
                return Optional.of(t.type());
            }
            if (t.type() instanceof DynamicType || f.type() instanceof DynamicType) {
                return Optional.of(Type.DYNAMIC);
            }
            return Unify.unify(List.of(t.type(), f.type()));
        }

        private Value convertOr(Value v, Type target, Expr at, Expr context) {
            ConversionResult r = Convert.convert(v, target);
            if (r.isOk()) {
                return r.value();
            }
            return fail(
                    "Inconsistent conditional result types",
                    "The result can't be converted to " + target.friendlyName() + ": "
                            + ((ConversionResult.Failed) r).message() + ".",
                    at.range(),
                    context.range());
        }

        private Value binary(Expr.Binary b, Map<Object, Value> locals) {
            Value l = eval(b.lhs(), locals);
            Value r = eval(b.rhs(), locals);
            Set<Mark> marks = new java.util.HashSet<>(l.marks());
            marks.addAll(r.marks());
            Value lu = l.unmark();
            Value ru = r.unmark();
            return switch (b.op()) {
                case EQUAL -> Operations.equal(l, r);
                case NOT_EQUAL -> Operations.notEqual(l, r);
                case OR, AND -> {
                    Value lb = operand(lu, Type.BOOL, "left", b.lhs(), b);
                    Value rb = operand(ru, Type.BOOL, "right", b.rhs(), b);
                    if (lb == null || rb == null) {
                        yield Value.unknown(Type.BOOL);
                    }
                    boolean isOr = b.op() == Expr.BinaryOp.OR;
                    // Terraform 1.11 does not short-circuit: an unknown operand makes the result unknown
                    // even where the other operand alone decides it (false && unknown). 1.12 changed that;
                    // a plan-time condition would otherwise pass here where 1.11 defers it to the apply.
                    if (!lb.isKnown() || !rb.isKnown()) {
                        yield Value.unknown(Type.BOOL).withMarks(marks);
                    }
                    yield Value.bool(isOr ? lb.asBool() || rb.asBool() : lb.asBool() && rb.asBool())
                            .withMarks(marks);
                }
                default -> {
                    Value ln = operand(lu, Type.NUMBER, "left", b.lhs(), b);
                    Value rn = operand(ru, Type.NUMBER, "right", b.rhs(), b);
                    boolean comparison = switch (b.op()) {
                        case LESS_THAN, LESS_THAN_OR_EQUAL, GREATER_THAN, GREATER_THAN_OR_EQUAL -> true;
                        default -> false;
                    };
                    Type rt = comparison ? Type.BOOL : Type.NUMBER;
                    if (ln == null || rn == null) {
                        yield Value.unknown(rt);
                    }
                    if (!ln.isKnown() || !rn.isKnown()) {
                        yield Value.unknown(rt).withMarks(marks);
                    }
                    OpResult out = switch (b.op()) {
                        case ADD -> Operations.add(ln, rn);
                        case SUBTRACT -> Operations.subtract(ln, rn);
                        case MULTIPLY -> Operations.multiply(ln, rn);
                        case DIVIDE -> Operations.divide(ln, rn);
                        case MODULO -> Operations.modulo(ln, rn);
                        case LESS_THAN -> Operations.lessThan(ln, rn);
                        case LESS_THAN_OR_EQUAL -> Operations.lessThanOrEqual(ln, rn);
                        case GREATER_THAN -> Operations.greaterThan(ln, rn);
                        case GREATER_THAN_OR_EQUAL -> Operations.greaterThanOrEqual(ln, rn);
                        case OR, AND, EQUAL, NOT_EQUAL -> throw new IllegalStateException("handled above: " + b.op());
                    };
                    yield switch (out) {
                        case OpResult.Ok ok -> ok.value().withMarks(marks);
                        case OpResult.Failed f ->
                            fail("Operation failed", "Error during operation: " + f.message() + ".", b.range(), null);
                    };
                }
            };
        }

        /** An operand converted to the operator's type, or null after reporting why it can't be. */
        private Value operand(Value v, Type type, String side, Expr at, Expr.Binary context) {
            if (v.isNull()) {
                fail("Operation failed", "Error during operation: argument must not be null.", context.range(), null);
                return null;
            }
            ConversionResult r = Convert.convert(v, type);
            if (!r.isOk()) {
                failIn(
                        at,
                        "Invalid operand",
                        "Unsuitable value for " + side + " operand: " + ((ConversionResult.Failed) r).message() + ".",
                        at.range(),
                        context.range());
                return null;
            }
            return r.value();
        }

        private Value unary(Expr.Unary u, Map<Object, Value> locals) {
            Value v = eval(u.operand(), locals);
            Set<Mark> marks = v.marks();
            Type type = u.op() == Expr.UnaryOp.NEGATE ? Type.NUMBER : Type.BOOL;
            if (v.isNull()) {
                return fail("Operation failed", "Error during operation: argument must not be null.", u.range(), null);
            }
            ConversionResult r = Convert.convert(v.unmark(), type);
            if (!r.isOk()) {
                return failIn(
                        u.operand(),
                        "Invalid operand",
                        "Unsuitable value for unary operand: " + ((ConversionResult.Failed) r).message() + ".",
                        u.operand().range(),
                        u.range());
            }
            if (!r.value().isKnown()) {
                return Value.unknown(type).withMarks(marks);
            }
            if (u.op() == Expr.UnaryOp.NOT) {
                return Value.bool(!r.value().asBool()).withMarks(marks);
            }
            return switch (Operations.negate(r.value())) {
                case OpResult.Ok ok -> ok.value().withMarks(marks);
                case OpResult.Failed f ->
                    fail("Operation failed", "Error during operation: " + f.message() + ".", u.range(), null);
            };
        }

        // ---- templates -------------------------------------------------------------------------

        private Value template(Expr.Template t, Map<Object, Value> locals) {
            StringBuilder sb = new StringBuilder();
            Set<Mark> marks = new java.util.HashSet<>();
            boolean unknown = false;
            boolean failed = false;
            for (Expr part : t.parts()) {
                Value v = eval(part, locals);
                marks.addAll(v.marks());
                if (v.isNull()) {
                    fail(
                            "Invalid template interpolation value",
                            "The expression result is null. Cannot include a " + "null value in a string template.",
                            part.range(),
                            t.range());
                    failed = true;
                    continue;
                }
                if (!v.isKnown()) {
                    unknown = true;
                    continue;
                }
                ConversionResult s = Convert.convert(v.unmark(), Type.STRING);
                if (!s.isOk()) {
                    fail(
                            "Invalid template interpolation value",
                            "Cannot include the given value in a string " + "template: "
                                    + ((ConversionResult.Failed) s).message() + ".",
                            part.range(),
                            t.range());
                    failed = true;
                    continue;
                }
                if (!s.value().isKnown()) {
                    unknown = true;
                    continue;
                }
                sb.append(s.value().asString());
            }
            if (failed) {
                return Value.unknown(Type.STRING);
            }
            if (unknown) {
                return Value.unknown(Type.STRING).withMarks(marks);
            }
            return Value.string(sb.toString()).withMarks(marks);
        }

        private Value templateJoin(Expr.TemplateJoin j, Map<Object, Value> locals) {
            Value tuple = eval(j.tuple(), locals);
            if (!tuple.isKnown()) {
                return Value.unknown(Type.STRING).withMarks(tuple.marks());
            }
            if (tuple.isNull()) {
                return Value.string("");
            }
            StringBuilder sb = new StringBuilder();
            Set<Mark> marks = new java.util.HashSet<>(tuple.marks());
            boolean unknown = false;
            for (Value v : tuple.elements()) {
                marks.addAll(v.marks());
                if (!v.isKnown()) {
                    unknown = true;
                    continue;
                }
                if (v.isNull()) {
                    return fail(
                            "Invalid template interpolation value",
                            "An iteration result is null. Cannot include " + "a null value in a string template.",
                            j.range(),
                            null);
                }
                ConversionResult s = Convert.convert(v.unmark(), Type.STRING);
                if (!s.isOk()) {
                    return fail(
                            "Invalid template interpolation value",
                            "Cannot include one of the interpolation " + "results into the string template: "
                                    + ((ConversionResult.Failed) s).message() + ".",
                            j.range(),
                            null);
                }
                sb.append(s.value().asString());
            }
            return (unknown ? Value.unknown(Type.STRING) : Value.string(sb.toString())).withMarks(marks);
        }

        // ---- constructors ----------------------------------------------------------------------

        private Value object(Expr.ObjectCons o, Map<Object, Value> locals) {
            Map<String, Value> attrs = new LinkedHashMap<>();
            Set<Mark> keyMarks = new java.util.HashSet<>();
            boolean unknownKey = false;
            for (Expr.ObjectItem item : o.items()) {
                Value value = eval(item.value(), locals);
                Optional<String> literal = item.key().literalName();
                String name;
                if (literal.isPresent()) {
                    name = literal.get();
                } else {
                    Value k = eval(item.key().wrapped(), locals);
                    if (k.isNull()) {
                        fail(
                                "Null value as key",
                                "Can't use a null value as a key.",
                                item.key().range(),
                                o.range());
                        continue;
                    }
                    ConversionResult ks = Convert.convert(k.unmark(), Type.STRING);
                    if (!ks.isOk()) {
                        fail(
                                "Incorrect key type",
                                "Can't use this value as a key: " + ((ConversionResult.Failed) ks).message() + ".",
                                item.key().range(),
                                o.range());
                        continue;
                    }
                    if (!ks.value().isKnown()) {
                        unknownKey = true;
                        continue;
                    }
                    keyMarks.addAll(k.marks());
                    name = ks.value().asString();
                }
                // As in Terraform, a later item with the same key replaces an earlier one.
                attrs.remove(name);
                attrs.put(name, value);
            }
            if (unknownKey) {
                return Value.DYNAMIC_UNKNOWN.withMarks(keyMarks);
            }
            return Value.object(new TreeMap<>(attrs)).withMarks(keyMarks);
        }

        private Value forExpr(Expr.ForExpr f, Map<Object, Value> locals) {
            Value coll = eval(f.collection(), locals);
            Type resultUnknownType = Type.DYNAMIC;
            if (coll.isNull()) {
                return fail(
                        "Iteration over null value",
                        "A null value cannot be used as the collection in a 'for' " + "expression.",
                        f.collection().range(),
                        f.range());
            }
            Type ct = coll.type();
            if (!(ct.isCollection() || ct.isStructural() || ct instanceof DynamicType)) {
                return fail(
                        "Iteration over non-iterable value",
                        "A value of type " + ct.friendlyName() + " cannot be "
                                + "used as the collection in a 'for' expression.",
                        f.collection().range(),
                        f.range());
            }
            if (!coll.isKnown()) {
                return Value.unknown(resultUnknownType).withMarks(coll.marks());
            }
            Set<Mark> marks = new java.util.HashSet<>(coll.marks());
            List<Value[]> pairs = new ArrayList<>();
            if (ct instanceof MapType || ct instanceof ObjectType) {
                for (Map.Entry<String, Value> en : coll.attributes().entrySet()) {
                    pairs.add(new Value[] {Value.string(en.getKey()), en.getValue()});
                }
            } else {
                List<Value> elems = coll.elements();
                for (int i = 0; i < elems.size(); i++) {
                    Value key = ct instanceof SetType ? elems.get(i) : Value.number(i);
                    pairs.add(new Value[] {key, elems.get(i)});
                }
            }
            List<Value> tupleOut = new ArrayList<>();
            Map<String, Value> objOut = new TreeMap<>();
            Map<String, List<Value>> groups = new TreeMap<>();
            boolean unknown = false;
            for (Value[] pair : pairs) {
                Map<Object, Value> inner = new HashMap<>(locals);
                if (f.keyVar() != null) {
                    inner.put(f.keyVar(), pair[0].withMarks(coll.marks()));
                }
                inner.put(f.valVar(), pair[1].withMarks(coll.marks()));
                if (f.condition() != null) {
                    Value c = eval(f.condition(), inner);
                    if (c.isNull()) {
                        return fail(
                                "Condition is null",
                                "The value of the 'if' clause must not be null.",
                                f.condition().range(),
                                f.range());
                    }
                    ConversionResult cb = Convert.convert(c.unmark(), Type.BOOL);
                    if (!cb.isOk()) {
                        return fail(
                                "Invalid 'for' condition",
                                "The 'if' clause value is invalid: " + ((ConversionResult.Failed) cb).message() + ".",
                                f.condition().range(),
                                f.range());
                    }
                    if (!cb.value().isKnown()) {
                        unknown = true;
                        continue;
                    }
                    marks.addAll(c.marks());
                    if (!cb.value().asBool()) {
                        continue;
                    }
                }
                Value val = eval(f.valueExpr(), inner);
                if (!f.isObject()) {
                    tupleOut.add(val);
                    continue;
                }
                Value k = eval(f.keyExpr(), inner);
                if (k.isNull()) {
                    return fail(
                            "Invalid object key",
                            "Key expression in 'for' expression must not produce a null " + "value.",
                            f.keyExpr().range(),
                            f.range());
                }
                ConversionResult ks = Convert.convert(k.unmark(), Type.STRING);
                if (!ks.isOk()) {
                    return fail(
                            "Invalid object key",
                            "The key expression produced an invalid result: " + ((ConversionResult.Failed) ks).message()
                                    + ".",
                            f.keyExpr().range(),
                            f.range());
                }
                if (!ks.value().isKnown()) {
                    unknown = true;
                    continue;
                }
                marks.addAll(k.marks());
                String key = ks.value().asString();
                if (f.group()) {
                    groups.computeIfAbsent(key, x -> new ArrayList<>()).add(val);
                } else if (objOut.containsKey(key)) {
                    return fail(
                            "Duplicate object key",
                            "Two different items produced the key \"" + key + "\" in this "
                                    + "'for' expression. If duplicates are expected, use the ellipsis (...) after the value "
                                    + "expression to enable grouping by key.",
                            f.keyExpr().range(),
                            f.range());
                } else {
                    objOut.put(key, val);
                }
            }
            if (unknown) {
                return Value.unknown(resultUnknownType).withMarks(marks);
            }
            if (!f.isObject()) {
                return Value.tuple(tupleOut).withMarks(marks);
            }
            if (f.group()) {
                for (Map.Entry<String, List<Value>> g : groups.entrySet()) {
                    objOut.put(g.getKey(), Value.tuple(g.getValue()));
                }
            }
            return Value.object(objOut).withMarks(marks);
        }

        private Value splat(Expr.Splat s, Map<Object, Value> locals) {
            Value src = eval(s.source(), locals);
            if (src.isNull()) {
                return Value.EMPTY_TUPLE;
            }
            Type t = src.type();
            boolean sequence = t instanceof ListType || t instanceof SetType || t instanceof TupleType;
            if (!src.isKnown()) {
                return (t instanceof DynamicType ? Value.DYNAMIC_UNKNOWN : Value.unknown(Type.DYNAMIC))
                        .withMarks(src.marks());
            }
            if (!sequence) {
                // A single value is treated as a one-element tuple (Terraform's "auto-splat").
                Map<Object, Value> inner = new HashMap<>(locals);
                inner.put(s.item(), src);
                return Value.tuple(List.of(eval(s.each(), inner)));
            }
            List<Value> out = new ArrayList<>();
            for (Value elem : src.elements()) {
                Map<Object, Value> inner = new HashMap<>(locals);
                inner.put(s.item(), elem.withMarks(src.marks()));
                out.add(eval(s.each(), inner));
            }
            if (t instanceof TupleType) {
                return Value.tuple(out).withMarks(src.marks());
            }
            // A list or set gives a list, whose element type is the common type of the results.
            Optional<Type> elem = Unify.unify(out.stream().map(Value::type).toList());
            if (elem.isEmpty()) {
                return Value.tuple(out).withMarks(src.marks());
            }
            List<Value> converted = new ArrayList<>();
            for (Value v : out) {
                ConversionResult r = Convert.convert(v, elem.get());
                converted.add(r.isOk() ? r.value() : v);
            }
            Type et = out.isEmpty() ? (t.elementType() == null ? Type.DYNAMIC : t.elementType()) : elem.get();
            return Value.list(et, converted).withMarks(src.marks());
        }
    }
}
