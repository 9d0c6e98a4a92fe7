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
 * writes them as a JUnit XML report (one {@code testsuite} per file, one {@code testcase} per run).
 */
public final class JUnitReport implements TestView {
    private record Case(String name, TestStatus status, List<String> messages) {}

    private final TestView inner;
    private final Map<String, List<Case>> files = new LinkedHashMap<>();

    public JUnitReport(TestView inner) {
        this.inner = inner;
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
        inner.fileStart(file);
    }

    @Override
    public void run(
            String file,
            String run,
            TestStatus status,
            String detail,
            Diagnostics diags,
            DiagnosticRenderer.Sources sources) {
        List<String> messages = new ArrayList<>();
        for (Diagnostic d : diags.sorted()) {
            messages.add((d.isError() ? "Error: " : "Warning: ")
                    + d.summary()
                    + (d.detail().isEmpty() ? "" : "\n\n" + d.detail()));
        }
        files.computeIfAbsent(file, f -> new ArrayList<>()).add(new Case(run, status, messages));
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

    /** The report as XML. */
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
                        .append("\">");
                switch (c.status) {
                    case FAIL -> sb.append("\n      <failure message=\"Test run failed\"></failure>");
                    case ERROR -> sb.append("\n      <error message=\"Encountered an error\"></error>");
                    case SKIP -> sb.append("\n      <skipped></skipped>");
                    case PASS, PENDING -> {}
                }
                if (!c.messages.isEmpty()) {
                    sb.append("\n      <system-err><![CDATA[")
                            .append(String.join("\n\n", c.messages).replace("]]>", "]]]]><![CDATA[>"))
                            .append("]]></system-err>");
                }
                sb.append("\n    </testcase>");
            }
            sb.append("\n  </testsuite>");
        });
        return sb.append("\n</testsuites>\n").toString();
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

    private static String attr(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace("\"", "&quot;");
    }
}
