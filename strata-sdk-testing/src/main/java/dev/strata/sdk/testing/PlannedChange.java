package dev.strata.sdk.testing;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.SortedSet;

/**
 * One planned resource change, as a test sees it.
 *
 * @param address the resource instance address, {@code terraform_data.x[0]}
 * @param actions Terraform's plan JSON actions: {@code ["create"]}, {@code ["delete", "create"]}, {@code ["no-op"]}
 * @param after   the planned values known now (sensitive ones as {@code "(sensitive value)"}), JSON null for a delete
 * @param unknown the attribute paths (dotted, {@code [i]} for elements) known only after apply
 */
public record PlannedChange(String address, List<String> actions, JsonNode after, SortedSet<String> unknown) {
    public PlannedChange {
        actions = List.copyOf(actions);
        unknown = java.util.Collections.unmodifiableSortedSet(new java.util.TreeSet<>(unknown));
    }

    /** A planned attribute ({@code after().path(name)}): missing for an unknown or unset one. */
    public JsonNode attribute(String name) {
        return after.path(name);
    }

    public boolean isUnknown(String path) {
        return unknown.contains(path);
    }
}
