package dev.strata.cli.view;

import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Path;

/**
 * What a view takes from the invocation's surroundings: the streams, the colour decision, the width and
 * the few settings that change how output looks. The command layer's context provides it; views know
 * nothing of commands, so that dependencies run one way (commands call views).
 */
public interface Terminal {

    InputStream stdin();

    PrintStream stdout();

    PrintStream stderr();

    /** Whether output may carry ANSI colour. */
    boolean colorAllowed();

    /** Columns available for wrapping human output. */
    int terminalWidth();

    /** The directory relative file names in messages resolve against. */
    Path workingDir();

    /** An environment variable, or null when unset or empty. */
    String getenv(String name);

    /** Whether TF_IN_AUTOMATION is set: output is for a wrapper, without hints at a person's next command. */
    boolean inAutomation();

    /**
     * Whether a batch of diagnostics that holds no error is shown as a list of warning summaries
     * ({@code -compact-warnings}); errors, and warnings beside them, are always shown in full.
     */
    default boolean compactWarnings() {
        return false;
    }
}
