package dev.strata.hcl.json;

import dev.strata.hcl.Attribute;
import dev.strata.hcl.AttributeSchema;
import dev.strata.hcl.Block;
import dev.strata.hcl.BlockHeaderSchema;
import dev.strata.hcl.Body;
import dev.strata.hcl.BodyContent;
import dev.strata.hcl.BodySchema;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.DidYouMean;
import dev.strata.hcl.Result;
import dev.strata.hcl.SchemaMessages;
import dev.strata.hcl.SourceRange;
import dev.strata.hcl.json.JsonValue.JArray;
import dev.strata.hcl.json.JsonValue.JInvalid;
import dev.strata.hcl.json.JsonValue.JNull;
import dev.strata.hcl.json.JsonValue.JObject;
import dev.strata.hcl.json.JsonValue.Property;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A body written in JSON: an object, or an array of objects whose properties are merged. Which
 * property is an attribute and which a block is known only from the schema; a block property's
 * value nests one object level per label and ends in the block's body (or an array of bodies, for
 * several blocks). A property named {@code "//"} is a comment. {@code hidden} names what an earlier
 * {@link #partialContent} decoded, so the remaining body does not report it again.
 */
public final class JsonBody implements Body {
    static final String COMMENT = "//";

    private final JsonValue value;
    private final Set<String> hidden;

    JsonBody(JsonValue value) {
        this(value, Set.of());
    }

    private JsonBody(JsonValue value, Set<String> hidden) {
        this.value = value;
        this.hidden = Set.copyOf(hidden);
    }

    /** The whole JSON value this body was read from. */
    public SourceRange range() {
        return value.range();
    }

    @Override
    public SourceRange missingItemRange() {
        // As in native syntax: an empty range at the opening brace (or bracket) of the body.
        return SourceRange.at(value.range().filename(), value.startRange().start());
    }

    @Override
    public Result<BodyContent> content(BodySchema schema) {
        Result<PartialContent> partial = partialContent(schema);
        Diagnostics.Builder diags = Diagnostics.builder().addAll(partial.diagnostics());
        JsonBody remain = (JsonBody) partial.value().remain();
        // Value-type problems were reported by partialContent; only leftovers are new here.
        for (Property p : properties(value, null, Diagnostics.builder())) {
            String name = p.name().value();
            if (!name.equals(COMMENT) && !remain.hidden.contains(name)) {
                diags.add(unsupported(schema, name, p.name().range()));
            }
        }
        return Result.of(partial.value().content(), diags.build());
    }

    private static Diagnostic unsupported(BodySchema schema, String name, SourceRange nameRange) {
        // JSON cannot show whether an unknown name was meant as an argument or a block; the nearest
        // known name decides which message fits, arguments first.
        List<String> attrNames =
                schema.attributes().stream().map(AttributeSchema::name).toList();
        List<String> blockTypes =
                schema.blocks().stream().map(BlockHeaderSchema::type).toList();
        if (DidYouMean.suggest(name, attrNames).isEmpty()
                && DidYouMean.suggest(name, blockTypes).isPresent()) {
            return SchemaMessages.unsupportedBlock(schema, name, nameRange);
        }
        return SchemaMessages.unsupportedArgument(schema, name, nameRange);
    }

    @Override
    public Result<PartialContent> partialContent(BodySchema schema) {
        Diagnostics.Builder diags = Diagnostics.builder();
        Map<String, Attribute> attrs = new LinkedHashMap<>();
        List<Block> blocks = new ArrayList<>();
        for (Property p : properties(value, null, diags)) {
            String name = p.name().value();
            if (name.equals(COMMENT) || hidden.contains(name)) {
                continue;
            }
            if (schema.attribute(name).isPresent()) {
                putAttribute(attrs, p, diags);
            } else {
                schema.block(name)
                        .ifPresent(bs ->
                                unpackBlock(p.value(), bs, p.name().range(), List.of(), List.of(), blocks, diags));
            }
        }
        for (AttributeSchema as : schema.attributes()) {
            if (as.required() && !attrs.containsKey(as.name()) && !hidden.contains(as.name())) {
                diags.add(SchemaMessages.missingArgument(as.name(), missingItemRange()));
            }
        }
        Set<String> newHidden = new HashSet<>(hidden);
        schema.attributes().forEach(a -> newHidden.add(a.name()));
        schema.blocks().forEach(b -> newHidden.add(b.type()));
        BodyContent content = new BodyContent(attrs, blocks, missingItemRange());
        return Result.of(new PartialContent(content, new JsonBody(value, newHidden)), diags.build());
    }

    /**
     * Peels one object level per remaining label off a block property's value; what is left is the
     * block's body, or an array of bodies.
     */
    private static void unpackBlock(
            JsonValue v,
            BlockHeaderSchema bs,
            SourceRange typeRange,
            List<String> labels,
            List<SourceRange> labelRanges,
            List<Block> out,
            Diagnostics.Builder diags) {
        if (labels.size() < bs.labelNames().size()) {
            String labelName = bs.labelNames().get(labels.size());
            int before = diags.size();
            List<Property> props = properties(v, labelName, diags);
            if (props.isEmpty()) {
                if (diags.size() == before && !(v instanceof JInvalid)) {
                    diags.add(SchemaMessages.checkLabels(bs, labels, labelRanges, typeRange, v.startRange()));
                }
                return;
            }
            for (Property p : props) {
                List<String> ls = new ArrayList<>(labels);
                ls.add(p.name().value());
                List<SourceRange> rs = new ArrayList<>(labelRanges);
                rs.add(p.name().range());
                unpackBlock(p.value(), bs, typeRange, ls, rs, out, diags);
            }
            return;
        }
        SourceRange header = labelRanges.isEmpty()
                ? typeRange
                : SourceRange.between(typeRange, labelRanges.get(labelRanges.size() - 1));
        switch (v) {
            case JNull n -> {}
            case JInvalid i -> {}
            case JObject o -> out.add(block(o, bs, typeRange, labels, labelRanges, header));
            case JArray a -> a.elements().forEach(e -> out.add(block(e, bs, typeRange, labels, labelRanges, header)));
            default ->
                diags.add(Diagnostic.error(
                        "Incorrect JSON value type",
                        "Either a JSON object or a JSON array of objects is required here, representing the contents "
                                + "of one or more \"" + bs.type() + "\" blocks; found a " + v.kind() + ".",
                        v.startRange()));
        }
    }

    private static Block block(
            JsonValue body,
            BlockHeaderSchema bs,
            SourceRange typeRange,
            List<String> labels,
            List<SourceRange> labelRanges,
            SourceRange header) {
        // An array element that is not an object still becomes a block: its body reports the wrong
        // type when it is decoded, with the element's own range.
        return new Block(
                bs.type(),
                labels,
                new JsonBody(body),
                typeRange,
                labelRanges,
                header,
                SourceRange.between(typeRange, body.range()));
    }

    /**
     * The properties of a body (or of one label level): an object's, or those of every object in
     * an array, in order. {@code labelName} tailors the messages for label levels.
     */
    private static List<Property> properties(JsonValue v, String labelName, Diagnostics.Builder diags) {
        return switch (v) {
            case JNull n -> List.of();
            case JInvalid i -> List.of();
            case JObject o -> o.properties();
            case JArray a -> {
                List<Property> out = new ArrayList<>();
                for (JsonValue e : a.elements()) {
                    if (e instanceof JObject o) {
                        out.addAll(o.properties());
                    } else {
                        diags.add(Diagnostic.error(
                                "Incorrect JSON value type",
                                labelName != null
                                        ? "A JSON object is required here, to specify " + labelName
                                                + " labels for this block."
                                        : "A JSON object is required here, to define arguments and child blocks.",
                                e.startRange()));
                    }
                }
                yield out;
            }
            default -> {
                diags.add(Diagnostic.error(
                        "Incorrect JSON value type",
                        labelName != null
                                ? "Either a JSON object or a JSON array of objects is required here, to specify "
                                        + labelName + " labels for this block."
                                : "Either a JSON object or a JSON array of objects is required here, to define arguments "
                                        + "and child blocks.",
                        v.startRange()));
                yield List.of();
            }
        };
    }

    @Override
    public Result<Map<String, Attribute>> justAttributes() {
        Diagnostics.Builder diags = Diagnostics.builder();
        Map<String, Attribute> out = new LinkedHashMap<>();
        List<Property> props = switch (value) {
            case JNull n -> List.of();
            case JInvalid i -> List.of();
            case JObject o -> o.properties();
            default -> {
                diags.add(Diagnostic.error(
                        "Incorrect JSON value type",
                        "A JSON object is required here, setting the arguments for this block; found a " + value.kind()
                                + ".",
                        value.startRange()));
                yield List.of();
            }
        };
        for (Property p : props) {
            String name = p.name().value();
            if (name.equals(COMMENT) || hidden.contains(name)) {
                continue;
            }
            putAttribute(out, p, diags);
        }
        return Result.of(Collections.unmodifiableMap(out), diags.build());
    }

    @Override
    public String toString() {
        return "JsonBody[" + value.kind() + " at " + value.range() + "]";
    }

    /** The property as an attribute, unless one of that name came before (then a duplicate-argument error). */
    private static void putAttribute(Map<String, Attribute> into, Property p, Diagnostics.Builder diags) {
        String name = p.name().value();
        Attribute prev = into.get(name);
        if (prev != null) {
            diags.add(SchemaMessages.duplicateArgument(
                    name, prev.nameRange(), p.name().range()));
            return;
        }
        into.put(
                name,
                new Attribute(
                        name, new JsonExpression(p.value()), p.range(), p.name().range()));
    }
}
