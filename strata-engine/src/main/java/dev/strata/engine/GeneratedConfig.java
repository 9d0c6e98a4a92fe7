package dev.strata.engine;

import dev.strata.lang.value.Mark;
import dev.strata.lang.value.Quote;
import dev.strata.lang.value.Value;
import dev.strata.lang.value.ValueSyntax;
import dev.strata.provider.Attribute;
import dev.strata.provider.Block;
import dev.strata.provider.NestedBlock;
import java.util.List;
import java.util.Map;

/**
 * The configuration {@code plan -generate-config-out} writes for an imported object: one resource block
 * per object with the arguments a user may set (required and optional, computed-only ones left out) and
 * the object's values, formatted as {@code strata fmt} would, under the header Terraform writes.
 */
final class GeneratedConfig {
    /** One generated resource block: its type, name, the import ID it came from and its text. */
    record Resource(String type, String name, String importId, String text) {}

    static final String HEADER = "# __generated__ by Terraform\n"
            + "# Please review these resources and move them into your main configuration files.\n";

    private GeneratedConfig() {}

    /** The resource block for an imported object of the given schema. */
    static Resource resource(String type, String name, String importId, Block schema, Value object) {
        StringBuilder b = new StringBuilder();
        b.append("# __generated__ by Terraform from ")
                .append(Quote.quote(importId))
                .append('\n');
        b.append("resource ")
                .append(Quote.quote(type))
                .append(' ')
                .append(Quote.quote(name))
                .append(" {\n");
        body(b, schema, object);
        b.append("}\n");
        return new Resource(type, name, importId, b.toString());
    }

    /** The whole file: the header and the blocks, formatted; the blocks are written in the order given. */
    static String file(List<Resource> resources) {
        StringBuilder b = new StringBuilder(HEADER);
        for (Resource r : resources) {
            b.append('\n').append(r.text());
        }
        return ValueSyntax.layOut(b.toString());
    }

    private static void body(StringBuilder b, Block schema, Value object) {
        Map<String, Value> attrs =
                object == null || object.isNull() || !object.isKnown() ? Map.of() : object.attributes();
        for (Map.Entry<String, Attribute> e : schema.attributes().entrySet()) {
            Attribute a = e.getValue();
            if (a.computedOnly() || a.writeOnly()) {
                continue;
            }
            Value v = attrs.get(e.getKey());
            b.append(e.getKey()).append(" = ");
            if (a.sensitive() || (v != null && v.hasMarkDeep(Mark.SENSITIVE))) {
                // As Terraform: the value is not written; the user fills it in.
                b.append("null # sensitive");
            } else {
                ValueSyntax.append(b, v == null ? Value.NULL : v.unmarkDeep());
            }
            b.append('\n');
        }
        for (Map.Entry<String, NestedBlock> e : schema.blockTypes().entrySet()) {
            Value v = attrs.get(e.getKey());
            if (v == null || v.isNull() || !v.isKnown()) {
                continue;
            }
            NestedBlock nb = e.getValue();
            switch (nb.nesting()) {
                case SINGLE -> nested(b, e.getKey(), null, nb.block(), v);
                case LIST, SET -> {
                    for (Value item : v.elements()) {
                        nested(b, e.getKey(), null, nb.block(), item);
                    }
                }
                case MAP -> {
                    for (Map.Entry<String, Value> item : v.attributes().entrySet()) {
                        nested(b, e.getKey(), item.getKey(), nb.block(), item.getValue());
                    }
                }
            }
        }
    }

    private static void nested(StringBuilder b, String name, String label, Block schema, Value v) {
        b.append(name);
        if (label != null) {
            b.append(' ').append(Quote.quote(label));
        }
        b.append(" {\n");
        body(b, schema, v);
        b.append("}\n");
    }
}
