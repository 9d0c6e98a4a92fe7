package dev.strata.hcl;

/** Strict UTF-8 decoding over raw bytes, shared by both syntaxes' scanners so they reject alike. */
public final class Utf8 {
    private Utf8() {}

    /**
     * Length of the well-formed UTF-8 sequence at {@code i}, or -1 if the bytes there are not one:
     * overlong forms, surrogates and code points above U+10FFFF are not well-formed.
     */
    public static int sequenceLength(byte[] src, int i) {
        int b = src[i] & 0xff;
        if (b < 0x80) {
            return 1;
        }
        int n;
        int min;
        if (b >= 0xc2 && b <= 0xdf) {
            n = 2;
            min = 0x80;
        } else if (b >= 0xe0 && b <= 0xef) {
            n = 3;
            min = 0x800;
        } else if (b >= 0xf0 && b <= 0xf4) {
            n = 4;
            min = 0x10000;
        } else {
            return -1;
        }
        if (i + n > src.length) {
            return -1;
        }
        int cp = b & (0xff >> (n + 1));
        for (int k = 1; k < n; k++) {
            int c = src[i + k] & 0xff;
            if ((c & 0xc0) != 0x80) {
                return -1;
            }
            cp = (cp << 6) | (c & 0x3f);
        }
        if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
            return -1;
        }
        return n;
    }

    /** The code point of the well-formed sequence at {@code i}, or -1 if the bytes there are not one. */
    public static int codePointAt(byte[] src, int i) {
        int n = sequenceLength(src, i);
        if (n <= 0) {
            return -1;
        }
        int b = src[i] & 0xff;
        if (n == 1) {
            return b;
        }
        int cp = b & (0xff >> (n + 1));
        for (int k = 1; k < n; k++) {
            cp = (cp << 6) | (src[i + k] & 0x3f);
        }
        return cp;
    }
}
