package dev.strata.cli.tftest;

import dev.strata.cli.view.Terminal;
import dev.strata.cli.view.View;
import dev.strata.hcl.DiagnosticRenderer;
import dev.strata.hcl.Diagnostics;
import java.util.List;

/** {@code strata test}'s text output, line for line as {@code terraform test} writes it. */
public final class HumanTestView implements TestView {
    private final View view;

    public HumanTestView(Terminal terminal) {
        this.view = new View(terminal);
    }

    @Override
    public void diagnostics(String file, String run, Diagnostics diags, DiagnosticRenderer.Sources sources) {
        print(diags, sources);
        flush();
    }

    /**
     * The diagnostics as the view renders them, with the values of a failed assertion's references
     * under its snippet ("├──── var.x is "a""), as Terraform shows them, after the comparison of an
     * comparison's two sides where there is one.
     */
    private void print(Diagnostics diags, DiagnosticRenderer.Sources sources) {
        for (dev.strata.hcl.Diagnostic d : diags.sorted()) {
            if (!(sources instanceof TestRunner.SourceFiles sf)
                    || (sf.comparison(d).isEmpty() && sf.values(d).isEmpty())) {
                view.diagnostics(Diagnostics.of(d), sources);
            } else {
                java.io.PrintStream to = d.isError() ? view.err() : view.out();
                to.print(render(d, sources, view.color(), view.width()));
                to.flush();
            }
            if (!d.isError()) {
                // terraform test 1.11 leaves an empty line after a warning, before the next line of progress.
                view.out().println();
            }
        }
    }

    /** {@code d} rendered, with a failed assertion's comparison and values under its snippet. */
    static String render(dev.strata.hcl.Diagnostic d, DiagnosticRenderer.Sources sources, boolean color, int width) {
        String text = new DiagnosticRenderer(sources, color, width).render(d);
        if (!(sources instanceof TestRunner.SourceFiles sf)) {
            return text;
        }
        List<String> comparison = sf.comparison(d);
        List<String> values = sf.shownValues(d);
        return values.isEmpty() && comparison.isEmpty()
                ? text
                : AssertionValues.splice(text, comparison, values, color);
    }

    @Override
    public void fileStart(String file) {
        view.out().println(file + "... in progress");
        flush();
    }

    @Override
    public void run(
            String file,
            String run,
            TestStatus status,
            String detail,
            Diagnostics diags,
            DiagnosticRenderer.Sources sources) {
        view.out().println("  run \"" + run + "\"... " + colored(status));
        if (detail != null && !detail.isEmpty()) {
            view.out().println();
            view.out().print(detail);
            view.out().println();
        }
        print(diags, sources);
        flush();
    }

    @Override
    public void teardown(String file) {
        view.out().println(file + "... tearing down");
        flush();
    }

    @Override
    public void cleanupFailed(
            String file, String run, List<String> left, Diagnostics diags, DiagnosticRenderer.Sources sources) {
        print(diags, sources);
        if (!left.isEmpty()) {
            StringBuilder sb = new StringBuilder();
            sb.append("Strata left the following resources in state after executing ")
                    .append(file)
                    .append('/')
                    .append(run)
                    .append(", and they need to be cleaned up manually:\n");
            left.forEach(a -> sb.append("  - ").append(a).append('\n'));
            view.err().print(sb);
        }
        flush();
    }

    @Override
    public void fileEnd(String file, TestStatus status) {
        view.out().println(file + "... " + colored(status));
        flush();
    }

    @Override
    public void summary(TestStatus status, int passed, int failed, int skipped) {
        view.out().println();
        String counts =
                passed + " passed, " + failed + " failed" + (skipped > 0 ? ", " + skipped + " skipped" : "") + ".";
        if (status == TestStatus.FAIL || status == TestStatus.ERROR) {
            view.out().println(view.style(View.Style.BOLD_RED, "Failure!") + " " + counts);
        } else if (status == TestStatus.SKIP) {
            view.out().println("Executed 0 tests, " + skipped + " skipped.");
        } else {
            view.out().println(view.style(View.Style.BOLD_GREEN, "Success!") + " " + counts);
        }
        flush();
    }

    private String colored(TestStatus s) {
        return switch (s) {
            case PASS -> view.style(View.Style.GREEN, s.word());
            case FAIL, ERROR -> view.style(View.Style.RED, s.word());
            case SKIP, PENDING -> s.word();
        };
    }

    private void flush() {
        view.out().flush();
        view.err().flush();
    }
}
