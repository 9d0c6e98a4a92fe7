package dev.strata.engine;

import dev.strata.addr.AttributePath;
import dev.strata.hcl.Attribute;
import dev.strata.hcl.Body;
import dev.strata.hcl.BodyContent;
import dev.strata.hcl.SourceRange;
import dev.strata.provider.Block;
import dev.strata.provider.NestedBlock;
import java.util.List;

/**
 * Where in the configuration an attribute path a provider names was written, so its diagnostic
 * points at the argument rather than the whole block: the argument's expression, or the nested
 * block the path goes through. Null when the path leads nowhere written (a computed or defaulted
 * attribute), and the caller falls back to the block.
 */
final class PathRanges {
    private PathRanges() {}

    static SourceRange find(Body body, Block schema, AttributePath path) {
        Body at = body;
        Block s = schema;
        SourceRange found = null;
        List<AttributePath.Step> steps = path.steps();
        for (int i = 0; i < steps.size(); i++) {
            if (!(steps.get(i) instanceof AttributePath.Attr(String name))) {
                return found;
            }
            BodyContent c = at.content(BodyDecoder.bodySchema(s)).value();
            if (c == null) {
                return found;
            }
            Attribute a = c.attributes().get(name);
            if (a != null) {
                return a.expr().range();
            }
            NestedBlock nb = s.blockTypes().get(name);
            List<dev.strata.hcl.Block> blocks =
                    c.blocks().stream().filter(b -> b.type().equals(name)).toList();
            if (nb == null || blocks.isEmpty()) {
                return found;
            }
            dev.strata.hcl.Block chosen = blocks.getFirst();
            if (i + 1 < steps.size() && !(steps.get(i + 1) instanceof AttributePath.Attr)) {
                chosen = select(blocks, steps.get(i + 1));
                if (chosen == null) {
                    return blocks.getFirst().defRange();
                }
                i++;
            }
            found = chosen.defRange();
            at = chosen.body();
            s = nb.block();
        }
        return found;
    }

    private static dev.strata.hcl.Block select(List<dev.strata.hcl.Block> blocks, AttributePath.Step key) {
        return switch (key) {
            case AttributePath.IndexString k ->
                blocks.stream()
                        .filter(b ->
                                !b.labels().isEmpty() && b.labels().getFirst().equals(k.key()))
                        .findFirst()
                        .orElse(null);
            case AttributePath.IndexNumber n -> {
                int i = n.index().intValue();
                yield i >= 0 && i < blocks.size() ? blocks.get(i) : null;
            }
            case AttributePath.Attr a -> null;
        };
    }
}
