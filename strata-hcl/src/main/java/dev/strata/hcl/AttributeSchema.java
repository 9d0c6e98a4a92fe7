package dev.strata.hcl;

public record AttributeSchema(String name, boolean required) {
    public static AttributeSchema optional(String name) {
        return new AttributeSchema(name, false);
    }

    public static AttributeSchema required(String name) {
        return new AttributeSchema(name, true);
    }
}
