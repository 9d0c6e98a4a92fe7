package dev.strata.engine;

import java.util.List;

/** What a plan does to one resource instance object. */
public enum Action {
    NO_OP("no-op"),
    CREATE("create"),
    READ("read"),
    UPDATE("update"),
    DELETE_THEN_CREATE("delete", "create"),
    CREATE_THEN_DELETE("create", "delete"),
    DELETE("delete"),
    /** Removed from state without destroying the remote object ({@code removed} with {@code destroy = false}). */
    FORGET("forget");

    private final List<String> jsonActions;

    Action(String... json) {
        this.jsonActions = List.of(json);
    }

    /** The {@code change.actions} array of Terraform's plan JSON. */
    public List<String> jsonActions() {
        return jsonActions;
    }

    public boolean isReplace() {
        return this == DELETE_THEN_CREATE || this == CREATE_THEN_DELETE;
    }

    public boolean creates() {
        return this == CREATE || isReplace();
    }

    public boolean deletes() {
        return this == DELETE || isReplace();
    }
}
