package dev.strata.engine;

import dev.strata.engine.graph.DagWalker;
import dev.strata.hcl.Diagnostic;

/**
 * Diagnostics for what the engine did not expect: anything thrown while working on an object
 * (including stack overflow and out of memory) becomes an error naming the object and the
 * operation, so that nothing fails silently and nothing hangs. No class names, no stack traces.
 */
final class InternalErrors {
    private InternalErrors() {}

    private enum Kind {
        STACK,
        MEMORY,
        OTHER
    }

    /** {@code operation} is a present participle: "planning", "applying", "destroying". */
    static Diagnostic of(String operation, String object, Throwable t) {
        Kind kind = switch (t) {
            case StackOverflowError e -> Kind.STACK;
            case OutOfMemoryError e -> Kind.MEMORY;
            default -> Kind.OTHER;
        };
        return of(operation, object, DagWalker.describe(t), kind);
    }

    /** For a failure known only by its reason (a failed outcome that reported nothing); see {@link DagWalker#describe}. */
    static Diagnostic of(String operation, String object, String reason) {
        Kind kind = switch (reason) {
            case "stack overflow" -> Kind.STACK;
            case "out of memory" -> Kind.MEMORY;
            default -> Kind.OTHER;
        };
        return of(operation, object, reason, kind);
    }

    private static Diagnostic of(String operation, String object, String reason, Kind kind) {
        String what = "Internal error while " + operation + " " + object + ": " + reason + ".";
        String after = " Objects that depend on " + object + " were not started; other objects were not affected.";
        return switch (kind) {
            case STACK ->
                Diagnostic.error(
                        "Stack overflow",
                        what + " A value or expression used by " + object
                                + " is probably nested too deeply; simplify it." + after,
                        null);
            case MEMORY ->
                Diagnostic.error(
                        "Out of memory",
                        what + " Strata stopped starting new operations"
                                + (operation.equals("applying") || operation.equals("destroying")
                                        ? "; operations already " + "running were finished and the state was saved."
                                        : ".")
                                + " Give Strata more memory (for "
                                + "example STRATA_JAVA_OPTS=-Xmx4g) or make the values used by " + object + " smaller.",
                        null);
            case OTHER ->
                Diagnostic.error(
                        "Internal error",
                        what + " This is a bug in Strata; please report it with " + "the configuration that causes it."
                                + after,
                        null);
        };
    }
}
