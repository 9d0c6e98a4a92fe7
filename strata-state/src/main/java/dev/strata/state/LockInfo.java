package dev.strata.state;

import dev.strata.hcl.Result;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Who holds a state lock, as kept in the lock-info file next to the state. The first seven fields are
 * Terraform's ({@code .terraform.tfstate.lock.info} carries them under the same JSON names); the rest
 * let another process judge whether the holder is still alive.
 *
 * @param id           the lock ID, given to {@code force-unlock}
 * @param operation    what the holder is doing
 * @param who          {@code user@host}
 * @param version      the holder's Strata version
 * @param created      when the lock was taken
 * @param path         the state file the lock protects
 * @param host         the holder's host name, to know whether {@code pid} can be checked here
 * @param pid          the holder's process id
 * @param processStart when that process started (guards against a reused pid), or null if unknown
 * @param heartbeat    last time the holder proved it is alive
 */
public record LockInfo(
        String id,
        String operation,
        String info,
        String who,
        String version,
        Instant created,
        String path,
        String host,
        long pid,
        Instant processStart,
        Instant heartbeat) {
    public LockInfo {
        Objects.requireNonNull(id, "id");
        operation = operation == null ? "" : operation;
        info = info == null ? "" : info;
        who = who == null ? "" : who;
        version = version == null ? "" : version;
        path = path == null ? "" : path;
        host = host == null ? "" : host;
    }

    public LockInfo withHeartbeat(Instant at) {
        return new LockInfo(id, operation, info, who, version, created, path, host, pid, processStart, at);
    }

    /** How long the lock has been held, for messages. */
    public Duration age(Instant now) {
        return created == null ? Duration.ZERO : Duration.between(created, now);
    }

    byte[] toJson() {
        Map<String, JsonValue> m = new LinkedHashMap<>();
        m.put("ID", JsonValue.of(id));
        m.put("Operation", JsonValue.of(operation));
        m.put("Info", JsonValue.of(info));
        m.put("Who", JsonValue.of(who));
        m.put("Version", JsonValue.of(version));
        m.put("Created", created == null ? JsonValue.NULL : JsonValue.of(goTime(created)));
        m.put("Path", JsonValue.of(path));
        m.put("Host", JsonValue.of(host));
        m.put("Pid", JsonValue.NumberValue.of(pid));
        m.put("ProcessStart", processStart == null ? JsonValue.NULL : JsonValue.of(goTime(processStart)));
        m.put("Heartbeat", heartbeat == null ? JsonValue.NULL : JsonValue.of(goTime(heartbeat)));
        return new JsonValue.ObjectValue(m).toCompactJson().getBytes(StandardCharsets.UTF_8);
    }

    /** Parses a lock-info file; Terraform-written ones (no pid, no heartbeat) are accepted. */
    static Result<LockInfo> parse(byte[] bytes, String filename) {
        Result<JsonValue> r = JsonReader.parseDocument(bytes, filename);
        if (r.hasErrors()
                || !(r.value() instanceof JsonValue.ObjectValue o)
                || !(o.get("ID") instanceof JsonValue.StringValue)) {
            return Result.of(
                    null,
                    r.hasErrors()
                            ? r.diagnostics()
                            : dev.strata.hcl.Diagnostics.of(dev.strata.hcl.Diagnostic.error(
                                    "Invalid lock info", "The lock info file " + filename + " has no lock ID.", null)));
        }
        long pid = o.get("Pid") instanceof JsonValue.NumberValue n && n.isLong()
                ? n.decimal().longValueExact()
                : 0;
        return Result.of(new LockInfo(
                text(o, "ID"),
                text(o, "Operation"),
                text(o, "Info"),
                text(o, "Who"),
                text(o, "Version"),
                time(o, "Created"),
                text(o, "Path"),
                text(o, "Host"),
                pid,
                time(o, "ProcessStart"),
                time(o, "Heartbeat")));
    }

    private static String text(JsonValue.ObjectValue o, String k) {
        return o.get(k) instanceof JsonValue.StringValue s ? s.value() : "";
    }

    private static Instant time(JsonValue.ObjectValue o, String k) {
        if (!(o.get(k) instanceof JsonValue.StringValue s)) {
            return null;
        }
        try {
            return OffsetDateTime.parse(s.value()).toInstant();
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    /** Go's RFC 3339 with nanoseconds, trailing zeros of the fraction dropped, as Terraform writes times. */
    static String goTime(Instant t) {
        String s = t.toString();
        int dot = s.indexOf('.');
        if (dot < 0) {
            return s;
        }
        int end = s.length() - 1;
        int i = end;
        while (i > dot && s.charAt(i - 1) == '0') {
            i--;
        }
        String frac = s.substring(dot, i);
        return s.substring(0, dot) + (frac.equals(".") ? "" : frac) + "Z";
    }

    /** The "Lock Info:" block Terraform prints under a lock error, one field per line. */
    String describe() {
        return "Lock Info:\n  ID:        " + id() + "\n  Path:      " + path() + "\n  Operation: " + operation()
                + "\n  Who:       " + who() + "\n  Version:   " + version() + "\n  Created:   " + created()
                + "\n  Info:      " + info() + "\n";
    }
}
