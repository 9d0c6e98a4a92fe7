package dev.strata.sdk.testing;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.SortedMap;

/**
 * The plan of a stack against an empty state: resource changes in Terraform's order and the root
 * outputs' planned values (JSON null for one known only after apply).
 */
public record PlannedStack(List<PlannedChange> changes, SortedMap<String, JsonNode> outputs) {
    public PlannedStack {
        changes = List.copyOf(changes);
        outputs = java.util.Collections.unmodifiableSortedMap(new java.util.TreeMap<>(outputs));
    }

    /** The change of {@code address}; throws when the plan has none. */
    public PlannedChange change(String address) {
        return changes.stream()
                .filter(c -> c.address().equals(address))
                .findFirst()
                .orElseThrow(() -> new NoSuchElementException("the plan has no change for " + address + "; it has "
                        + changes.stream().map(PlannedChange::address).toList()));
    }

    /** The addresses of the changes, in the plan's order. */
    public List<String> addresses() {
        return changes.stream().map(PlannedChange::address).toList();
    }
}
