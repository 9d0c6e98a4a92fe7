/**
 * The project's logging: SLF4J everywhere, Logback set up in code by {@link dev.strata.cli.logging.Logging}
 * from {@code STRATA_LOG} (level), {@code STRATA_LOG_PATH} (append to a file instead of stderr) and
 * {@code STRATA_LOG_FORMAT} ({@code json} for one JSON object per line). Every line carries the run id
 * ({@link dev.strata.cli.logging.RunId}).
 *
 * <p><b>Rule for every log statement in every module:</b> never format a raw value that may be
 * sensitive — attribute values, variable values, outputs, provider configuration, credentials,
 * environment values, request or response bodies. Log addresses, names, types, counts and durations
 * instead; when a value must be mentioned, wrap it in {@link dev.strata.cli.logging.Sensitive} (or use
 * the value model's sensitive marks), whose {@code toString()} is {@code (sensitive value)}.
 * A sensitive value in a log line is a bug, like one in plan output.
 */
package dev.strata.cli.logging;
