package dev.strata.addr;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Terraform's order of strings. Go compares strings as UTF-8 bytes; Java's {@code compareTo} compares
 * UTF-16 units, which differs for characters outside the BMP.
 */
public final class GoOrder {
    private GoOrder() {}

    public static int compare(String a, String b) {
        if (a == b) {
            return 0;
        }
        int n = Math.min(a.length(), b.length());
        for (int i = 0; i < n; i++) {
            char x = a.charAt(i);
            char y = b.charAt(i);
            if (x != y) {
                if (x < 0xD800 && y < 0xD800) {
                    return Character.compare(x, y);
                }
                return Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
            }
        }
        return Integer.compare(a.length(), b.length());
    }
}
