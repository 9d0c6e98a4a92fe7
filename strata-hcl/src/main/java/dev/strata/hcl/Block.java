package dev.strata.hcl;

import java.util.List;

/**
 * {@code type "label" ... { body }}. {@code defRange} covers the type and labels (the "header" that
 * diagnostics about the whole block point at).
 */
public record Block(
        String type,
        List<String> labels,
        Body body,
        SourceRange typeRange,
        List<SourceRange> labelRanges,
        SourceRange defRange,
        SourceRange range) {
    public Block {
        labels = List.copyOf(labels);
        labelRanges = List.copyOf(labelRanges);
    }
}
