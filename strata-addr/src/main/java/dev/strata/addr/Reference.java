package dev.strata.addr;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Literal;
import dev.strata.hcl.Result;
import dev.strata.hcl.SourceRange;
import dev.strata.hcl.Traversal;
import dev.strata.hcl.Traverser;
import java.util.List;
import java.util.Set;

/**
 * A traversal raised to a typed reference: what it refers to ({@code subject}), the source range of
 * the part that names the subject, and the steps after it (attribute accesses into the value).
 */
public record Reference(Referenceable subject, SourceRange range, List<Traverser> remaining) {
    public Reference {
        remaining = List.copyOf(remaining);
    }

    private static final Set<String> RESERVED = Set.of("template", "lazy", "arg", "_");

    /**
     * Lifts a traversal from {@code Expression.variables()} to a reference. Malformed references
     * ({@code var} alone, {@code count.foo}, {@code data.x}) are errors at the traversal's range; the
     * value is then null.
     */
    public static Result<Reference> parse(Traversal t) {
        List<Traverser> steps = t.steps();
        String root = t.rootName();
        SourceRange rootRange = t.rootRange();
        if (root == null) {
            return error("Invalid reference", "A reference must begin with a name.", t.range());
        }
        switch (root) {
            case "count":
                return singleAttr(
                        t,
                        "count",
                        name -> name.equals("index") ? new CountAttr(name) : null,
                        "Invalid \"count\" attribute",
                        name -> "The \"count\" object does not have an attribute "
                                + "named \"" + name + "\". The only supported attribute is count.index, which is the "
                                + "index of each instance of a resource block that has the \"count\" argument set.");
            case "each":
                return singleAttr(
                        t,
                        "each",
                        name -> name.equals("key") || name.equals("value") ? new ForEachAttr(name) : null,
                        "Invalid \"each\" attribute",
                        name -> "The \"each\" object does not have an attribute named \""
                                + name + "\". The supported attributes are each.key and each.value, the current key "
                                + "and value pair of the \"for_each\" attribute set.");
            case "path":
                return singleAttr(
                        t,
                        "path",
                        name -> switch (name) {
                            case "module", "root", "cwd" -> new PathAttr(name);
                            default -> null;
                        },
                        "Invalid \"path\" attribute",
                        name -> "The \"path\" object does not have an attribute named \"" + name
                                + "\". The supported attributes are path.module, path.root and path.cwd.");
            case "terraform":
                return singleAttr(
                        t,
                        "terraform",
                        name -> switch (name) {
                            case "workspace", "applying" -> new TerraformAttr(name);
                            default -> null;
                        },
                        "Invalid \"terraform\" attribute",
                        name -> "The \"terraform\" object does not have an attribute "
                                + "named \"" + name
                                + "\". The only supported attribute is terraform.workspace, the name of "
                                + "the currently-selected workspace.");
            case "var":
                return singleAttr(t, "var", InputVariable::new, null, null);
            case "local":
                return singleAttr(t, "local", LocalValue::new, null, null);
            case "self":
                return Result.of(new Reference(Self.INSTANCE, rootRange, steps.subList(1, steps.size())));
            case "module":
                return module(t);
            case "data":
                if (steps.size() < 3
                        || !(steps.get(1) instanceof Traverser.Attr)
                        || !(steps.get(2) instanceof Traverser.Attr)) {
                    return error(
                            "Invalid reference",
                            "The \"data\" object must be followed by two attribute names: "
                                    + "the data source type and the resource name.",
                            t.range());
                }
                return resource(t, ResourceMode.DATA, 1);
            case "ephemeral":
                if (steps.size() < 3
                        || !(steps.get(1) instanceof Traverser.Attr)
                        || !(steps.get(2) instanceof Traverser.Attr)) {
                    return error(
                            "Invalid reference",
                            "The \"ephemeral\" object must be followed by two attribute names: "
                                    + "the ephemeral resource type and the resource name.",
                            t.range());
                }
                return resource(t, ResourceMode.EPHEMERAL, 1);
            default:
                if (RESERVED.contains(root)) {
                    return error(
                            "Reserved symbol name",
                            "The symbol name \"" + root + "\" is reserved for use in a "
                                    + "future Terraform version. If you are using a provider that already uses this as a "
                                    + "resource type name, add the prefix \"resource.\" to force interpretation as a "
                                    + "resource type name.",
                            rootRange);
                }
                if (root.equals("resource")) {
                    if (steps.size() < 3
                            || !(steps.get(1) instanceof Traverser.Attr)
                            || !(steps.get(2) instanceof Traverser.Attr)) {
                        return error(
                                "Invalid reference",
                                "The \"resource\" object must be followed by two "
                                        + "attribute names: the resource type and the resource name.",
                                t.range());
                    }
                    return resource(t, ResourceMode.MANAGED, 1);
                }
                if (steps.size() < 2 || !(steps.get(1) instanceof Traverser.Attr)) {
                    return error(
                            "Invalid reference",
                            "A reference to a resource type must be followed by at least "
                                    + "one attribute access, specifying the resource name.",
                            t.range());
                }
                return resource(t, ResourceMode.MANAGED, 0);
        }
    }

