package dev.strata.cli.tftest;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.strata.cli.view.Terminal;
import dev.strata.cli.view.UiJson;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.DiagnosticRenderer;
import dev.strata.hcl.Diagnostics;
import java.io.PrintStream;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.SequencedMap;

/**
 * {@code strata test -json}: Terraform's machine-readable UI stream for tests, one JSON object per line
 * ({@code version}, {@code test_abstract}, {@code test_file}, {@code test_run}, {@code diagnostic},
 * {@code test_cleanup}, {@code test_summary}).
 */
public final class JsonTestView implements TestView {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final PrintStream out;
    private final String version;

    public JsonTestView(Terminal terminal, String version) {
        this.out = terminal.stdout();
        this.version = version;
        ObjectNode v = message("info", "Strata " + version, "version", null, null);
        v.put("terraform", version);
        v.put("ui", "1.2");
        emit(v);
    }

    private static ObjectNode message(String level, String text, String type, String file, String run) {
        ObjectNode n = JSON.createObjectNode();
        n.put("@level", level);
        n.put("@message", text);
        n.put("@module", "strata.ui");
        if (file != null) {
            n.put("@testfile", file);
        }
        if (run != null) {
            n.put("@testrun", run);
        }
        n.put("@timestamp", OffsetDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME));
        n.put("type", type);
        return n;
    }

    private void emit(ObjectNode n) {
        out.println(n.toString());
        out.flush();
    }

    @Override
    public void plan(SequencedMap<String, List<String>> files) {
        int runs = files.values().stream().mapToInt(List::size).sum();
        ObjectNode m = message(
                "info",
                "Found " + files.size() + (files.size() == 1 ? " file" : " files") + " and " + runs
                        + (runs == 1 ? " run block" : " run blocks"),
                "test_abstract",
                null,
                null);
        ObjectNode a = m.putObject("test_abstract");
        files.forEach((f, rs) -> {
            var arr = a.putArray(f);
            rs.forEach(arr::add);
        });
        emit(m);
    }

    @Override
    public void diagnostics(String file, String run, Diagnostics diags, DiagnosticRenderer.Sources sources) {
        for (Diagnostic d : diags.inPlaceOrder()) {
            ObjectNode m = message(
                    d.isError() ? "error" : "warn",
                    (d.isError() ? "Error: " : "Warning: ") + d.summary(),
                    "diagnostic",
                    file,
                    run);
            List<Diagnostic.ExpressionValue> values = new ArrayList<>();
            if (sources instanceof TestRunner.SourceFiles sf) {
                for (String v : sf.values(d)) {
                    int space = v.indexOf(' ');
                    values.add(new Diagnostic.ExpressionValue(v.substring(0, space), v.substring(space + 1)));
                }
            }
            UiJson.diagnosticFields(m.putObject("diagnostic"), d, sources, values);
            emit(m);
        }
    }

    @Override
    public void fileStart(String file) {
        ObjectNode m = message("info", file + "... in progress", "test_file", file, null);
        ObjectNode f = m.putObject("test_file");
        f.put("path", file);
        f.put("progress", "starting");
        emit(m);
    }

    @Override
    public void run(
            String file,
            String run,
            TestStatus status,
            String detail,
            Diagnostics diags,
            DiagnosticRenderer.Sources sources) {
        ObjectNode m = message("info", "  \"" + run + "\"... " + status.word(), "test_run", file, run);
        ObjectNode r = m.putObject("test_run");
        r.put("path", file);
        r.put("run", run);
        r.put("progress", "complete");
        r.put("status", status.name().toLowerCase(java.util.Locale.ROOT));
        emit(m);
        diagnostics(file, run, diags, sources);
    }

    @Override
    public void teardown(String file) {
        ObjectNode m = message("info", file + "... tearing down", "test_file", file, null);
        ObjectNode f = m.putObject("test_file");
        f.put("path", file);
        f.put("progress", "teardown");
        emit(m);
    }

    @Override
    public void cleanupFailed(
            String file, String run, List<String> left, Diagnostics diags, DiagnosticRenderer.Sources sources) {
        diagnostics(file, run, diags, sources);
        if (left.isEmpty()) {
            return;
        }
        ObjectNode m = message(
                "error",
                "Strata left some resources in state after executing " + file + "/" + run
                        + ", they need to be cleaned up manually.",
                "test_cleanup",
                file,
                run);
        var arr = m.putObject("test_cleanup").putArray("failed_resources");
        for (String a : left) {
            arr.addObject().put("instance", a);
        }
        emit(m);
    }

    @Override
    public void fileEnd(String file, TestStatus status) {
        ObjectNode m = message("info", file + "... " + status.word(), "test_file", file, null);
        ObjectNode f = m.putObject("test_file");
        f.put("path", file);
        f.put("progress", "complete");
        f.put("status", status.name().toLowerCase(java.util.Locale.ROOT));
        emit(m);
    }

    @Override
    public void summary(TestStatus status, int passed, int failed, int skipped) {
        boolean bad = status == TestStatus.FAIL || status == TestStatus.ERROR;
        String counts =
                passed + " passed, " + failed + " failed" + (skipped > 0 ? ", " + skipped + " skipped" : "") + ".";
        ObjectNode m = message("info", (bad ? "Failure! " : "Success! ") + counts, "test_summary", null, null);
        ObjectNode s = m.putObject("test_summary");
        s.put("status", status == TestStatus.PENDING ? "pending" : status.name().toLowerCase(java.util.Locale.ROOT));
        s.put("passed", passed);
        s.put("failed", failed);
        s.put("errored", 0);
        s.put("skipped", skipped);
        emit(m);
    }
}
