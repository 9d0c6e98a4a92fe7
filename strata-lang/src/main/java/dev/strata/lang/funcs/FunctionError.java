package dev.strata.lang.funcs;

/**
 * Thrown by a function implementation for a user error; {@link Function#call} turns it into a
 * {@link CallResult.Failure}, so it never escapes a call. {@code argIndex} is -1 when no single
 * argument is at fault. {@code revealsValue} says that the message quotes an argument, so that
 * the message is withheld when an argument was sensitive.
 */
public final class FunctionError extends RuntimeException {
    private final int argIndex;
    private final boolean revealsValue;

    private FunctionError(int argIndex, String message, boolean revealsValue) {
        super(message, null, false, false);
        this.argIndex = argIndex;
        this.revealsValue = revealsValue;
    }

    /** An error about argument {@code index}; the message does not quote any argument value. */
    public static FunctionError arg(int index, String message) {
        return new FunctionError(index, message, false);
    }

    /** An error about argument {@code index} whose message quotes a value given by the caller. */
    public static FunctionError argRevealing(int index, String message) {
        return new FunctionError(index, message, true);
    }

    /** An error about the call as a whole. */
    public static FunctionError call(String message) {
        return new FunctionError(-1, message, false);
    }

    public static FunctionError callRevealing(String message) {
        return new FunctionError(-1, message, true);
    }

    public int argIndex() {
        return argIndex;
    }

    public boolean revealsValue() {
        return revealsValue;
    }
}
