package dev.strata.config;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Expression;
import dev.strata.hcl.Literal;
import dev.strata.hcl.Result;
import dev.strata.hcl.SourceRange;
import dev.strata.hcl.json.JsonExpression;
import dev.strata.hcl.syntax.Expr;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.ConversionResult;
import dev.strata.lang.value.Convert;
import dev.strata.lang.value.TypeConstraint;
import dev.strata.lang.value.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads a type constraint expression ({@code list(object({a = optional(string, "x")}))}) into a
 * {@link TypeConstraint}. In JSON files the constraint is a string containing the expression.
 */
public final class TypeExprs {
    private TypeExprs() {}

    public static Result<TypeConstraint> parse(Expression expression) {
        Result<Expr> tree = expression instanceof JsonExpression j ? j.asNativeExpression() : expression.syntax();
        if (tree.hasErrors()) {
            return Result.of(TypeConstraint.of(Type.DYNAMIC), tree.diagnostics());
        }
        Diagnostics.Builder diags = Diagnostics.builder();
        TypeConstraint tc = new Reader(diags, !(expression instanceof JsonExpression)).read(tree.value(), false);
        return Result.of(tc, diags.build());
    }

    /** An object constructor key as a name: a bare word or a literal string; else null. */
    public static String keyName(Expr.ObjectKey k) {
        return Reader.keyNameOf(k);
    }

    private record Reader(Diagnostics.Builder diags, boolean nativeSyntax) {

        TypeConstraint fail(String detail, SourceRange range) {
            diags.add(Diagnostic.error("Invalid type specification", detail, range));
            return TypeConstraint.of(Type.DYNAMIC);
        }

        TypeConstraint read(Expr e, boolean objectAttr) {
            switch (e) {
                case Expr.Parentheses p -> {
                    return read(p.expr(), objectAttr);
                }
                case Expr.ScopeTraversal s
                when s.traversal().steps().size() == 1 -> {
                    String kw = s.traversal().rootName();
                    return switch (kw) {
                        case "string" -> TypeConstraint.of(Type.STRING);
                        case "number" -> TypeConstraint.of(Type.NUMBER);
                        case "bool" -> TypeConstraint.of(Type.BOOL);
                        case "any" -> TypeConstraint.of(Type.DYNAMIC);
                        case "list", "set", "map" ->
                            fail(
                                    "The " + kw + " type constructor requires one argument "
                                            + "specifying the element type.",
                                    e.range());
                        case "object" ->
                            fail(
                                    "The object type constructor requires one argument specifying the "
                                            + "attribute types as a map.",
                                    e.range());
                        case "tuple" ->
                            fail(
                                    "The tuple type constructor requires one argument specifying the "
                                            + "element types as a list.",
                                    e.range());
                        default -> fail("The keyword \"" + kw + "\" is not a valid type specification.", e.range());
                    };
                }
                case Expr.Template t
                when nativeSyntax
                        && t.parts().size() == 1
                        && t.parts().getFirst() instanceof Expr.LiteralValue lv
                        && lv.value() instanceof Literal.StringLit str -> {
                    diags.add(Diagnostic.error(
                            "Invalid quoted type constraints",
                            "Terraform 0.11 and earlier "
                                    + "required type constraints to be given in quotes, but that form is now deprecated and "
                                    + "will be removed in a future version of Terraform. Remove the quotes around \""
                                    + str.value() + "\" and write it as a type keyword.",
                            e.range()));
                    return TypeConstraint.of(Type.DYNAMIC);
                }
                case Expr.FunctionCall f -> {
                    return call(f, objectAttr);
                }
                default -> {
                    return fail(
                            "A type specification is either a primitive type keyword (bool, number, string), "
                                    + "\"any\", or a complex type constructor call, like list(string).",
                            e.range());
                }
            }
        }

