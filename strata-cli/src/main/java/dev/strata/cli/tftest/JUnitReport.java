package dev.strata.cli.tftest;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.DiagnosticRenderer;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.IoProblems;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SequencedMap;

/**
 * {@code -junit-xml=FILE}: passes everything on to the command's view and records the runs, then
 * writes them as a JUnit XML report as Terraform does: one {@code testsuite} per file, one
 * {@code testcase} per run with its duration and start, a failure ("1 of 3 assertions failed: ...")
 * or error with the rendered errors, the warnings as {@code system-err}, and a skipped run with the
 * run whose error skipped it.
 */
public final class JUnitReport implements TestView {
    /**
     * One run: its status, the failure or error message and the rendered errors and warnings, and
     * when it started and how long it took (null for a run that was skipped).
     */
    private record Case(
            String name,
            TestStatus status,
            String message,
            String errors,
            String warnings,
            java.time.Instant started,
            java.time.Duration took) {}

    /** The width the report's diagnostics are wrapped at, as Terraform's. */
    private static final int WIDTH = 80;

    private final TestView inner;
    private final java.time.Clock clock;
    private final Map<String, List<Case>> files = new LinkedHashMap<>();
    private java.time.Instant started;
    private long startedNanos;
    private int assertions;
    /** The last run of the current file that ended in an error, which skips the rest. */
    private String errored;

    public JUnitReport(TestView inner) {
        this(inner, java.time.Clock.systemUTC());
    }

    JUnitReport(TestView inner, java.time.Clock clock) {
        this.inner = inner;
        this.clock = clock;
    }

    @Override
    public void plan(SequencedMap<String, List<String>> planned) {
        inner.plan(planned);
    }

    @Override
    public void diagnostics(String file, String run, Diagnostics diags, DiagnosticRenderer.Sources sources) {
        inner.diagnostics(file, run, diags, sources);
    }

    @Override
    public void fileStart(String file) {
        files.put(file, new ArrayList<>());
        errored = null;
        inner.fileStart(file);
    }

    @Override
    public void runStarted(String file, String run, int assertions) {
        this.started = clock.instant();
        this.startedNanos = System.nanoTime();
        this.assertions = assertions;
        inner.runStarted(file, run, assertions);
    }

    @Override
    public void run(
            String file,
            String run,
            TestStatus status,
            String detail,
            Diagnostics diags,
            DiagnosticRenderer.Sources sources) {
        StringBuilder errors = new StringBuilder();
        StringBuilder warnings = new StringBuilder();
        List<String> failed = new ArrayList<>();
        for (Diagnostic d : diags.inPlaceOrder()) {
            String text = HumanTestView.render(d, sources, false, WIDTH).strip();
            (d.isError() ? errors : warnings).append('\n').append(text).append('\n');
            if (d.isError() && d.summary().equals("Test assertion failed")) {
                failed.add(d.detail());
            }
        }
        String message = switch (status) {
            case FAIL ->
                failed.isEmpty()
                        ? "Test run failed"
                        : failed.size() + " of " + Math.max(assertions, failed.size()) + " assertions failed"
                                + (failed.size() == 1 ? ": " : ", including: ") + failed.getFirst();
            case ERROR -> "Encountered an error";
            case SKIP -> errored == null ? null : "Testcase skipped due to a previous testcase error";
            case PASS, PENDING -> null;
        };
        boolean ran = status != TestStatus.SKIP && started != null;
        files.computeIfAbsent(file, f -> new ArrayList<>())
                .add(new Case(
                        run,
                        status,
                        message,
                        status == TestStatus.SKIP && errored != null
                                ? "Previous testcase \"" + errored
                                        + "\" ended in error, which caused the remaining tests in the file to be skipped"
                                : errors.toString(),
                        warnings.toString(),
                        ran ? started : null,
                        ran ? java.time.Duration.ofNanos(System.nanoTime() - startedNanos) : null));
        if (status == TestStatus.ERROR) {
            errored = run;
        }
        started = null;
        inner.run(file, run, status, detail, diags, sources);
    }

    @Override
    public void teardown(String file) {
        inner.teardown(file);
    }

