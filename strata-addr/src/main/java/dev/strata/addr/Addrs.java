package dev.strata.addr;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Literal;
import dev.strata.hcl.Result;
import dev.strata.hcl.SourcePos;
import dev.strata.hcl.SourceRange;
import dev.strata.hcl.Traversal;
import dev.strata.hcl.Traverser;
import dev.strata.hcl.syntax.NativeSyntax;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Parsing of absolute addresses, from traversals (with source ranges for diagnostics) or from
 * strings such as {@code -target=module.net["eu"].aws_subnet.a[0]}. Each {@code parseX} returns a
 * {@link Result} whose value is null when there are errors.
 */
public final class Addrs {
    private Addrs() {}

    /** The name diagnostics about a command-line address give as its file. */
    public static final String COMMAND_LINE = "<command-line>";

    /** {@code module.a["x"].module.b} (the whole traversal). */
    public static Result<ModuleInstance> parseModuleInstance(Traversal t) {
        Diagnostics.Builder diags = Diagnostics.builder();
        Parsed p = moduleInstancePrefix(t.steps(), diags);
        if (diags.hasErrors()) {
            return Result.of(null, diags.build());
        }
        if (p.next < t.steps().size()) {
            return error(
                    "Invalid address",
                    "A module instance address must contain only \"module.NAME\" steps, each "
                            + "optionally followed by an instance key.",
                    t.steps().get(p.next).range());
        }
        return Result.of(p.module);
    }

    /**
     * A {@code -target}/{@code -replace} address: a module instance, a resource, or a resource
     * instance, optionally inside a module instance.
     */
    public static Result<Targetable> parseTarget(Traversal t) {
        Diagnostics.Builder diags = Diagnostics.builder();
        List<Traverser> steps = t.steps();
        Parsed p = moduleInstancePrefix(steps, diags);
        if (diags.hasErrors()) {
            return Result.of(null, diags.build());
        }
        int i = p.next;
        if (i == steps.size()) {
            return Result.of(p.module);
        }
        ResourceMode mode = ResourceMode.MANAGED;
        String first = name(steps.get(i));
        if ("data".equals(first)) {
            mode = ResourceMode.DATA;
            i++;
        } else if ("ephemeral".equals(first)) {
            // As Terraform 1.10+: ephemeral resources have addresses too, though nothing is recorded under them.
            mode = ResourceMode.EPHEMERAL;
            i++;
        }
        if (i + 1 >= steps.size() || name(steps.get(i)) == null || !(steps.get(i + 1) instanceof Traverser.Attr n)) {
            String what = switch (mode) {
                case DATA -> "A data source address must have a type and a name, such as data.aws_ami.ubuntu.";
                case EPHEMERAL ->
                    "An ephemeral resource address must have a type and a name, such as "
                            + "ephemeral.aws_ssm_parameter.db.";
                case MANAGED -> "A resource address must have a type and a name, such as aws_instance.web.";
            };
            return error(
                    "Invalid address",
                    what,
                    SourceRange.between(
                            steps.get(Math.min(i, steps.size() - 1)).range(),
                            steps.getLast().range()));
        }
        Resource r = new Resource(mode, name(steps.get(i)), n.name());
        i += 2;
        if (i == steps.size()) {
            return Result.of(new AbsResource(p.module, r));
        }
        if (!(steps.get(i) instanceof Traverser.Index ix)) {
            return error(
                    "Invalid address",
                    "Unexpected extra operators after address.",
                    steps.get(i).range());
        }
        Result<InstanceKey> k = instanceKey(ix);
        if (k.hasErrors()) {
            return Result.of(null, k.diagnostics());
        }
        if (i + 1 < steps.size()) {
            return error(
                    "Invalid address",
                    "Unexpected extra operators after address.",
                    steps.get(i + 1).range());
        }
        return Result.of(new AbsResourceInstance(p.module, r.instance(k.value())));
    }

    /** An absolute resource instance ({@code module.m[0].aws_instance.web["a"]}); a missing key is NONE. */
    public static Result<AbsResourceInstance> parseAbsResourceInstance(Traversal t) {
        Result<Targetable> r = parseTarget(t);
        return switch (r.value()) {
            case null -> Result.of(null, r.diagnostics());
            case AbsResourceInstance a -> Result.of(a, r.diagnostics());
            case AbsResource a -> Result.of(a.instance(InstanceKey.NONE), r.diagnostics());
            case ModuleInstance m ->
                error(
                        "Invalid address",
                        "A resource instance address is required here, not a " + "module address.",
                        t.range());
        };
    }

    /** An absolute resource, which must not have an instance key ({@code moved}/{@code removed}). */
    public static Result<AbsResource> parseAbsResource(Traversal t) {
        Result<Targetable> r = parseTarget(t);
        return switch (r.value()) {
            case null -> Result.of(null, r.diagnostics());
            case AbsResource a -> Result.of(a, r.diagnostics());
            case AbsResourceInstance a ->
                error("Invalid address", "A resource address must not include an instance " + "key.", t.range());
            case ModuleInstance m ->
                error("Invalid address", "A resource address is required here, not a module " + "address.", t.range());
        };
    }

    public static Result<Targetable> parseTarget(String s) {
        return fromString(s, Addrs::parseTarget);
    }

