package dev.strata.cli.view;

import dev.strata.addr.AbsResourceInstance;
import dev.strata.addr.AttributePath;
import dev.strata.addr.ResourceMode;
import dev.strata.hcl.Diagnostics;
import dev.strata.state.JsonValue;
import dev.strata.state.ResourceInstanceObject;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Output of the {@code state}, {@code workspace} and {@code force-unlock} commands, worded as
 * Terraform words it so that scripts written for Terraform keep working.
 */
public final class StateView {
    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_-]*");
    private final View view;
    private final FileSources sources;

    public StateView(Terminal context) {
        this.view = new View(context);
        this.sources = new FileSources(context.workingDir());
    }

    /** Plain lines on stdout. */
    public void lines(List<String> lines) {
        for (String l : lines) {
            view.out().println(l);
        }
        view.out().flush();
    }

    public void line(String text) {
        view.out().println(text);
        view.out().flush();
    }

    /** A success message, green when colour is on, as Terraform's workspace messages are. */
    public void success(String text) {
        view.out().println(view.style(View.Style.GREEN, text));
        view.out().flush();
    }

    public void warningText(String text) {
        view.out().println(view.style(View.Style.YELLOW, text));
        view.out().flush();
    }

    /** A plain error message on stderr, for the messages Terraform prints without the diagnostic frame. */
    public void errorText(String text) {
        view.err().println(view.style(View.Style.RED, text));
        view.err().flush();
    }

    /** Bytes exactly as given (state pull). */
    public void raw(byte[] bytes) {
        view.out().write(bytes, 0, bytes.length);
        view.out().println();
        view.out().flush();
    }

    public void diagnostics(List<CliDiagnostic> ds) {
        view.diagnostics(ds);
    }

    /**
     * State and configuration diagnostics; those with a place in a file (a state file that does not
     * parse, a backend setting) show the source lines, like every other diagnostic.
     */
    public void diagnostics(Diagnostics ds) {
        view.diagnostics(ds, sources);
    }

    /** Asks {@code question}; whether the answer is {@code yes}. */
    public boolean confirm(String question) {
        return view.confirm(question);
    }

    /**
     * {@code state show}: the object's attributes as a resource block. Without provider schemas (they
     * arrive with the engine) every attribute is shown as an attribute, never as a nested block, and a
     * dynamically typed attribute ({@code {"value": ..., "type": ...}}) shows its value.
     */
    public void showInstance(AbsResourceInstance addr, ResourceInstanceObject obj) {
        StringBuilder sb = new StringBuilder();
        sb.append("# ").append(addr).append(':');
        if (obj.isDeposed()) {
            sb.append(" (deposed object ").append(obj.deposed()).append(')');
        } else if (obj.status() == dev.strata.state.ObjectStatus.TAINTED) {
            sb.append(" (tainted)");
        }
        sb.append('\n');
        sb.append(addr.resource().resource().mode() == ResourceMode.DATA ? "data" : "resource")
                .append(" \"")
                .append(addr.resource().resource().type())
                .append("\" \"")
                .append(addr.resource().resource().name())
                .append("\" {\n");
        List<List<String>> sensitive = new ArrayList<>();
        if (obj.sensitiveAttributes() != null) {
            for (AttributePath p : obj.sensitiveAttributes()) {
                sensitive.add(pathKey(p));
            }
        }
        JsonValue attrs = obj.attributes();
        if (attrs instanceof JsonValue.ObjectValue o) {
            body(o, new ArrayList<>(), sensitive, 1, sb);
        } else if (obj.attributesFlat() != null) {
            obj.attributesFlat()
                    .forEach((k, v) -> sb.append("    ")
                            .append(k)
                            .append(" = ")
                            .append(quote(v))
                            .append('\n'));
        }
        sb.append("}");
        line(sb.toString());
    }

    private static List<String> pathKey(AttributePath p) {
        List<String> key = new ArrayList<>();
        for (AttributePath.Step s : p.steps()) {
            switch (s) {
                case AttributePath.Attr g -> key.add(g.name());
                case AttributePath.IndexString k -> key.add(k.key());
                case AttributePath.IndexNumber n -> key.add(n.index().toPlainString());
            }
        }
        return key;
    }

    private static void body(
            JsonValue.ObjectValue o, List<String> path, List<List<String>> sensitive, int depth, StringBuilder sb) {
        List<String> keys = o.members().keySet().stream()
                .filter(k -> !(o.get(k) instanceof JsonValue.NullValue))
                .sorted()
                .toList();
        int width = 0;
        for (String k : keys) {
            width = Math.max(width, name(k).length());
        }
        for (String k : keys) {
            path.add(k);
            indent(sb, depth);
            String n = name(k);
            sb.append(n).append(" ".repeat(width - n.length())).append(" = ");
            value(o.get(k), path, sensitive, depth, sb);
            sb.append('\n');
            path.remove(path.size() - 1);
        }
    }

    private static void value(
            JsonValue v, List<String> path, List<List<String>> sensitive, int depth, StringBuilder sb) {
        if (sensitive.contains(path)) {
            sb.append("(sensitive value)");
            return;
        }
        switch (v) {
            case JsonValue.NullValue n -> sb.append("null");
            case JsonValue.BoolValue b -> sb.append(b.value());
            case JsonValue.NumberValue n -> sb.append(n.text());
            case JsonValue.StringValue s -> sb.append(quote(s.value()));
            case JsonValue.ArrayValue a -> {
                if (a.items().isEmpty()) {
                    sb.append("[]");
                    return;
                }
                sb.append("[\n");
                for (int i = 0; i < a.items().size(); i++) {
                    path.add(Integer.toString(i));
                    indent(sb, depth + 1);
                    value(a.items().get(i), path, sensitive, depth + 1, sb);
                    sb.append(",\n");
                    path.remove(path.size() - 1);
                }
                indent(sb, depth);
                sb.append(']');
            }
            case JsonValue.ObjectValue o -> {
                if (isDynamic(o)) {
                    value(o.get("value"), path, sensitive, depth, sb);
                    return;
                }
                if (o.isEmpty()) {
                    sb.append("{}");
                    return;
                }
                sb.append("{\n");
                body(o, path, sensitive, depth + 1, sb);
                indent(sb, depth);
                sb.append('}');
            }
        }
    }

    /** cty's JSON for a value of dynamic type: exactly a value and a type (a primitive name or a [kind, ...] array). */
    private static boolean isDynamic(JsonValue.ObjectValue o) {
        if (o.members().size() != 2 || o.get("value") == null) {
            return false;
        }
        JsonValue t = o.get("type");
        return t instanceof JsonValue.StringValue s
                        && List.of("string", "number", "bool", "dynamic").contains(s.value())
                || t instanceof JsonValue.ArrayValue a
                        && !a.items().isEmpty()
                        && a.items().get(0) instanceof JsonValue.StringValue k
                        && List.of("list", "set", "map", "object", "tuple").contains(k.value());
    }

    private static String name(String k) {
        return IDENTIFIER.matcher(k).matches() ? k : quote(k);
    }

    private static void indent(StringBuilder sb, int depth) {
        sb.append("    ".repeat(depth));
    }

    /** Terraform renders strings in plans and state as Go's {@code strconv.Quote} does ({@code \x01}, no {@code $${}). */
    static String quote(String s) {
        return dev.strata.lang.value.Quote.quote(s);
    }
}
