package dev.strata.hcl.syntax;

import dev.strata.hcl.SourceRange;

/** A token: its type, its exact source text, and where it is. */
public record Token(TokenType type, String text, SourceRange range) {
    @Override
    public String toString() {
        return type + "(" + text.replace("\n", "\\n") + ")@" + range.start();
    }
}
