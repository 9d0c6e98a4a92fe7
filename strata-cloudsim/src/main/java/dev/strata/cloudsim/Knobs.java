package dev.strata.cloudsim;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The simulator's behaviour settings. Delays are milliseconds; rates are fractions of requests
 * (0 to 1), except {@code ratePerSecond}, the token-bucket refill rate per client (0 = unlimited).
 */
public record Knobs(
        long consistencyDelayMs,
        long provisionDelayMs,
        double ratePerSecond,
        int burst,
        double faultRate,
        long latencyMs,
        long latencyJitterMs,
        double timeoutRate,
        long timeoutMs) {

    public static final Knobs DEFAULT = new Knobs(0, 0, 0, 10, 0, 0, 0, 0, 1000);

    public Knobs {
        if (consistencyDelayMs < 0
                || provisionDelayMs < 0
                || ratePerSecond < 0
                || burst < 1
                || latencyMs < 0
                || latencyJitterMs < 0
                || timeoutMs < 0
                || !fraction(faultRate)
                || !fraction(timeoutRate)) {
            throw new IllegalArgumentException("invalid simulator settings");
        }
    }

    private static boolean fraction(double d) {
        return d >= 0 && d <= 1;
    }

    /** The settings as the admin endpoint shows and takes them. */
    public com.fasterxml.jackson.databind.node.ObjectNode toJson() {
        var o = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        o.put("consistency_delay_ms", consistencyDelayMs);
        o.put("provision_delay_ms", provisionDelayMs);
        o.put("rate_per_second", ratePerSecond);
        o.put("burst", burst);
        o.put("fault_rate", faultRate);
        o.put("latency_ms", latencyMs);
        o.put("latency_jitter_ms", latencyJitterMs);
        o.put("timeout_rate", timeoutRate);
        o.put("timeout_ms", timeoutMs);
        return o;
    }

    /** These settings with the fields present in {@code json} replaced. */
    public Knobs with(JsonNode json) {
        return new Knobs(
                json.path("consistency_delay_ms").asLong(consistencyDelayMs),
                json.path("provision_delay_ms").asLong(provisionDelayMs),
                json.path("rate_per_second").asDouble(ratePerSecond),
                json.path("burst").asInt(burst),
                json.path("fault_rate").asDouble(faultRate),
                json.path("latency_ms").asLong(latencyMs),
                json.path("latency_jitter_ms").asLong(latencyJitterMs),
                json.path("timeout_rate").asDouble(timeoutRate),
                json.path("timeout_ms").asLong(timeoutMs));
    }
}