        TypeConstraint call(Expr.FunctionCall f, boolean objectAttr) {
            String name = f.name();
            List<Expr> args = f.args();
            switch (name) {
                case "list", "set", "map" -> {
                    if (args.size() != 1) {
                        return fail(
                                "The " + name + " type constructor requires one argument specifying the "
                                        + "element type.",
                                f.range());
                    }
                    TypeConstraint elem = read(args.getFirst(), false);
                    return switch (name) {
                        case "list" -> TypeConstraint.list(elem);
                        case "set" -> TypeConstraint.set(elem);
                        default -> TypeConstraint.map(elem);
                    };
                }
                case "object" -> {
                    if (args.size() != 1 || !(args.getFirst() instanceof Expr.ObjectCons o)) {
                        return fail(
                                "The object type constructor requires one argument specifying the attribute "
                                        + "types as a map.",
                                f.range());
                    }
                    TypeConstraint.ObjectBuilder b = TypeConstraint.object();
                    java.util.Set<String> seen = new java.util.HashSet<>();
                    for (Expr.ObjectItem item : o.items()) {
                        String attr = keyName(item.key());
                        if (attr == null) {
                            fail(
                                    "Object constructor map keys must be attribute names.",
                                    item.key().range());
                            continue;
                        }
                        if (!seen.add(attr)) {
                            fail(
                                    "The attribute \"" + attr + "\" is defined more than once.",
                                    item.key().range());
                            continue;
                        }
                        if (item.value() instanceof Expr.FunctionCall opt
                                && opt.name().equals("optional")) {
                            optional(b, attr, opt);
                        } else {
                            b.attr(attr, read(item.value(), true));
                        }
                    }
                    return b.build();
                }
                case "tuple" -> {
                    if (args.size() != 1 || !(args.getFirst() instanceof Expr.TupleCons t)) {
                        return fail(
                                "The tuple type constructor requires one argument specifying the element types "
                                        + "as a list.",
                                f.range());
                    }
                    List<Type> types = new ArrayList<>();
                    Map<String, TypeConstraint.Defaults> children = new TreeMap<>();
                    for (int i = 0; i < t.elements().size(); i++) {
                        TypeConstraint c = read(t.elements().get(i), false);
                        types.add(c.type());
                        if (!c.defaults().isEmpty()) {
                            children.put(Integer.toString(i), c.defaults());
                        }
                    }
                    return new TypeConstraint(
                            Type.tuple(types), new TypeConstraint.Defaults(new TreeMap<>(), new TreeMap<>(children)));
                }
                case "optional" -> {
                    return fail(
                            "Keyword \"optional\" is valid only as a modifier for object type attributes.",
                            f.nameRange());
                }
                default -> {
                    return fail("Keyword \"" + name + "\" is not a valid type constructor.", f.nameRange());
                }
            }
        }

        void optional(TypeConstraint.ObjectBuilder b, String attr, Expr.FunctionCall opt) {
            if (opt.args().isEmpty() || opt.args().size() > 2) {
                fail(
                        "Optional attribute modifier requires the attribute type as its first argument and, "
                                + "optionally, a default value as its second.",
                        opt.range());
                return;
            }
            TypeConstraint c = read(opt.args().getFirst(), false);
            if (opt.args().size() == 1) {
                b.optional(attr, c);
                return;
            }
            Expr d = opt.args().get(1);
            Result<Value> v = Constants.evaluate(d);
            if (v.hasErrors()) {
                diags.addAll(v.diagnostics());
                b.optional(attr, c);
                return;
            }
            ConversionResult r = Convert.convert(v.value(), c.type());
            if (r instanceof ConversionResult.Failed failed) {
                diags.add(Diagnostic.error(
                        "Invalid default value for optional attribute",
                        "This default value is " + "not compatible with the attribute's type constraint: "
                                + failed.message() + ".",
                        d.range()));
                b.optional(attr, c);
                return;
            }
            b.optional(attr, c, r.value());
        }

        static String keyNameOf(Expr.ObjectKey k) {
            Expr w = k.wrapped();
            if (w instanceof Expr.ScopeTraversal s && s.traversal().steps().size() == 1) {
                return s.traversal().rootName();
            }
            if (w instanceof Expr.Template t
                    && t.parts().size() == 1
                    && t.parts().getFirst() instanceof Expr.LiteralValue lv
                    && lv.value() instanceof Literal.StringLit str) {
                return str.value();
            }
            if (w instanceof Expr.LiteralValue lv && lv.value() instanceof Literal.StringLit str) {
                return str.value();
            }
            return null;
        }
    }
}
