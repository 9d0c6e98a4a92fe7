package dev.strata.hcl;

import java.util.List;

/**
 * The diagnostics of decoding a body against a schema, shared by both syntaxes so a mistake reads the
 * same in {@code .tf} and {@code .tf.json}.
 */
public final class SchemaMessages {
    private SchemaMessages() {}

    public static Diagnostic unsupportedArgument(BodySchema schema, String name, SourceRange nameRange) {
        String detail = "An argument named \"" + name + "\" is not expected here.";
        if (schema.block(name).isPresent()) {
            detail += " Did you mean to define a block of type \"" + name + "\"?";
        } else {
            detail += DidYouMean.sentence(
                    name,
                    schema.attributes().stream().map(AttributeSchema::name).toList());
        }
        return Diagnostic.error("Unsupported argument", detail, nameRange);
    }

    public static Diagnostic unsupportedBlock(BodySchema schema, String type, SourceRange typeRange) {
        String detail = "Blocks of type \"" + type + "\" are not expected here.";
        if (schema.attribute(type).isPresent()) {
            detail += " Did you mean to define argument \"" + type
                    + "\"? If so, use the equals sign to assign it a value.";
        } else {
            detail += DidYouMean.sentence(
                    type, schema.blocks().stream().map(BlockHeaderSchema::type).toList());
        }
        return Diagnostic.error("Unsupported block type", detail, typeRange);
    }

    public static Diagnostic missingArgument(String name, SourceRange missingItemRange) {
        return Diagnostic.error(
                "Missing required argument",
                "The argument \"" + name + "\" is required, but no definition was found.",
                missingItemRange);
    }

    public static Diagnostic blockNotAllowed(String type, SourceRange typeRange) {
        return Diagnostic.error("Unexpected \"" + type + "\" block", "Blocks are not allowed here.", typeRange);
    }

    public static Diagnostic duplicateArgument(String name, SourceRange first, SourceRange again) {
        return Diagnostic.error(
                "Attribute redefined",
                "The argument \"" + name + "\" was already set at " + first.filename() + ":"
                        + first.start().line()
                        + "," + first.start().column() + "-" + first.end().column()
                        + ". Each argument may be set only once.",
                again);
    }

    /** Checks a block's labels against its schema; returns null when they fit. */
    public static Diagnostic checkLabels(
            BlockHeaderSchema schema,
            List<String> labels,
            List<SourceRange> labelRanges,
            SourceRange typeRange,
            SourceRange openBraceRange) {
        List<String> names = schema.labelNames();
        SourceRange context = SourceRange.between(typeRange, openBraceRange);
        if (labels.size() > names.size()) {
            String detail = names.isEmpty()
                    ? "No labels are expected for " + schema.type() + " blocks."
                    : "Only " + names.size() + " labels (" + String.join(", ", names) + ") are expected for "
                            + schema.type() + " blocks.";
            return Diagnostic.error(
                    "Extraneous label for " + schema.type(), detail, labelRanges.get(names.size()), context);
        }
        if (labels.size() < names.size()) {
            return Diagnostic.error(
                    "Missing " + names.get(labels.size()) + " for " + schema.type(),
                    "All " + schema.type() + " blocks must have " + names.size() + " labels ("
                            + String.join(", ", names) + ").",
                    openBraceRange,
                    context);
        }
        return null;
    }
}
