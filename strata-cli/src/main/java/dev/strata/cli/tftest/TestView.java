package dev.strata.cli.tftest;

import dev.strata.hcl.DiagnosticRenderer;
import dev.strata.hcl.Diagnostics;
import java.util.List;

/**
 * What {@code strata test} shows while it works (ADR 0010: one view, human and JSON forms). Called
 * from one thread, in the order the runner works: a file starts, its runs finish one by one, it is
 * torn down and ends; the summary comes last.
 */
public interface TestView {

    /** Problems outside any run: the command line, the configuration, a test file that does not decode. */
    void diagnostics(String file, String run, Diagnostics diags, DiagnosticRenderer.Sources sources);

    /** Before any file runs: the files and their run blocks, in the order they will run. */
    default void plan(java.util.SequencedMap<String, List<String>> files) {}

    void fileStart(String file);

    /** A run block starts; it has {@code assertions} assert blocks. Not called for a skipped run. */
    default void runStarted(String file, String run, int assertions) {}

    /**
     * A run block finished with {@code status}; {@code detail} is the plan or state text shown with
     * {@code -verbose} (null otherwise), {@code diags} what the run reported.
     */
    void run(
            String file,
            String run,
            TestStatus status,
            String detail,
            Diagnostics diags,
            DiagnosticRenderer.Sources sources);

    void teardown(String file);

    /** Objects that cleanup could not destroy, with what it reported. */
    void cleanupFailed(
            String file, String run, List<String> left, Diagnostics diags, DiagnosticRenderer.Sources sources);

    void fileEnd(String file, TestStatus status);

    /** The last lines: how many runs passed, failed and were skipped. */
    void summary(TestStatus status, int passed, int failed, int skipped);
}
