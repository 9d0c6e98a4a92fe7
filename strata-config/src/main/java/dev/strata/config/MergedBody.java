package dev.strata.config;

import dev.strata.hcl.Attribute;
import dev.strata.hcl.AttributeSchema;
import dev.strata.hcl.Block;
import dev.strata.hcl.Body;
import dev.strata.hcl.BodyContent;
import dev.strata.hcl.BodySchema;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import dev.strata.hcl.SchemaMessages;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A block body from a primary file with the same block from an override file laid over it, by
 * Terraform's override rules: an argument in the override replaces the base's argument, and if the
 * override has any nested blocks of a type, they replace all the base's blocks of that type, except
 * for the nested block types named in {@code perArgument} (a resource's {@code lifecycle}), whose
 * contents are merged argument by argument in turn. Decoding happens after merging, so the rest of
 * the loader never knows an override took place.
 */
final class MergedBody implements Body {
    private final Body base;
    private final Body override;
    private final Set<String> perArgument;
    private final boolean overrideBlocks;
    private final dev.strata.hcl.SourceRange overrideDefRange;

    MergedBody(Body base, Body override) {
        this(base, override, Set.of(), true, null);
    }

    /**
     * @param perArgument    nested block types merged argument by argument instead of replaced
     * @param overrideDefRange the override block's header, or null
     * @param overrideBlocks whether the override's nested blocks replace the base's; false inside a
     *                       per-argument merged block, where nested blocks (conditions) cannot be
     *                       overridden and the loader reports them
     */
    MergedBody(
            Body base,
            Body override,
            Set<String> perArgument,
            boolean overrideBlocks,
            dev.strata.hcl.SourceRange overrideDefRange) {
        this.base = base;
        this.override = override;
        this.perArgument = Set.copyOf(perArgument);
        this.overrideDefRange = overrideDefRange;
        this.overrideBlocks = overrideBlocks;
    }

    /** The header of the override block, where Terraform reports problems the merge itself causes. */
    dev.strata.hcl.SourceRange overrideDefRange() {
        return overrideDefRange;
    }

    Body base() {
        return base;
    }

    Body override() {
        return override;
    }

    @Override
    public Result<BodyContent> content(BodySchema schema) {
        BodySchema relaxed = relaxed(schema);
        Result<BodyContent> a = base.content(relaxed);
        Result<BodyContent> b = override.content(relaxed);
        BodyContent merged = merge(a.value(), b.value());
        return Result.of(merged, a.diagnostics().with(b.diagnostics()).with(missing(schema, merged)));
    }

    @Override
    public Result<PartialContent> partialContent(BodySchema schema) {
        BodySchema relaxed = relaxed(schema);
        Result<PartialContent> a = base.partialContent(relaxed);
        Result<PartialContent> b = override.partialContent(relaxed);
        BodyContent merged = merge(a.value().content(), b.value().content());
        return Result.of(
                new PartialContent(
                        merged,
                        new MergedBody(
                                a.value().remain(), b.value().remain(), perArgument, overrideBlocks, overrideDefRange)),
                a.diagnostics().with(b.diagnostics()).with(missing(schema, merged)));
    }

    @Override
    public Result<Map<String, Attribute>> justAttributes() {
        Result<Map<String, Attribute>> a = base.justAttributes();
        Result<Map<String, Attribute>> b = override.justAttributes();
        Map<String, Attribute> m = new LinkedHashMap<>(a.value());
        m.putAll(b.value());
        return Result.of(m, a.diagnostics().with(b.diagnostics()));
    }

    @Override
    public dev.strata.hcl.SourceRange missingItemRange() {
        return base.missingItemRange();
    }

    private static BodySchema relaxed(BodySchema schema) {
        return new BodySchema(
                schema.attributes().stream()
                        .map(a -> AttributeSchema.optional(a.name()))
                        .toList(),
                schema.blocks());
    }

    private BodyContent merge(BodyContent a, BodyContent b) {
        Map<String, Attribute> attrs = new LinkedHashMap<>(a.attributes());
        attrs.putAll(b.attributes());
        if (!overrideBlocks) {
            return new BodyContent(attrs, a.blocks(), a.missingItemRange());
        }
        Set<String> replaced = new HashSet<>();
        Map<String, Block> firstOverride = new LinkedHashMap<>();
        for (Block blk : b.blocks()) {
            replaced.add(blk.type());
            firstOverride.putIfAbsent(blk.type(), blk);
        }
        List<Block> blocks = new ArrayList<>();
        Set<String> mergedTypes = new HashSet<>();
        for (Block blk : a.blocks()) {
            if (perArgument.contains(blk.type()) && replaced.contains(blk.type())) {
                // The first base block of the type absorbs the override's arguments; a second block
                // of a type that may appear once is reported by the decoder as it would be anyway.
                if (mergedTypes.add(blk.type())) {
                    Block ov = firstOverride.get(blk.type());
                    blocks.add(new Block(
                            blk.type(),
                            blk.labels(),
                            new MergedBody(blk.body(), ov.body(), Set.of(), false, ov.defRange()),
                            blk.typeRange(),
                            blk.labelRanges(),
                            blk.defRange(),
                            blk.range()));
                }
            } else if (!replaced.contains(blk.type())) {
                blocks.add(blk);
            }
        }
        for (Block blk : b.blocks()) {
            if (!mergedTypes.contains(blk.type())) {
                blocks.add(blk);
            }
        }
        return new BodyContent(attrs, blocks, a.missingItemRange());
    }

    private static Diagnostics missing(BodySchema schema, BodyContent merged) {
        Diagnostics.Builder d = Diagnostics.builder();
        for (AttributeSchema s : schema.attributes()) {
            if (s.required() && !merged.attributes().containsKey(s.name())) {
                d.add(SchemaMessages.missingArgument(s.name(), merged.missingItemRange()));
            }
        }
        return d.build();
    }
}
