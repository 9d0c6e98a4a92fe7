package dev.strata.tfplugin.wire;

/**
 * Bytes from a plugin that do not decode as the expected type. A provider that sends them is
 * broken, so this is an exception; the client turns it into a diagnostic naming the provider.
 */
public final class WireFormatException extends RuntimeException {
    public WireFormatException(String message) {
        super(message);
    }

    public WireFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
