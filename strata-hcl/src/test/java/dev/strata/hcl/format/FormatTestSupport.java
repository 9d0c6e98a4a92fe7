package dev.strata.hcl.format;

import java.nio.charset.StandardCharsets;

/** Helpers shared by the formatter tests. */
final class FormatTestSupport {
    private FormatTestSupport() {}

    /** The first differing line of two texts, with its neighbours, for a readable failure. */
    static String firstDifference(byte[] expected, byte[] actual) {
        String[] e = new String(expected, StandardCharsets.UTF_8).split("\n", -1);
        String[] a = new String(actual, StandardCharsets.UTF_8).split("\n", -1);
        int n = Math.min(e.length, a.length);
        int i = 0;
        while (i < n && e[i].equals(a[i])) {
            i++;
        }
        StringBuilder sb = new StringBuilder();
        for (int k = Math.max(0, i - 2); k < i; k++) {
            sb.append("    ").append(show(e[k])).append('\n');
        }
        sb.append("  line ").append(i + 1).append(":\n");
        sb.append("  - ").append(i < e.length ? show(e[i]) : "<end>").append('\n');
        sb.append("  + ").append(i < a.length ? show(a[i]) : "<end>");
        return sb.toString();
    }

    private static String show(String line) {
        return line.replace("\r", "\\r").replace("\t", "\\t");
    }
}
