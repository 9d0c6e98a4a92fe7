package dev.strata.hcl;

import java.util.Collection;
import java.util.Optional;

/** Suggests the closest known name for a misspelt one. */
public final class DidYouMean {
    private DidYouMean() {}

    /** The candidate nearest to {@code given} by edit distance, if it is close enough to be a typo. */
    public static Optional<String> suggest(String given, Collection<String> candidates) {
        String best = null;
        int bestDist = Integer.MAX_VALUE;
        for (String c : candidates.stream().sorted().toList()) {
            int d = distance(given, c);
            if (d < bestDist) {
                bestDist = d;
                best = c;
            }
        }
        // Two edits is about what a typo costs; more suggests an unrelated name.
        return bestDist <= 2 && best != null && !best.equals(given) ? Optional.of(best) : Optional.empty();
    }

    /** " Did you mean "x"?" or the empty string. */
    public static String sentence(String given, Collection<String> candidates) {
        return suggest(given, candidates)
                .map(s -> " Did you mean \"" + s + "\"?")
                .orElse("");
    }

    static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}
