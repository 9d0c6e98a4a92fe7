package dev.strata.sdk;

/** A nested block ({@code ingress}, {@code root_block_device}): arguments and blocks of its own. */
public final class Block extends Body<Block> {
    final String type;

    Block(Stack stack, String type, Site site) {
        super(stack, site);
        this.type = type;
    }

    @Override
    Block self() {
        return this;
    }

    public String type() {
        return type;
    }
}
