package dev.strata.cli.logging;

import dev.strata.cli.view.CliDiagnostic;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Logging as asked for by the environment.
 *
 * @param level    the threshold, or {@code OFF} for no logging at all
 * @param file     where to append log lines; null for stderr
 * @param format   human lines or JSON lines
 * @param warnings problems with the variables; logging still goes ahead with what was understood
 */
public record LogSettings(Level level, Path file, Format format, List<CliDiagnostic> warnings) {

    public static final String LEVEL_VAR = "STRATA_LOG";
    public static final String PATH_VAR = "STRATA_LOG_PATH";
    public static final String FORMAT_VAR = "STRATA_LOG_FORMAT";

    public enum Level {
        OFF,
        ERROR,
        WARN,
        INFO,
        DEBUG,
        TRACE
    }

    public enum Format {
        HUMAN,
        JSON
    }

    public LogSettings {
        warnings = List.copyOf(warnings);
    }

    /** Reads {@code STRATA_LOG}, {@code STRATA_LOG_PATH}, {@code STRATA_LOG_FORMAT}; relative paths resolve against {@code workingDir}. */
    public static LogSettings fromEnv(Map<String, String> env, Path workingDir) {
        List<CliDiagnostic> warnings = new ArrayList<>();
        String rawLevel = blankToNull(env.get(LEVEL_VAR));
        Level level = Level.OFF;
        if (rawLevel != null) {
            level = switch (rawLevel.trim().toLowerCase(Locale.ROOT)) {
                case "trace" -> Level.TRACE;
                case "debug" -> Level.DEBUG;
                case "info" -> Level.INFO;
                case "warn" -> Level.WARN;
                case "error" -> Level.ERROR;
                case "off" -> Level.OFF;
                default -> {
                    warnings.add(CliDiagnostic.warning(
                            "Invalid " + LEVEL_VAR + " value",
                            LEVEL_VAR + " is set to \"" + rawLevel + "\", which is not a log level. Valid values are "
                                    + "trace, debug, info, warn, error and off. Logging is off for this run."));
                    yield Level.OFF;
                }
            };
        }
        String rawFormat = blankToNull(env.get(FORMAT_VAR));
        Format format = Format.HUMAN;
        if (rawFormat != null) {
            switch (rawFormat.trim().toLowerCase(Locale.ROOT)) {
                case "json" -> format = Format.JSON;
                case "human", "text" -> format = Format.HUMAN;
                default ->
                    warnings.add(CliDiagnostic.warning(
                            "Invalid " + FORMAT_VAR + " value",
                            FORMAT_VAR + " is set to \"" + rawFormat + "\". Valid values are human and json. "
                                    + "Using human-readable lines."));
            }
        }
        String rawPath = blankToNull(env.get(PATH_VAR));
        Path file = rawPath == null
                ? null
                : workingDir.resolve(rawPath).toAbsolutePath().normalize();
        return new LogSettings(level, file, format, warnings);
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }
}
