package dev.strata.lang.types;

/** The three primitive types. */
public enum PrimitiveType implements Type {
    STRING("string"),
    NUMBER("number"),
    BOOL("bool");

    private final String keyword;

    PrimitiveType(String keyword) {
        this.keyword = keyword;
    }

    /** The type keyword, as written in type constraints. */
    public String keyword() {
        return keyword;
    }

    @Override
    public String toString() {
        return keyword;
    }
}
