package dev.strata.hcl;

import java.util.Map;

/**
 * The syntax-free view of a body: which names are attributes and which are blocks is known only to
 * the caller, so a body is decoded against a {@link BodySchema}. Native and JSON syntax both
 * implement it.
 */
public interface Body {
    /** Decodes the body; anything not in the schema is an error. */
    Result<BodyContent> content(BodySchema schema);

    /** Decodes what the schema names and returns the rest as a body for a later decoder. */
    Result<PartialContent> partialContent(BodySchema schema);

    /** Decodes the body as attributes only (as in {@code locals}); blocks are errors. */
    Result<Map<String, Attribute>> justAttributes();

    /** Where a missing required item would be reported: usually the body's opening brace. */
    SourceRange missingItemRange();

    /** The part of a body that {@link #partialContent} decoded, and the rest. */
    record PartialContent(BodyContent content, Body remain) {}
}
