package dev.strata.hcl.syntax;

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
import dev.strata.hcl.SchemaMessages;
import dev.strata.hcl.SourceRange;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A native-syntax body: its attributes and blocks in source order. {@code hidden} names what an
 * earlier {@link #partialContent} call already decoded, so the remaining body does not report them
 * again.
 */
public record SyntaxBody(
        List<Attribute> attributes, List<Block> blocks, SourceRange range, SourceRange endRange, Set<String> hidden)
        implements Body {

    public SyntaxBody {
        attributes = List.copyOf(attributes);
        blocks = List.copyOf(blocks);
        hidden = Set.copyOf(hidden);
    }

    public SyntaxBody(List<Attribute> attributes, List<Block> blocks, SourceRange range, SourceRange endRange) {
        this(attributes, blocks, range, endRange, Set.of());
    }

    @Override
    public SourceRange missingItemRange() {
        // A nested body's range starts at its opening brace; a file's at its first byte.
        return new SourceRange(range.filename(), range.start(), range.start());
    }

    @Override
    public Result<BodyContent> content(BodySchema schema) {
        Result<PartialContent> partial = partialContent(schema);
        Diagnostics.Builder diags = Diagnostics.builder().addAll(partial.diagnostics());
        SyntaxBody remain = (SyntaxBody) partial.value().remain();
        for (Attribute a : remain.attributes) {
            if (!remain.hidden.contains(a.name())) {
                diags.add(SchemaMessages.unsupportedArgument(schema, a.name(), a.nameRange()));
            }
        }
        for (Block b : remain.blocks) {
            if (!remain.hidden.contains(b.type())) {
                diags.add(SchemaMessages.unsupportedBlock(schema, b.type(), b.typeRange()));
            }
        }
        return Result.of(partial.value().content(), diags.build());
    }

    @Override
    public Result<PartialContent> partialContent(BodySchema schema) {
        Diagnostics.Builder diags = Diagnostics.builder();
        Map<String, Attribute> attrs = new LinkedHashMap<>();
        Set<String> newHidden = new HashSet<>(hidden);
        for (AttributeSchema as : schema.attributes()) {
            newHidden.add(as.name());
            Attribute found = null;
            for (Attribute a : attributes) {
                if (a.name().equals(as.name()) && !hidden.contains(a.name())) {
                    found = a;
                    break;
                }
            }
            if (found != null) {
                attrs.put(as.name(), found);
            } else if (as.required()) {
                diags.add(SchemaMessages.missingArgument(as.name(), missingItemRange()));
            }
        }
        List<Block> blocksOut = new ArrayList<>();
        for (BlockHeaderSchema bs : schema.blocks()) {
            newHidden.add(bs.type());
        }
        for (Block b : blocks) {
            if (hidden.contains(b.type())) {
                continue;
            }
            BlockHeaderSchema bs = schema.block(b.type()).orElse(null);
            if (bs == null) {
                continue;
            }
            Diagnostic labelProblem =
                    SchemaMessages.checkLabels(bs, b.labels(), b.labelRanges(), b.typeRange(), openBrace(b));
            if (labelProblem != null) {
                diags.add(labelProblem);
                continue;
            }
            blocksOut.add(b);
        }
        BodyContent content = new BodyContent(attrs, blocksOut, missingItemRange());
        SyntaxBody remain = new SyntaxBody(attributes, blocks, range, endRange, newHidden);
        return Result.of(new PartialContent(content, remain), diags.build());
    }

    private static SourceRange openBrace(Block b) {
        return b.body() instanceof SyntaxBody sb
                ? sb.missingItemRange()
                : b.defRange().endPoint();
    }

    @Override
    public Result<Map<String, Attribute>> justAttributes() {
        Diagnostics.Builder diags = Diagnostics.builder();
        Map<String, Attribute> out = new LinkedHashMap<>();
        for (Attribute a : attributes) {
            if (!hidden.contains(a.name())) {
                out.put(a.name(), a);
            }
        }
        for (Block b : blocks) {
            if (!hidden.contains(b.type())) {
                diags.add(SchemaMessages.blockNotAllowed(b.type(), b.typeRange()));
            }
        }
        return Result.of(java.util.Collections.unmodifiableMap(out), diags.build());
    }
}
