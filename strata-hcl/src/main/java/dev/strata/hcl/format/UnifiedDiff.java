package dev.strata.hcl.format;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The unified diff {@code terraform fmt -diff} prints for a file: the output of
 * {@code diff -u --label=old/PATH --label=new/PATH} (GNU diff), with three lines of context.
 *
 * <p>The lines it reports are a minimal diff (Myers). GNU diff, which Terraform runs, agrees with
 * that for scattered edits; when most of a file changes, GNU diff's speed heuristics (lines frequent
 * in both files are left out of the matching when surrounded by changes) can report a blank line as
 * deleted and re-inserted where this class keeps it as context. Both are valid diffs of the same
 * change; the format (headers, hunk ranges, {@code \ No newline at end of file}) is the same.
 *
 * <pre>{@code
 * String d = UnifiedDiff.of("main.tf", original, Formatter.format(original, "main.tf").value());
 * }</pre>
 */
public final class UnifiedDiff {
    private static final int CONTEXT = 3;

    private UnifiedDiff() {}

    private enum Op {
        SAME,
        DELETE,
        INSERT
    }

    /** One step of the edit script: an operation and the line indexes it is at in each file. */
    private record Edit(Op op, int oldIndex, int newIndex) {}

    /**
     * The diff between two versions of {@code path}, or the empty string when they are equal. Lines
     * are compared with their line ends, so a missing final newline is a difference, marked as
     * {@code \ No newline at end of file}.
     */
    public static String of(String path, byte[] before, byte[] after) {
        List<String> a = lines(before);
        List<String> b = lines(after);
        List<Edit> edits = groupChanges(editScript(a, b));
        if (edits.stream().allMatch(e -> e.op == Op.SAME)) {
            return "";
        }
        StringBuilder out = new StringBuilder();
        out.append("--- old/").append(path).append('\n');
        out.append("+++ new/").append(path).append('\n');
        int i = 0;
        while (i < edits.size()) {
            if (edits.get(i).op == Op.SAME) {
                i++;
                continue;
            }
            // A hunk: this change plus every later one separated from it by at most twice the
            // context of unchanged lines, framed by the context.
            int start = Math.max(0, i - CONTEXT);
            int end = i;
            int j = i;
            while (j < edits.size()) {
                if (edits.get(j).op != Op.SAME) {
                    end = j + 1;
                    j++;
                    continue;
                }
                int run = j;
                while (run < edits.size() && edits.get(run).op == Op.SAME) {
                    run++;
                }
                if (run == edits.size() || run - j > 2 * CONTEXT) {
                    break;
                }
                j = run;
            }
            int stop = Math.min(edits.size(), end + CONTEXT);
            hunk(out, edits.subList(start, stop), a, b);
            i = stop;
        }
        return out.toString();
    }

    private static void hunk(StringBuilder out, List<Edit> edits, List<String> a, List<String> b) {
        int oldCount = 0;
        int newCount = 0;
        int oldStart = -1;
        int newStart = -1;
        for (Edit e : edits) {
            if (e.op != Op.INSERT) {
                oldCount++;
                if (oldStart < 0) {
                    oldStart = e.oldIndex;
                }
            }
            if (e.op != Op.DELETE) {
                newCount++;
                if (newStart < 0) {
                    newStart = e.newIndex;
                }
            }
        }
        // An empty side is positioned at the line before it, as GNU diff does ("-0,0").
        Edit first = edits.get(0);
        out.append("@@ -")
                .append(range(oldStart < 0 ? first.oldIndex : oldStart + 1, oldCount))
                .append(" +")
                .append(range(newStart < 0 ? first.newIndex : newStart + 1, newCount))
                .append(" @@\n");
        for (Edit e : edits) {
            switch (e.op) {
                case SAME -> line(out, ' ', a.get(e.oldIndex));
                case DELETE -> line(out, '-', a.get(e.oldIndex));
                case INSERT -> line(out, '+', b.get(e.newIndex));
            }
        }
    }

    private static String range(int start, int count) {
        return count == 1 ? String.valueOf(start) : start + "," + count;
    }

    private static void line(StringBuilder out, char mark, String line) {
        out.append(mark).append(line);
        if (!line.endsWith("\n")) {
            out.append("\n\\ No newline at end of file\n");
        }
    }

    private static List<String> lines(byte[] bytes) {
        String s = new String(bytes, StandardCharsets.UTF_8);
        List<String> lines = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) == '\n') {
                lines.add(s.substring(start, i + 1));
                start = i + 1;
            }
        }
        if (start < s.length()) {
            lines.add(s.substring(start));
        }
        return lines;
    }

    /** A shortest edit script (Myers' greedy algorithm), as a sequence of per-line steps. */
    private static List<Edit> editScript(List<String> a, List<String> b) {
        int n = a.size();
        int m = b.size();
        int max = n + m;
        int offset = max + 1;
        int[] v = new int[2 * max + 3];
        List<int[]> trace = new ArrayList<>();
        int found = -1;
        for (int d = 0; d <= max && found < 0; d++) {
            trace.add(v.clone());
            for (int k = -d; k <= d; k += 2) {
                int x = (k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]))
                        ? v[offset + k + 1]
                        : v[offset + k - 1] + 1;
                int y = x - k;
                while (x < n && y < m && a.get(x).equals(b.get(y))) {
                    x++;
                    y++;
                }
                v[offset + k] = x;
                if (x >= n && y >= m) {
                    found = d;
                    break;
                }
            }
        }
        List<Edit> reversed = new ArrayList<>();
        int x = n;
        int y = m;
        for (int d = found; d >= 0; d--) {
            int[] vd = trace.get(d);
            int k = x - y;
            int prevK = (k == -d || (k != d && vd[offset + k - 1] < vd[offset + k + 1])) ? k + 1 : k - 1;
            int prevX = d == 0 ? 0 : vd[offset + prevK];
            int prevY = prevX - prevK;
            while (x > prevX && y > prevY) {
                x--;
                y--;
                reversed.add(new Edit(Op.SAME, x, y));
            }
            if (d > 0) {
                if (x == prevX) {
                    y--;
                    reversed.add(new Edit(Op.INSERT, x, y));
                } else {
                    x--;
                    reversed.add(new Edit(Op.DELETE, x, y));
                }
            }
            x = prevX;
            y = prevY;
        }
        List<Edit> edits = new ArrayList<>(reversed.size());
        for (int i = reversed.size() - 1; i >= 0; i--) {
            edits.add(reversed.get(i));
        }
        return edits;
    }

    /** Within each run of changes, deletions first, then insertions, as diff prints them. */
    private static List<Edit> groupChanges(List<Edit> edits) {
        List<Edit> out = new ArrayList<>(edits.size());
        int i = 0;
        while (i < edits.size()) {
            if (edits.get(i).op == Op.SAME) {
                out.add(edits.get(i++));
                continue;
            }
            int j = i;
            while (j < edits.size() && edits.get(j).op != Op.SAME) {
                j++;
            }
            for (Edit e : edits.subList(i, j)) {
                if (e.op == Op.DELETE) {
                    out.add(e);
                }
            }
            for (Edit e : edits.subList(i, j)) {
                if (e.op == Op.INSERT) {
                    out.add(e);
                }
            }
            i = j;
        }
        return out;
    }
}
