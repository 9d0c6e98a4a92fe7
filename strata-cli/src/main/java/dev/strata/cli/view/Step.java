package dev.strata.cli.view;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiPredicate;
import java.util.function.Predicate;

/**
 * One step from an old sequence to a new one, as a plan shows list elements and the lines of a string: kept,
 * added, removed, or (paired) changed. {@link #before} is null for an addition, {@link #after} for a removal.
 */
record Step<T>(Kind kind, T before, T after) {

    enum Kind {
        KEEP(" "),
        CREATE("+"),
        DELETE("-"),
        UPDATE("~");

        final String symbol;

        Kind(String symbol) {
            this.symbol = symbol;
        }
    }

    /**
     * The steps from {@code x} to {@code y} in Terraform 1.11's order (measured against its plans of JSON lists
     * and multi-line strings, some 700 random pairs):
     *
     * <ul>
     *   <li>with {@code byIndex}, two sequences of one length of which the old holds an element the new lacks
     *       change element by element, each kept or changed in place;
     *   <li>otherwise the elements of a longest common subsequence are kept (of several, the one found walking
     *       back from both ends that steps back in the new sequence on a tie), and between two kept elements
     *       the old ones are removed before the new ones are added, except that an old element and the next new
     *       one that are both {@code pairable} are changed in place.
     * </ul>
     */
    static <T> List<Step<T>> of(List<T> x, List<T> y, BiPredicate<T, T> equal, Predicate<T> pairable, boolean byIndex) {
        List<Step<T>> out = new ArrayList<>(Math.max(x.size(), y.size()));
        if (byIndex
                && x.size() == y.size()
                && x.stream().anyMatch(e -> y.stream().noneMatch(f -> equal.test(e, f)))) {
            for (int i = 0; i < x.size(); i++) {
                boolean same = equal.test(x.get(i), y.get(i));
                out.add(new Step<>(same ? Kind.KEEP : Kind.UPDATE, x.get(i), y.get(i)));
            }
            return out;
        }
        List<T> common = commonSubsequence(x, y, equal);
        int i = 0;
        int j = 0;
        int k = 0;
        while (i < x.size() || j < y.size() || k < common.size()) {
            while (i < x.size() && (k >= common.size() || !equal.test(x.get(i), common.get(k)))) {
                if (pairable.test(x.get(i))
                        && j < y.size()
                        && pairable.test(y.get(j))
                        && (k >= common.size() || !equal.test(y.get(j), common.get(k)))) {
                    out.add(new Step<>(Kind.UPDATE, x.get(i++), y.get(j++)));
                } else {
                    out.add(new Step<>(Kind.DELETE, x.get(i++), null));
                }
            }
            while (j < y.size() && (k >= common.size() || !equal.test(y.get(j), common.get(k)))) {
                out.add(new Step<>(Kind.CREATE, null, y.get(j++)));
            }
            if (k < common.size()) {
                out.add(new Step<>(Kind.KEEP, x.get(i++), y.get(j++)));
                k++;
            }
        }
        return out;
    }

    /** A longest common subsequence of {@code x} and {@code y}, found walking back from both ends. */
    private static <T> List<T> commonSubsequence(List<T> x, List<T> y, BiPredicate<T, T> equal) {
        int w = x.size();
        int h = y.size();
        if (w == 0 || h == 0) {
            return List.of();
        }
        int[] len = new int[w * h];
        boolean[] eq = new boolean[w * h];
        for (int r = 0; r < h; r++) {
            for (int c = 0; c < w; c++) {
                int at = r * w + c;
                if (equal.test(x.get(c), y.get(r))) {
                    eq[at] = true;
                    len[at] = (c == 0 || r == 0) ? 1 : len[at - w - 1] + 1;
                } else {
                    int left = c > 0 ? len[at - 1] : 0;
                    int up = r > 0 ? len[at - w] : 0;
                    len[at] = Math.max(left, up);
                }
            }
        }
        List<T> seq = new ArrayList<>();
        int c = w - 1;
        int r = h - 1;
        while (c >= 0 && r >= 0) {
            int at = r * w + c;
            if (eq[at]) {
                seq.add(x.get(c));
                c--;
                r--;
            } else if ((c > 0 ? len[at - 1] : 0) > (r > 0 ? len[at - w] : 0)) {
                c--;
            } else {
                r--;
            }
        }
        return seq.reversed();
    }
}
