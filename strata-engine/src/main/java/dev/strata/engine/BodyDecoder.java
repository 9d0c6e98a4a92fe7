package dev.strata.engine;

import dev.strata.hcl.Attribute;
import dev.strata.hcl.AttributeSchema;
import dev.strata.hcl.Block;
import dev.strata.hcl.BlockHeaderSchema;
import dev.strata.hcl.Body;
import dev.strata.hcl.BodyContent;
import dev.strata.hcl.BodySchema;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import dev.strata.hcl.SourceRange;
import dev.strata.hcl.Traversal;
import dev.strata.lang.eval.Evaluator;
import dev.strata.lang.eval.Scope;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.ConversionResult;
import dev.strata.lang.value.Convert;
import dev.strata.lang.value.Value;
import dev.strata.provider.NestedBlock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Decodes a body against a provider schema block into an object of the block's implied type, as
 * Terraform's hcldec does: each attribute's expression evaluated and converted to the declared
 * type, missing ones null, nested blocks gathered by nesting mode, {@code dynamic} blocks expanded.
 * Problems are diagnostics with the range of the offending expression; the value stays usable.
 */
final class BodyDecoder {
    private BodyDecoder() {}

    static Result<Value> decode(Body body, dev.strata.provider.Block schema, Scope scope) {
        return decode(body, schema, scope, null);
    }

    /**
     * As {@link #decode(Body, dev.strata.provider.Block, Scope)}, with what does not depend on the scope
     * (which arguments are written as blocks, the body's content against the schema) taken from
     * {@code shapes} when not null: the instances of one resource block share it.
     */
    static Result<Value> decode(Body body, dev.strata.provider.Block schema, Scope scope, Shapes shapes) {
        Diagnostics.Builder diags = Diagnostics.builder();
        Value v = decode(body, schema, scope, diags, shapes);
        return Result.of(v, diags.build());
    }

    /** A body's layout against a schema block: what decoding it finds before evaluating any expression. */
    record Shape(List<String> asBlocks, Result<BodyContent> content) {
        static Shape of(Body body, dev.strata.provider.Block schema) {
            List<String> asBlocks = attributesWrittenAsBlocks(body, schema);
            return new Shape(asBlocks, asBlocks.isEmpty() ? body.content(bodySchema(schema)) : null);
        }
    }

    /**
     * The shapes of the bodies a walk decodes, by body and schema block (both immutable and shared by
     * every instance of a block, so compared by identity). At most {@link #LIMIT} are kept, should a
     * caller hand in schema blocks made afresh each time.
     */
    static final class Shapes {
        static final int LIMIT = 4096;
        private final java.util.concurrent.ConcurrentHashMap<Key, Shape> byBody =
                new java.util.concurrent.ConcurrentHashMap<>();
        private final java.util.concurrent.atomic.AtomicInteger computed =
                new java.util.concurrent.atomic.AtomicInteger();

        Shape of(Body body, dev.strata.provider.Block schema) {
            Key k = new Key(body, schema);
            Shape s = byBody.get(k);
            if (s != null) {
                return s;
            }
            computed.incrementAndGet();
            s = Shape.of(body, schema);
            if (byBody.size() < LIMIT) {
                Shape raced = byBody.putIfAbsent(k, s);
                return raced == null ? s : raced;
            }
            return s;
        }

        /** How many shapes were worked out rather than reused (for tests). */
        int computed() {
            return computed.get();
        }
    }

