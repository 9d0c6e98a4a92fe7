package dev.strata.state;

import java.util.List;
import java.util.Objects;

/**
 * The result of one checkable configuration object (a resource with conditions, an output with
 * preconditions, a {@code check} block) from the last run.
 *
 * @param objects null when the state recorded {@code "objects": null} (the objects were not known),
 *                which Terraform distinguishes from an empty list
 */
public record CheckResult(
        String objectKind, String configAddr, String status, List<CheckObject> objects, JsonValue.ObjectValue extra) {
    public CheckResult {
        Objects.requireNonNull(objectKind, "objectKind");
        Objects.requireNonNull(configAddr, "configAddr");
        Objects.requireNonNull(status, "status");
        objects = objects == null ? null : List.copyOf(objects);
        extra = extra == null ? JsonValue.EMPTY_OBJECT : extra;
    }

    /** One expanded object of a checkable configuration object. */
    public record CheckObject(
            String objectAddr, String status, List<String> failureMessages, JsonValue.ObjectValue extra) {
        public CheckObject {
            Objects.requireNonNull(objectAddr, "objectAddr");
            Objects.requireNonNull(status, "status");
            failureMessages = failureMessages == null ? List.of() : List.copyOf(failureMessages);
            extra = extra == null ? JsonValue.EMPTY_OBJECT : extra;
        }
    }
}
