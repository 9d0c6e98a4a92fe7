package dev.strata.provider;

import java.util.Arrays;
import java.util.Base64;

/**
 * Opaque bytes a provider keeps beside an object's state (the protocol's {@code private}): the
 * engine stores them and hands them back, never reads them. They may hold secrets, so
 * {@link #toString()} shows only the size.
 */
public final class PrivateState {

    public static final PrivateState EMPTY = new PrivateState(new byte[0]);

    private final byte[] bytes;

    private PrivateState(byte[] bytes) {
        this.bytes = bytes;
    }

    public static PrivateState of(byte[] bytes) {
        return bytes.length == 0 ? EMPTY : new PrivateState(bytes.clone());
    }

    /** From the base64 form a state file stores. */
    public static PrivateState fromBase64(String text) {
        return of(Base64.getDecoder().decode(text));
    }

    public byte[] bytes() {
        return bytes.clone();
    }

    public String toBase64() {
        return Base64.getEncoder().encodeToString(bytes);
    }

    public boolean isEmpty() {
        return bytes.length == 0;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PrivateState p && Arrays.equals(p.bytes, bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
        return "PrivateState[" + bytes.length + " bytes]";
    }
}