    private record Key(Body body, dev.strata.provider.Block schema) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && k.body == body && k.schema == schema;
        }

        @Override
        public int hashCode() {
            return 31 * System.identityHashCode(body) + System.identityHashCode(schema);
        }
    }

    static BodySchema bodySchema(dev.strata.provider.Block schema) {
        List<AttributeSchema> attrs = new ArrayList<>();
        schema.attributes().forEach((name, a) -> {
            if (!a.computedOnly()) {
                attrs.add(new AttributeSchema(name, a.required()));
            }
        });
        List<BlockHeaderSchema> blocks = new ArrayList<>(schema.blockHeaders());
        blocks.add(BlockHeaderSchema.of("dynamic", "type"));
        return new BodySchema(attrs, blocks);
    }

    private static Value decode(
            Body body, dev.strata.provider.Block schema, Scope scope, Diagnostics.Builder diags, Shapes shapes) {
        Shape shape = shapes == null ? Shape.of(body, schema) : shapes.of(body, schema);
        if (!shape.asBlocks().isEmpty()) {
            return decodeAttributesAsBlocks(body, schema, scope, diags, shape.asBlocks());
        }
        Result<BodyContent> content = shape.content();
        diags.addAll(content.diagnostics());
        BodyContent c = content.value();
        Map<String, Value> out = new TreeMap<>();
        schema.attributes().forEach((name, a) -> {
            Attribute attr = c == null ? null : c.attributes().get(name);
            if (attr == null) {
                out.put(name, Value.nullValue(a.type()));
                return;
            }
            Result<Value> r = new Evaluator(scope).evaluate(attr.expr());
            diags.addAll(r.diagnostics());
            out.put(name, convert(r.value(), a.type(), attr.expr().range(), "attribute \"" + name + "\"", diags));
        });
        Map<String, List<Value>> items = new TreeMap<>();
        Map<String, List<String>> keys = new TreeMap<>();
        if (c != null) {
            for (Block b : c.blocks()) {
                if (b.type().equals("dynamic")) {
                    dynamic(b, schema, scope, items, keys, diags);
                    continue;
                }
                NestedBlock nb = schema.blockTypes().get(b.type());
                items.computeIfAbsent(b.type(), k -> new ArrayList<>())
                        .add(decode(b.body(), nb.block(), scope, diags, shapes));
                keys.computeIfAbsent(b.type(), k -> new ArrayList<>())
                        .add(b.labels().isEmpty() ? null : b.labels().getFirst());
            }
        }
        schema.blockTypes()
                .forEach((name, nb) -> out.put(
                        name,
                        collect(
                                nb,
                                items.getOrDefault(name, List.of()),
                                keys.getOrDefault(name, List.of()),
                                c == null ? null : c.missingItemRange(),
                                name,
                                diags)));
        return Value.object(out);
    }

    /**
     * Terraform's "attributes as blocks" (its blocktoattr): an argument whose type is a list or set of
     * objects, such as the legacy SDK's {@code ingress} of {@code aws_security_group}, may be written as
     * nested blocks ({@code ingress { ... }}, also {@code dynamic "ingress"}) instead of as an
     * attribute. These are the names of such arguments that this body writes as blocks, or that it
     * does not write at all but might through blocks (an absent one stays null). JSON bodies write
     * them as properties, which the first lookup finds as attributes.
     */
    private static List<String> attributesWrittenAsBlocks(Body body, dev.strata.provider.Block schema) {
        List<AttributeSchema> candidates = new ArrayList<>();
        schema.attributes().forEach((name, a) -> {
            if (!a.computedOnly() && a.blockElementType() != null) {
                candidates.add(AttributeSchema.optional(name));
            }
        });
        if (candidates.isEmpty()) {
            return List.of();
        }
        Result<Body.PartialContent> p = body.partialContent(new BodySchema(candidates, List.of()));
        List<String> out = new ArrayList<>();
        for (AttributeSchema c : candidates) {
            if (p.value() == null || !p.value().content().attributes().containsKey(c.name())) {
                out.add(c.name());
            }
        }
        return out;
    }

    /** An object type as a block of optional arguments (its own list/set-of-object arguments may again be blocks). */
    private static dev.strata.provider.Block blockOf(dev.strata.lang.types.ObjectType o) {
        dev.strata.provider.Block.Builder b = dev.strata.provider.Block.builder();
        o.attrs().forEach((name, t) -> b.attribute(name, dev.strata.provider.Attribute.optional(t)));
        return b.build();
    }

    private static Value decodeAttributesAsBlocks(
            Body body,
            dev.strata.provider.Block schema,
            Scope scope,
            Diagnostics.Builder diags,
            List<String> asBlocks) {
        dev.strata.provider.Block.Builder b = dev.strata.provider.Block.builder();
        schema.attributes().forEach((name, a) -> {
            if (!asBlocks.contains(name)) {
                b.attribute(name, a);
            }
        });
        schema.blockTypes().forEach(b::block);
        for (String name : asBlocks) {
            Type t = schema.attributes().get(name).type();
            b.block(
                    name,
                    NestedBlock.of(
                            t instanceof dev.strata.lang.types.SetType
                                    ? dev.strata.provider.NestingMode.SET
                                    : dev.strata.provider.NestingMode.LIST,
                            blockOf(schema.attributes().get(name).blockElementType())));
        }
        // The block made here is new each time: nothing to share.
        Value decoded = decode(body, b.build(), scope, diags, null);
        Map<String, Value> out = new TreeMap<>(decoded.attributes());
        for (String name : asBlocks) {
            Type t = schema.attributes().get(name).type();
            Value items = out.get(name);
            // No blocks: the argument is not set at all (null), as in Terraform, not an empty list.
            Value v = items.isKnown() && !items.isNull() && items.length() == 0
                    ? Value.nullValue(t)
                    : convert(items, t, body.missingItemRange(), "attribute \"" + name + "\"", diags);
            out.put(name, v);
        }
        return Value.object(out);
    }

    private static void dynamic(
            Block b,
            dev.strata.provider.Block schema,
            Scope scope,
            Map<String, List<Value>> items,
            Map<String, List<String>> keys,
            Diagnostics.Builder diags) {
        String type = b.labels().getFirst();
        NestedBlock nb = schema.blockTypes().get(type);
        if (nb == null) {
            diags.add(Diagnostic.error(
                    "Unsupported block type",
                    "Blocks of type \"" + type + "\" are not expected " + "here.",
                    b.labelRanges().getFirst()));
            return;
        }
        Result<BodyContent> dc = b.body()
                .content(new BodySchema(
                        List.of(
                                AttributeSchema.required("for_each"),
                                AttributeSchema.optional("iterator"),
                                AttributeSchema.optional("labels")),
                        List.of(BlockHeaderSchema.of("content"))));
        diags.addAll(dc.diagnostics());
        if (dc.value() == null || dc.hasErrors()) {
            return;
        }
        BodyContent d = dc.value();
        List<Block> contents = d.blocks();
        if (contents.size() != 1) {
            diags.add(Diagnostic.error(
                    contents.isEmpty() ? "Missing content block" : "Duplicate content block",
                    "A dynamic block must have exactly one nested \"content\" block.",
                    b.typeRange()));
            return;
        }
        String iterator = type;
        Attribute it = d.attributes().get("iterator");
        if (it != null) {
            Result<Optional<Traversal>> t = it.expr().asTraversal();
            if (t.value() == null
                    || t.value().isEmpty()
                    || t.value().get().steps().size() != 1) {
                diags.add(Diagnostic.error(
                        "Invalid dynamic iterator name",
                        "The iterator must be a single " + "identifier, such as iterator = rule.",
                        it.expr().range()));
                return;
            }
            iterator = t.value().get().rootName();
        }
        Attribute fe = d.attributes().get("for_each");
        Result<Value> coll = new Evaluator(scope).evaluate(fe.expr());
        diags.addAll(coll.diagnostics());
        Value cv = coll.value();
        if (!cv.isKnown()) {
            items.computeIfAbsent(type, k -> new ArrayList<>()).add(UNKNOWN_MARKER);
            keys.computeIfAbsent(type, k -> new ArrayList<>()).add(null);
            return;
        }
        if (cv.isNull() || !cv.isIterable()) {
            diags.add(Diagnostic.error(
                    "Invalid dynamic for_each value",
                    "Cannot use a " + (cv.isNull() ? "null value" : cv.type().toString())
                            + " in for_each. An iterable collection is required.",
                    fe.expr().range()));
            return;
        }
        List<Map.Entry<Value, Value>> entries = new ArrayList<>();
        Value plain = cv.unmark();
        if (plain.type() instanceof dev.strata.lang.types.ObjectType
                || plain.type() instanceof dev.strata.lang.types.MapType) {
            plain.attributes().forEach((k, e) -> entries.add(Map.entry(Value.string(k), e.withMarks(cv.marks()))));
        } else if (plain.type() instanceof dev.strata.lang.types.SetType) {
            plain.elements().forEach(e -> entries.add(Map.entry(e, e.withMarks(cv.marks()))));
        } else {
            List<Value> els = plain.elements();
            for (int i = 0; i < els.size(); i++) {
                entries.add(Map.entry(Value.number(i), els.get(i).withMarks(cv.marks())));
            }
        }
        Attribute labels = d.attributes().get("labels");
        for (Map.Entry<Value, Value> e : entries) {
            Scope inner =
                    Scope.binding(scope, Map.of(iterator, Value.objectOf("key", e.getKey(), "value", e.getValue())));
            String key = null;
            if (labels != null) {
                Result<Value> lv = new Evaluator(inner).evaluate(labels.expr());
                diags.addAll(lv.diagnostics());
                if (lv.value().isKnownAndNotNull() && lv.value().length() > 0) {
                    Value first = lv.value().elements().getFirst();
                    key = first.isKnownAndNotNull() ? first.unmark().asString() : null;
                }
            }
            items.computeIfAbsent(type, k -> new ArrayList<>())
                    .add(decode(contents.getFirst().body(), nb.block(), inner, diags, null));
            keys.computeIfAbsent(type, k -> new ArrayList<>()).add(key);
        }
    }

    /** Stands for the blocks of a dynamic block whose for_each is not known yet. */
    private static final Value UNKNOWN_MARKER = Value.unknown(Type.DYNAMIC);

    private static Value collect(
            NestedBlock nb,
            List<Value> items,
            List<String> keys,
            SourceRange missing,
            String name,
            Diagnostics.Builder diags) {
        Type elem = nb.block().impliedType();
        boolean unknown = items.stream().anyMatch(v -> v == UNKNOWN_MARKER);
        return switch (nb.nesting()) {
            case SINGLE -> {
                if (unknown) {
                    yield Value.unknown(elem);
                }
                if (items.size() > 1) {
                    diags.add(Diagnostic.error(
                            "Too many " + name + " blocks",
                            "No more than 1 \"" + name + "\" block is allowed.",
                            missing));
                }
                yield items.isEmpty() ? Value.nullValue(elem) : items.getFirst();
            }
            case LIST, SET -> {
                if (unknown) {
                    yield Value.unknown(
                            nb.nesting() == dev.strata.provider.NestingMode.LIST ? Type.list(elem) : Type.set(elem));
                }
                if (nb.minItems() > 0 && items.size() < nb.minItems()) {
                    diags.add(Diagnostic.error(
                            "Insufficient " + name + " blocks",
                            "At least " + nb.minItems() + " \"" + name + "\" blocks are required.",
                            missing));
                }
                if (nb.maxItems() > 0 && items.size() > nb.maxItems()) {
                    diags.add(Diagnostic.error(
                            "Too many " + name + " blocks",
                            "No more than " + nb.maxItems() + " \"" + name + "\" blocks are allowed.",
                            missing));
                }
                yield nb.nesting() == dev.strata.provider.NestingMode.LIST
                        ? Value.list(elem, items)
                        : Value.set(elem, items);
            }
            case MAP -> {
                if (unknown) {
                    yield Value.unknown(Type.map(elem));
                }
                Map<String, Value> m = new TreeMap<>();
                for (int i = 0; i < items.size(); i++) {
                    m.put(keys.get(i) == null ? "" : keys.get(i), items.get(i));
                }
                yield Value.map(elem, m);
            }
        };
    }

    private static Value convert(Value v, Type type, SourceRange range, String what, Diagnostics.Builder diags) {
        ConversionResult r = Convert.convert(v, type);
        return switch (r) {
            case ConversionResult.Ok ok -> ok.value();
            case ConversionResult.Failed f -> {
                diags.add(Diagnostic.error(
                        "Incorrect attribute value type",
                        "Inappropriate value for " + what + ": " + f.message() + ".",
                        range));
                yield Value.unknown(type);
            }
        };
    }
}
