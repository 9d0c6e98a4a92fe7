package dev.strata.hcl;

import java.util.List;
import java.util.Optional;

/** What a body may contain: which names are attributes and which are blocks. */
public record BodySchema(List<AttributeSchema> attributes, List<BlockHeaderSchema> blocks) {
    public BodySchema {
        attributes = List.copyOf(attributes);
        blocks = List.copyOf(blocks);
    }

    public Optional<AttributeSchema> attribute(String name) {
        return attributes.stream().filter(a -> a.name().equals(name)).findFirst();
    }

    public Optional<BlockHeaderSchema> block(String type) {
        return blocks.stream().filter(b -> b.type().equals(type)).findFirst();
    }
}
