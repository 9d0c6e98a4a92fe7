package dev.strata.cli.logging;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.CoreConstants;
import ch.qos.logback.core.LayoutBase;
import dev.strata.cli.view.Json;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import java.util.Set;

/** The two line formats of the log: one line per event, each with the run id. */
final class LineLayouts {
    private LineLayouts() {}

    private static final DateTimeFormatter TIMESTAMP =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSX").withZone(ZoneOffset.UTC);

    static String timestamp(ILoggingEvent e) {
        return TIMESTAMP.format(Instant.ofEpochMilli(e.getTimeStamp()));
    }

    /**
     * The MDC's run id when the logging thread set one, otherwise the process's: MDC is per-thread and
     * not inherited by pool threads, so the context property is what guarantees every line has an id.
     */
    static String runId(LayoutBase<ILoggingEvent> layout, ILoggingEvent e) {
        String id = e.getMDCPropertyMap().get(RunId.KEY);
        if (id == null && layout.getContext() != null) {
            id = layout.getContext().getProperty(RunId.KEY);
        }
        return id == null ? "" : id;
    }

    /** {@code 2026-01-02T03:04:05.678Z [DEBUG] run=0a1b2c3d4e5f [main] dev.strata.x.Y: message} */
    static final class Human extends LayoutBase<ILoggingEvent> {
        @Override
        public String doLayout(ILoggingEvent e) {
            StringBuilder sb = new StringBuilder(128);
            sb.append(timestamp(e))
                    .append(" [")
                    .append(e.getLevel())
                    .append("] run=")
                    .append(runId(this, e))
                    .append(" [")
                    .append(e.getThreadName())
                    .append("] ")
                    .append(e.getLoggerName())
                    .append(": ")
                    .append(e.getFormattedMessage())
                    .append(CoreConstants.LINE_SEPARATOR);
            IThrowableProxy t = e.getThrowableProxy();
            if (t != null) {
                sb.append(ThrowableProxyUtil.asString(t));
            }
            return sb.toString();
        }
    }

    /**
     * One JSON object per line: {@code timestamp, level, logger, message, run_id, thread}, then
     * {@code exception} when there is one and any other MDC entries.
     */
    static final class JsonLines extends LayoutBase<ILoggingEvent> {
        private static final Set<String> FIXED =
                Set.of("timestamp", "level", "logger", "message", RunId.KEY, "thread", "exception");

        @Override
        public String doLayout(ILoggingEvent e) {
            StringBuilder sb = new StringBuilder(192).append('{');
            field(sb, "timestamp", timestamp(e)).append(',');
            field(sb, "level", e.getLevel().toString()).append(',');
            field(sb, "logger", e.getLoggerName()).append(',');
            field(sb, "message", e.getFormattedMessage()).append(',');
            field(sb, RunId.KEY, runId(this, e)).append(',');
            field(sb, "thread", e.getThreadName());
            IThrowableProxy t = e.getThrowableProxy();
            if (t != null) {
                sb.append(',');
                field(sb, "exception", ThrowableProxyUtil.asString(t));
            }
            for (Map.Entry<String, String> m : e.getMDCPropertyMap().entrySet()) {
                if (!FIXED.contains(m.getKey())) {
                    sb.append(',');
                    field(sb, m.getKey(), m.getValue() == null ? "" : m.getValue());
                }
            }
            return sb.append('}').append('\n').toString();
        }

        private static StringBuilder field(StringBuilder sb, String name, String value) {
            return sb.append(Json.quote(name)).append(':').append(Json.quote(value == null ? "" : value));
        }
    }
}