    private static Result<Reference> singleAttr(
            Traversal t,
            String root,
            java.util.function.Function<String, Referenceable> make,
            String badSummary,
            java.util.function.Function<String, String> badDetail) {
        List<Traverser> steps = t.steps();
        if (steps.size() < 2) {
            return error(
                    "Invalid reference",
                    "The \"" + root + "\" object cannot be accessed directly. Instead, "
                            + "access one of its attributes.",
                    t.range());
        }
        if (!(steps.get(1) instanceof Traverser.Attr a)) {
            return error(
                    "Invalid reference",
                    "The \"" + root + "\" object does not support this operation.",
                    steps.get(1).range());
        }
        Referenceable r = make.apply(a.name());
        if (r == null) {
            return error(badSummary, badDetail.apply(a.name()), SourceRange.between(t.rootRange(), a.range()));
        }
        return Result.of(
                new Reference(r, SourceRange.between(t.rootRange(), a.range()), steps.subList(2, steps.size())));
    }

    private static Result<Reference> module(Traversal t) {
        List<Traverser> steps = t.steps();
        if (steps.size() < 2 || !(steps.get(1) instanceof Traverser.Attr name)) {
            return error(
                    "Invalid reference",
                    "The \"module\" object cannot be accessed directly. Instead, access " + "one of its attributes.",
                    t.range());
        }
        ModuleCall call = new ModuleCall(name.name());
        SourceRange range = SourceRange.between(t.rootRange(), name.range());
        int i = 2;
        InstanceKey key = InstanceKey.NONE;
        boolean keyed = false;
        if (i < steps.size() && steps.get(i) instanceof Traverser.Index ix) {
            Result<InstanceKey> k = Addrs.instanceKey(ix);
            if (k.hasErrors()) {
                return Result.of(null, k.diagnostics());
            }
            key = k.value();
            keyed = true;
            range = SourceRange.between(range, ix.range());
            i++;
        }
        if (i < steps.size() && steps.get(i) instanceof Traverser.Attr out) {
            return Result.of(new Reference(
                    new ModuleCallInstanceOutput(new ModuleCallInstance(call, key), out.name()),
                    SourceRange.between(range, out.range()),
                    steps.subList(i + 1, steps.size())));
        }
        Referenceable subject = keyed ? new ModuleCallInstance(call, key) : call;
        return Result.of(new Reference(subject, range, steps.subList(i, steps.size())));
    }

    private static Result<Reference> resource(Traversal t, ResourceMode mode, int typeStep) {
        List<Traverser> steps = t.steps();
        String type = typeStep == 0 ? t.rootName() : ((Traverser.Attr) steps.get(typeStep)).name();
        Traverser.Attr name = (Traverser.Attr) steps.get(typeStep + 1);
        Resource r = new Resource(mode, type, name.name());
        SourceRange range = SourceRange.between(t.rootRange(), name.range());
        int i = typeStep + 2;
        if (i < steps.size() && steps.get(i) instanceof Traverser.Index ix) {
            Result<InstanceKey> k = Addrs.instanceKey(ix);
            if (k.hasErrors()) {
                return Result.of(null, k.diagnostics());
            }
            return Result.of(new Reference(
                    r.instance(k.value()), SourceRange.between(range, ix.range()), steps.subList(i + 1, steps.size())));
        }
        return Result.of(new Reference(r, range, steps.subList(i, steps.size())));
    }

    private static Result<Reference> error(String summary, String detail, SourceRange range) {
        return Result.of(null, Diagnostics.of(Diagnostic.error(summary, detail, range)));
    }

    /** Whether a literal index key can address an instance (a whole number or a string). */
    static boolean isKeyLiteral(Literal l) {
        return l instanceof Literal.NumberLit || l instanceof Literal.StringLit;
    }
}
