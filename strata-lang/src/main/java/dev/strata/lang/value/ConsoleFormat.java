package dev.strata.lang.value;

import dev.strata.lang.types.DynamicType;
import dev.strata.lang.types.ListType;
import dev.strata.lang.types.MapType;
import dev.strata.lang.types.ObjectType;
import dev.strata.lang.types.PrimitiveType;
import dev.strata.lang.types.SetType;
import dev.strata.lang.types.TupleType;
import dev.strata.lang.types.Type;
import java.util.List;
import java.util.Map;

/**
 * Renders values exactly as {@code terraform console} prints them: quoted strings, heredocs for
 * multi-line strings, {@code tolist([...])}/{@code toset([...])}/{@code tomap({...})} wrappers,
 * typed nulls, {@code (sensitive value)} and {@code (known after apply)}.
 */
public final class ConsoleFormat {
    private ConsoleFormat() {}

    public static String render(Value v) {
        StringBuilder b = new StringBuilder();
        value(v, 0, b);
        return b.toString();
    }

    private static void value(Value v, int indent, StringBuilder b) {
        if (!v.isKnown()) {
            b.append("(known after apply)");
            return;
        }
        if (v.hasMark(Mark.SENSITIVE)) {
            b.append("(sensitive value)");
            return;
        }
        if (v.hasMark(Mark.EPHEMERAL)) {
            b.append("(ephemeral value)");
            return;
        }
        Type t = v.type();
        if (v.isNull()) {
            b.append(
                    switch (t) {
                        case DynamicType d -> "null";
                        case PrimitiveType p -> "to" + p.keyword() + "(null)";
                        case ListType l -> "tolist(null) /* of " + l.elem().friendlyName() + " */";
                        case SetType s -> "toset(null) /* of " + s.elem().friendlyName() + " */";
                        case MapType m -> "tomap(null) /* of " + m.elem().friendlyName() + " */";
                        case ObjectType o -> "null /* object */";
                        case TupleType u -> "null /* tuple */";
                    });
            return;
        }
        switch (t) {
            case PrimitiveType p -> {
                switch (p) {
                    case STRING -> string(v.asString(), indent, b);
                    case NUMBER -> b.append(v.numberText());
                    case BOOL -> b.append(v.asBool());
                }
            }
            case ListType l -> seq("tolist(", ")", v.elements(), indent, b);
            case SetType s -> seq("toset(", ")", v.elements(), indent, b);
            case TupleType u -> seq("", "", v.elements(), indent, b);
            case MapType m -> mapping("tomap(", ")", v.attributes(), indent, b);
            case ObjectType o -> mapping("", "", v.attributes(), indent, b);
            case DynamicType d -> b.append("?");
        }
    }

    private static void seq(String open, String close, List<Value> es, int indent, StringBuilder b) {
        if (es.isEmpty()) {
            b.append(open).append("[]").append(close);
            return;
        }
        b.append(open).append("[\n");
        for (Value e : es) {
            b.append("  ".repeat(indent + 1));
            value(e, indent + 1, b);
            b.append(",\n");
        }
        b.append("  ".repeat(indent)).append(']').append(close);
    }

    private static void mapping(String open, String close, Map<String, Value> m, int indent, StringBuilder b) {
        if (m.isEmpty()) {
            b.append(open).append("{}").append(close);
            return;
        }
        b.append(open).append("{\n");
        for (Map.Entry<String, Value> e : m.entrySet()) {
            b.append("  ".repeat(indent + 1)).append(Quote.quote(e.getKey())).append(" = ");
            value(e.getValue(), indent + 1, b);
            b.append('\n');
        }
        b.append("  ".repeat(indent)).append('}').append(close);
    }

    private static void string(String s, int indent, StringBuilder b) {
        if (!s.contains("\n")) {
            b.append(Quote.quote(s));
            return;
        }
        String[] lines = s.split("\n", -1);
        String delim = "EOT";
        boolean clash = true;
        while (clash) {
            clash = false;
            for (String l : lines) {
                if (l.trim().equals(delim)) {
                    delim += "_";
                    clash = true;
                    break;
                }
            }
        }
        String pad = "  ".repeat(indent);
        b.append(indent == 0 ? "<<" : "<<-").append(delim).append('\n');
        for (String l : lines) {
            b.append(pad).append(l).append('\n');
        }
        b.append(pad).append(delim);
    }
}
