package dev.strata.cli.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.FileAppender;
import ch.qos.logback.core.Layout;
import ch.qos.logback.core.OutputStreamAppender;
import ch.qos.logback.core.encoder.LayoutWrappingEncoder;
import dev.strata.cli.view.CliDiagnostic;
import dev.strata.cli.view.View;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Sets up the project's logging (SLF4J over Logback) for one run, in code, from {@link LogSettings}.
 * Every module logs through SLF4J; only this class knows Logback is underneath. Until
 * {@link #configure} runs, {@link OffByDefaultConfigurator} keeps Logback silent, so no
 * {@code logback.xml} on the class path can change what Strata prints.
 */
public final class Logging {
    private Logging() {}

    /**
     * Replaces any previous logging setup with the one {@code settings} asks for, publishing {@code runId}
     * to every line. Returns the settings' warnings plus any problem opening the log file (logging then
     * falls back to stderr); the caller shows them.
     */
    public static synchronized List<CliDiagnostic> configure(LogSettings settings, PrintStream stderr, String runId) {
        List<CliDiagnostic> warnings = new ArrayList<>(settings.warnings());
        LoggerContext lc = context();
        lc.reset();
        lc.putProperty(RunId.KEY, runId);
        MDC.put(RunId.KEY, runId);
        Logger root = lc.getLogger(Logger.ROOT_LOGGER_NAME);
        if (settings.level() == LogSettings.Level.OFF) {
            root.setLevel(Level.OFF);
            return warnings;
        }

        Layout<ILoggingEvent> layout = switch (settings.format()) {
            case HUMAN -> new LineLayouts.Human();
            case JSON -> new LineLayouts.JsonLines();
        };
        layout.setContext(lc);
        layout.start();
        LayoutWrappingEncoder<ILoggingEvent> encoder = new LayoutWrappingEncoder<>();
        encoder.setContext(lc);
        encoder.setLayout(layout);
        encoder.setCharset(StandardCharsets.UTF_8);
        encoder.start();

        OutputStreamAppender<ILoggingEvent> appender = null;
        if (settings.file() != null) {
            FileAppender<ILoggingEvent> file = new FileAppender<>();
            file.setContext(lc);
            file.setName("strata-file");
            file.setFile(settings.file().toString());
            file.setAppend(true);
            file.setEncoder(encoder);
            file.start();
            if (file.isStarted()) {
                appender = file;
            } else {
                warnings.add(CliDiagnostic.warning(
                        "Cannot write the log file",
                        "The file " + settings.file() + " named by " + LogSettings.PATH_VAR
                                + " could not be opened for appending. Logging to stderr instead."));
            }
        }
        if (appender == null) {
            OutputStreamAppender<ILoggingEvent> err = new OutputStreamAppender<>();
            err.setContext(lc);
            err.setName("strata-stderr");
            err.setEncoder(encoder);
            err.setOutputStream(new StderrStream(stderr));
            err.start();
            appender = err;
        }
        root.addAppender(appender);
        root.setLevel(level(settings.level()));
        // Apache HttpClient (the cloudsim provider's transport) logs whole requests and answers at DEBUG, which
        // would put resource attributes, sensitive ones too, into the log: its own lines stop at INFO.
        if (!root.getLevel().isGreaterOrEqual(Level.INFO)) {
            lc.getLogger("org.apache.hc").setLevel(Level.INFO);
        }
        return warnings;
    }

    /** Flushes and closes log files; called once a run is over. Logging is off afterwards. */
    public static synchronized void shutdown() {
        LoggerContext lc = context();
        lc.reset();
        lc.getLogger(Logger.ROOT_LOGGER_NAME).setLevel(Level.OFF);
        MDC.remove(RunId.KEY);
    }

    private static LoggerContext context() {
        if (LoggerFactory.getILoggerFactory() instanceof LoggerContext lc) {
            return lc;
        }
        throw new IllegalStateException(
                "SLF4J is not bound to Logback; check the class path for other SLF4J providers");
    }

    private static Level level(LogSettings.Level level) {
        return switch (level) {
            case OFF -> Level.OFF;
            case ERROR -> Level.ERROR;
            case WARN -> Level.WARN;
            case INFO -> Level.INFO;
            case DEBUG -> Level.DEBUG;
            case TRACE -> Level.TRACE;
        };
    }

    /**
     * stderr for the log. It belongs to the process, not to the appender: stopping the appender must not
     * close it. On a terminal it shares the screen with stdout, where views hold progress lines back for
     * up to 20 ms: each log line writes those first, so that it follows what happened before it.
     */
    private static final class StderrStream extends FilterOutputStream {
        StderrStream(OutputStream out) {
            super(out);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            View.flushAllPending();
            out.write(b, off, len);
        }

        @Override
        public void close() throws IOException {
            out.flush();
        }
    }
}