    @Override
    public void cleanupFailed(
            String file, String run, List<String> left, Diagnostics diags, DiagnosticRenderer.Sources sources) {
        inner.cleanupFailed(file, run, left, diags, sources);
    }

    @Override
    public void fileEnd(String file, TestStatus status) {
        inner.fileEnd(file, status);
    }

    @Override
    public void summary(TestStatus status, int passed, int failed, int skipped) {
        inner.summary(status, passed, failed, skipped);
    }

    /** The report as XML, as Terraform writes it. */
    String xml() {
        StringBuilder sb = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?><testsuites>");
        files.forEach((file, cases) -> {
            long failures =
                    cases.stream().filter(c -> c.status == TestStatus.FAIL).count();
            long errors =
                    cases.stream().filter(c -> c.status == TestStatus.ERROR).count();
            long skipped =
                    cases.stream().filter(c -> c.status == TestStatus.SKIP).count();
            sb.append("\n  <testsuite name=\"")
                    .append(attr(file))
                    .append("\" tests=\"")
                    .append(cases.size())
                    .append("\" skipped=\"")
                    .append(skipped)
                    .append("\" failures=\"")
                    .append(failures)
                    .append("\" errors=\"")
                    .append(errors)
                    .append("\">");
            for (Case c : cases) {
                sb.append("\n    <testcase name=\"")
                        .append(attr(c.name))
                        .append("\" classname=\"")
                        .append(attr(file))
                        .append('"');
                if (c.started != null) {
                    sb.append(" time=\"")
                            .append(seconds(c.took))
                            .append("\" timestamp=\"")
                            .append(java.time.format.DateTimeFormatter.ISO_INSTANT.format(
                                    c.started.truncatedTo(java.time.temporal.ChronoUnit.SECONDS)))
                            .append('"');
                }
                sb.append('>');
                boolean nested = false;
                switch (c.status) {
                    case FAIL -> nested = element(sb, "failure", c.message, c.errors);
                    case ERROR -> nested = element(sb, "error", c.message, c.errors);
                    case SKIP -> nested = element(sb, "skipped", c.message, c.errors);
                    case PASS, PENDING -> {}
                }
                if (!c.warnings.isEmpty()) {
                    sb.append("\n      <system-err>").append(cdata(c.warnings)).append("</system-err>");
                    nested = true;
                }
                sb.append(nested ? "\n    </testcase>" : "</testcase>");
            }
            sb.append("\n  </testsuite>");
        });
        return sb.append("\n</testsuites>").toString();
    }

    /** {@code <name message="...">CDATA</name>} on its own line; always true (the case has content). */
    private static boolean element(StringBuilder sb, String name, String message, String body) {
        sb.append("\n      <").append(name);
        if (message != null) {
            sb.append(" message=\"").append(attr(message)).append('"');
        }
        sb.append('>');
        if (!body.isEmpty()) {
            sb.append(cdata(body));
        }
        sb.append("</").append(name).append('>');
        return true;
    }

    private static String cdata(String s) {
        return "<![CDATA[" + s.replace("]]>", "]]]]><![CDATA[>") + "]]>";
    }

    /** Seconds with as many decimals as needed, as Go formats a float ({@code 0.002262838}). */
    private static String seconds(java.time.Duration d) {
        return java.math.BigDecimal.valueOf(d.toNanos(), 9).stripTrailingZeros().toPlainString();
    }

    /** Writes the report; the problem names the path and the system's reason when it cannot. */
    public Diagnostics write(Path path) {
        try {
            Files.writeString(path, xml(), StandardCharsets.UTF_8);
            return Diagnostics.NONE;
        } catch (IOException e) {
            return Diagnostics.of(Diagnostic.error(
                    "Failed to write JUnit XML file", "Could not write " + IoProblems.describe(path, e) + ".", null));
        }
    }

    /** An attribute value escaped as Go's XML encoder escapes it. */
    private static String attr(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (char ch : s.toCharArray()) {
            switch (ch) {
                case '&' -> b.append("&amp;");
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '"' -> b.append("&#34;");
                case '\'' -> b.append("&#39;");
                case '\t' -> b.append("&#x9;");
                case '\n' -> b.append("&#xA;");
                case '\r' -> b.append("&#xD;");
                default -> b.append(ch);
            }
        }
        return b.toString();
    }
}
