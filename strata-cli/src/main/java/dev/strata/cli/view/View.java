package dev.strata.cli.view;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.DiagnosticRenderer;
import dev.strata.hcl.Diagnostics;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

/**
 * The base of every command's view: it owns the output streams, the colour decision and the terminal
 * width, and renders diagnostics. Commands call views; views decide how things look. Per-command
 * views (one interface per command with Human and JSON implementations) wrap one of these.
 *
 * <p>Every write goes through {@link #out()} or {@link #err()} (a question, diagnostics, what a subclass
 * or a command prints), and each of them first calls {@link #flushPending()}: the one place a subclass
 * that holds output back for a moment (the apply's progress lines, the {@code -json} stream) writes it,
 * so that it comes before whatever is written next, on either stream.
 */
public class View {
    private final InputStream in;
    private final PrintStream out;
    private final PrintStream err;
    private final boolean color;
    private final int width;
    private final DiagnosticsView diagnostics;

    public View(Terminal context) {
        this(context, context.colorAllowed());
    }

    /** A view that never colours, whatever the terminal allows: for output a program reads, such as {@code -json}. */
    static View monochrome(Terminal context) {
        return new View(context, false);
    }

    private View(Terminal context, boolean color) {
        this.in = context.stdin();
        this.out = context.stdout();
        this.err = context.stderr();
        this.color = color;
        this.width = context.terminalWidth();
        this.diagnostics = new DiagnosticsView(this::out, this::err, color, width, context.compactWarnings());
    }

    /**
     * Writes the output this view holds back, if any; {@link #out()} and {@link #err()} call it before
     * handing out their stream. A subclass that holds output overrides it (and writes that output to
     * {@link Terminal#stdout()} itself, not through {@link #out()}).
     */
    void flushPending() {}

    /**
     * Writes the output every view holds back, now: for what writes to the terminal without a view (the
     * log on stderr with {@code STRATA_LOG}), so that its lines follow the progress lines before them.
     */
    public static void flushAllPending() {
        PendingOutput.writeAll();
    }

    /**
     * Shows {@code prompt} and reads one line of answer from stdin, then ends the line; empty when there
     * is no answer (end of input or a read error).
     */
    public Optional<String> ask(String prompt) {
        PrintStream out = out();
        out.print(prompt);
        out.flush();
        String answer;
        try {
            answer = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)).readLine();
        } catch (IOException e) {
            answer = null;
        }
        out.println();
        out.flush();
        return Optional.ofNullable(answer);
    }

    /** Asks {@code prompt}; whether the answer is {@code yes}, the only one Terraform takes as consent. */
    public boolean confirm(String prompt) {
        return ask(prompt).filter(a -> a.strip().equals("yes")).isPresent();
    }

    /** Standard output, after the output this view holds back: what is printed to it follows that. */
    public PrintStream out() {
        flushPending();
        return out;
    }

    /** Standard error, after the output this view holds back: on a terminal, that comes first. */
    public PrintStream err() {
        flushPending();
        return err;
    }

    public boolean color() {
        return color;
    }

    public int width() {
        return width;
    }

    /** {@code text} in the given style when colour is on, unchanged otherwise. */
    public String style(Style style, String text) {
        return color ? style.ansi() + text + Style.RESET.ansi() : text;
    }

    /** Renders diagnostics: errors to stderr, warnings to stdout, as Terraform does. */
    public void diagnostics(List<CliDiagnostic> list) {
        if (diagnostics.compacts(
                list.stream().map(DiagnosticsView::toDiagnostic).toList())) {
            return;
        }
        list.forEach(this::diagnostic);
    }

    public void diagnostic(CliDiagnostic d) {
        diagnostics.print(DiagnosticsView.toDiagnostic(d), DiagnosticRenderer.NO_SOURCES);
    }

    /**
     * Renders configuration diagnostics with their source snippets, in their deterministic order:
     * errors to stderr, warnings to stdout.
     */
    public void diagnostics(Diagnostics ds, DiagnosticRenderer.Sources sources) {
        if (diagnostics.compacts(ds.sorted().asList())) {
            return;
        }
        for (Diagnostic d : consolidated(ds.sorted().asList())) {
            diagnostics.print(d, sources);
        }
    }

    /**
     * As Terraform's views: warnings with a source location and the same summary are shown once, the first
     * of them saying how many more there are; a check block's warnings each stand alone, and so do those
     * for undeclared variables in files (Terraform gives those no source location; Strata does).
     */
    static List<Diagnostic> consolidated(List<Diagnostic> sorted) {
        java.util.Map<String, Integer> firstAt = new java.util.HashMap<>();
        java.util.Map<String, Integer> more = new java.util.HashMap<>();
        List<Diagnostic> out = new java.util.ArrayList<>();
        for (Diagnostic d : sorted) {
            boolean grouped = !d.isError()
                    && d.subject() != null
                    && !d.summary().startsWith("Check block assertion")
                    && !d.summary().equals("Value for undeclared variable");
            if (!grouped) {
                out.add(d);
            } else if (firstAt.containsKey(d.summary())) {
                more.merge(d.summary(), 1, Integer::sum);
            } else {
                firstAt.put(d.summary(), out.size());
                out.add(d);
            }
        }
        more.forEach((summary, n) -> {
            int i = firstAt.get(summary);
            Diagnostic d = out.get(i);
            String note = n == 1
                    ? "(and one more similar warning elsewhere)"
                    : "(and " + n + " more similar warnings elsewhere)";
            out.set(i, d.withDetail(d.detail().isEmpty() ? note : d.detail() + "\n\n" + note));
        });
        return out;
    }

    /**
     * Renders a diagnostic on stderr whatever its severity: for warnings about the environment, which
     * must not mix into stdout, where they could corrupt machine-readable output such as {@code -json}.
     */
    public void diagnosticOnStderr(CliDiagnostic d) {
        diagnostics.printTo(DiagnosticsView.toDiagnostic(d), DiagnosticRenderer.NO_SOURCES, err());
    }

    /** Configuration diagnostics on stderr whatever their severity, for commands whose stdout is JSON. */
    public void diagnosticsOnStderr(Diagnostics ds, DiagnosticRenderer.Sources sources) {
        for (Diagnostic d : ds.sorted()) {
            diagnostics.printTo(d, sources, err());
        }
    }

    /** ANSI styles. A closed set, so that no view invents escape sequences of its own. */
    public enum Style {
        RESET("\u001b[0m"),
        BOLD("\u001b[1m"),
        RED("\u001b[31m"),
        GREEN("\u001b[32m"),
        YELLOW("\u001b[33m"),
        CYAN("\u001b[36m"),
        BOLD_RED("\u001b[1;31m"),
        BOLD_YELLOW("\u001b[1;33m"),
        BOLD_GREEN("\u001b[1;32m");

        private final String ansi;

        Style(String ansi) {
            this.ansi = ansi;
        }

        String ansi() {
            return ansi;
        }
    }
}