    public static Result<AbsResourceInstance> parseAbsResourceInstance(String s) {
        return fromString(s, Addrs::parseAbsResourceInstance);
    }

    public static Result<AbsResource> parseAbsResource(String s) {
        return fromString(s, Addrs::parseAbsResource);
    }

    public static Result<ModuleInstance> parseModuleInstance(String s) {
        if (s.isEmpty()) {
            return Result.of(ModuleInstance.ROOT);
        }
        return fromString(s, Addrs::parseModuleInstance);
    }

    /** A reference in a string, e.g. {@code var.x} given to a command; ranges name the command line. */
    public static Result<Reference> parseReference(String s) {
        return fromString(s, Reference::parse);
    }

    /** The traversal a string spells, with ranges in a pseudo-file named {@code <command-line>}. */
    public static Result<Traversal> parseTraversal(String s) {
        return NativeSyntax.parseTraversal(s.getBytes(StandardCharsets.UTF_8), COMMAND_LINE, SourcePos.START);
    }

    private static <T> Result<T> fromString(String s, java.util.function.Function<Traversal, Result<T>> f) {
        Result<Traversal> t = parseTraversal(s);
        if (t.hasErrors() || t.value() == null) {
            return Result.of(null, t.diagnostics());
        }
        Result<T> r = f.apply(t.value());
        return Result.of(r.value(), t.diagnostics().with(r.diagnostics()));
    }

    /** What the first error of a failed parse says is wrong, as one sentence, for messages that quote the address. */
    public static String problem(Diagnostics d) {
        for (Diagnostic x : d) {
            if (x.isError()) {
                String detail = x.detail() == null || x.detail().isEmpty() ? x.summary() : x.detail();
                return detail.endsWith(".") ? detail : detail + ".";
            }
        }
        return "it cannot be parsed.";
    }

    /** An index step's key as an instance key: a whole number ≥ 0 or a string. */
    public static Result<InstanceKey> instanceKey(Traverser.Index ix) {
        return switch (ix.key()) {
            case Literal.StringLit s -> Result.of(InstanceKey.of(s.value()));
            case Literal.NumberLit n -> {
                BigDecimal v = n.value();
                if (v.signum() < 0
                        || v.stripTrailingZeros().scale() > 0
                        || v.compareTo(BigDecimal.valueOf(Integer.MAX_VALUE)) > 0) {
                    yield error(
                            "Invalid index",
                            "An instance index must be a whole number from 0 up; " + n + " is not.",
                            ix.range());
                }
                yield Result.of(InstanceKey.of(v.intValueExact()));
            }
            case Literal.BoolLit b ->
                error("Invalid index", "An instance key must be a number or a string.", ix.range());
            case Literal.NullLit nl ->
                error("Invalid index", "An instance key must be a number or a string.", ix.range());
        };
    }

    /**
     * {@code String.join("", a).compareTo(String.join("", b))} without joining: the texts compared a UTF-16
     * unit at a time across their parts.
     */
    static int compareTexts(String[] a, String[] b) {
        int i = 0;
        int j = 0;
        int x = 0;
        int y = 0;
        while (true) {
            while (i < a.length && x == a[i].length()) {
                i++;
                x = 0;
            }
            while (j < b.length && y == b[j].length()) {
                j++;
                y = 0;
            }
            if (i == a.length || j == b.length) {
                return i == a.length ? (j == b.length ? 0 : -1) : 1;
            }
            char p = a[i].charAt(x++);
            char q = b[j].charAt(y++);
            if (p != q) {
                return p - q;
            }
        }
    }

    static int compareResources(Resource a, Resource b) {
        int c = a.mode().compareTo(b.mode());
        if (c == 0) {
            c = a.type().compareTo(b.type());
        }
        return c != 0 ? c : a.name().compareTo(b.name());
    }

    private record Parsed(ModuleInstance module, int next) {}

    private static Parsed moduleInstancePrefix(List<Traverser> steps, Diagnostics.Builder diags) {
        List<ModuleInstance.Step> path = new ArrayList<>();
        int i = 0;
        while (i < steps.size() && "module".equals(name(steps.get(i)))) {
            if (i + 1 >= steps.size() || !(steps.get(i + 1) instanceof Traverser.Attr n)) {
                diags.error(
                        "Invalid address",
                        "The prefix \"module.\" must be followed by a module name.",
                        steps.get(i).range());
                return new Parsed(ModuleInstance.ROOT, steps.size());
            }
            InstanceKey key = InstanceKey.NONE;
            i += 2;
            if (i < steps.size() && steps.get(i) instanceof Traverser.Index ix) {
                Result<InstanceKey> k = instanceKey(ix);
                diags.addAll(k.diagnostics());
                if (k.hasErrors()) {
                    return new Parsed(ModuleInstance.ROOT, steps.size());
                }
                key = k.value();
                i++;
            }
            path.add(new ModuleInstance.Step(n.name(), key));
        }
        return new Parsed(new ModuleInstance(path), i);
    }

    private static String name(Traverser t) {
        return switch (t) {
            case Traverser.Root r -> r.name();
            case Traverser.Attr a -> a.name();
            case Traverser.Index i -> null;
            case Traverser.Splat s -> null;
        };
    }

    private static <T> Result<T> error(String summary, String detail, SourceRange range) {
        return Result.of(null, Diagnostics.of(Diagnostic.error(summary, detail, range)));
    }
}
