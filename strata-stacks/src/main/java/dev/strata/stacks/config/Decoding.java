package dev.strata.stacks.config;

import dev.strata.config.Constants;
import dev.strata.config.TypeExprs;
import dev.strata.hcl.Attribute;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Expression;
import dev.strata.hcl.Result;
import dev.strata.hcl.SourceRange;
import dev.strata.hcl.Traversal;
import dev.strata.hcl.json.JsonExpression;
import dev.strata.hcl.syntax.Expr;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.TypeConstraint;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.regex.Pattern;

/** Shared reading of constant arguments, type constraints and static references. */
final class Decoding {
    private static final Pattern IDENT = Pattern.compile("[A-Za-z_][A-Za-z0-9_-]*");

    private final Diagnostics.Builder diags;

    Decoding(Diagnostics.Builder diags) {
        this.diags = diags;
    }

    boolean validName(String name, String what, SourceRange range) {
        if (IDENT.matcher(name).matches()) {
            return true;
        }
        diags.error(
                "Invalid " + what + " name",
                "A name must start with a letter or underscore and may contain only letters, digits, "
                        + "underscores, and dashes.",
                range);
        return false;
    }

    String constString(Attribute a) {
        return a == null ? null : Constants.string(a.expr(), diags);
    }

    boolean constBool(Attribute a, boolean dflt) {
        return a == null ? dflt : Constants.bool(a.expr(), dflt, diags);
    }

    /**
     * A type argument: an ordinary type constraint, or {@code providerconfig(NAME)}, whose provider
     * {@code providerFor} resolves from the stack's {@code required_providers}.
     */
    StackType type(Attribute a, java.util.function.Function<String, dev.strata.addr.Provider> providerFor) {
        Expression e = a.expr();
        Result<Expr> tree = e instanceof JsonExpression j ? j.asNativeExpression() : e.syntax();
        if (!tree.hasErrors()
                && tree.value() instanceof Expr.FunctionCall f
                && f.name().equals("providerconfig")) {
            String local = f.args().size() != 1 ? null : keyword(f.args().getFirst());
            if (local == null
                    && f.args().size() == 1
                    && f.args().getFirst() instanceof Expr.ScopeTraversal st
                    && st.traversal().steps().size() == 1) {
                local = st.traversal().rootName();
            }
            if (local == null) {
                diags.error(
                        "Invalid provider configuration type",
                        "The providerconfig type takes one argument: the local name of a provider from this "
                                + "stack's required_providers, such as providerconfig(aws).",
                        f.range());
                return new StackType.Value(TypeConstraint.of(Type.DYNAMIC));
            }
            return new StackType.ProviderConfig(local, providerFor.apply(local));
        }
        Result<TypeConstraint> tc = TypeExprs.parse(e);
        diags.addAll(tc.diagnostics());
        return new StackType.Value(tc.value());
    }

    /** A list of static references ({@code depends_on}). */
    List<Traversal> traversalList(Attribute a) {
        List<Traversal> out = new ArrayList<>();
        if (a == null) {
            return out;
        }
        var items = a.expr().asList();
        if (items.isEmpty()) {
            diags.error(
                    "Invalid expression",
                    "A static list expression is required.",
                    a.expr().range());
            return out;
        }
        for (Expression item : items.get()) {
            Result<java.util.Optional<Traversal>> t = item.asTraversal();
            diags.addAll(t.diagnostics());
            t.value().ifPresent(out::add);
        }
        return out;
    }

    /** A single static reference ({@code deployment_group = deployment_group.x}). */
    Traversal traversal(Attribute a) {
        if (a == null) {
            return null;
        }
        Result<java.util.Optional<Traversal>> t = a.expr().asTraversal();
        diags.addAll(t.diagnostics());
        return t.value().orElse(null);
    }

    /**
     * The static entries of a {@code providers = {...}} map; empty (not an error: the runtime
     * evaluates it) when the expression is not an object constructor.
     */
    TreeMap<String, ProviderArgument> providerArgs(Attribute a) {
        TreeMap<String, ProviderArgument> out = new TreeMap<>();
        if (a == null) {
            return out;
        }
        var kvs = a.expr().asMap();
        if (kvs.isEmpty()) {
            diags.error(
                    "Invalid providers argument",
                    "The providers argument must be an object constructor mapping each of the module's "
                            + "provider configuration names to a provider configuration reference.",
                    a.expr().range());
            return out;
        }
        for (Expression.KeyValue kv : kvs.get()) {
            String name = keyName(kv.key());
            if (name == null) {
                diags.error(
                        "Invalid provider configuration name",
                        "The key must be the name of one of the module's provider configurations.",
                        kv.key().range());
                continue;
            }
            if (out.containsKey(name)) {
                diags.error(
                        "Duplicate provider configuration",
                        "The provider configuration \"" + name + "\" is already assigned at "
                                + out.get(name).nameRange() + ".",
                        kv.key().range());
                continue;
            }
            out.put(name, new ProviderArgument(name, kv.key().range(), kv.value()));
        }
        return out;
    }

    /** An object constructor key as a name: a bare word or a literal string; else null. */
    static String keyName(Expression key) {
        Result<Expr> syn = key.syntax();
        if (syn.hasErrors() || syn.value() == null) {
            return null;
        }
        Expr e = syn.value();
        if (e instanceof Expr.ObjectKey k && !k.forceNonLiteral()) {
            e = k.wrapped();
        }
        String kw = keyword(e);
        if (kw != null) {
            return kw;
        }
        return TypeExprs.keyName(e instanceof Expr.ObjectKey k ? k : new Expr.ObjectKey(e, false));
    }

    /**
     * A bare {@code null}, {@code true} or {@code false} written as a name (the provider local name
     * {@code null} in {@code providers = { null = ... }} or {@code providerconfig(null)}).
     */
    static String keyword(Expr e) {
        if (e instanceof Expr.LiteralValue lv
                && (lv.value() instanceof dev.strata.hcl.Literal.NullLit
                        || lv.value() instanceof dev.strata.hcl.Literal.BoolLit)
                && lv.range().end().byteOffset() - lv.range().start().byteOffset()
                        == lv.value().toString().length()) {
            return lv.value().toString();
        }
        return null;
    }

    void duplicate(String what, String label, SourceRange first, SourceRange again) {
        diags.add(Diagnostic.error(
                "Duplicate " + what + " declaration",
                "A " + what + " named \"" + label + "\" was already declared at " + first + ". " + capitalize(what)
                        + " names must be unique within a configuration.",
                again));
    }

    private static String capitalize(String s) {
        return Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }
}
