package dev.strata.cli.command;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** "Did you mean" for mistyped command and flag names. */
final class Suggestions {
    private Suggestions() {}

    /**
     * Candidates close to {@code given}, closest first. "Close" is an edit distance of at most a third
     * of the word (at least 1, at most 3): enough for typos and swapped letters, not for unrelated words.
     */
    static List<String> closest(String given, List<String> candidates) {
        int limit = Math.max(1, Math.min(3, given.length() / 3));
        List<String> hits = new ArrayList<>();
        for (String c : candidates) {
            if (distance(given, c) <= limit) {
                hits.add(c);
            }
        }
        hits.sort(Comparator.comparingInt((String c) -> distance(given, c)).thenComparing(Comparator.naturalOrder()));
        return hits;
    }

    /** Optimal string alignment distance: Levenshtein plus adjacent transpositions. */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
