package dev.strata.config;

import dev.strata.hcl.Expression;
import dev.strata.hcl.SourceRange;
import dev.strata.hcl.Traversal;
import java.util.List;

/**
 * A resource's {@code lifecycle { action_trigger }} block: the actions to invoke when the resource
 * goes through one of {@code events}, when {@code condition} (null if absent) holds.
 */
public record ActionTrigger(List<Event> events, Expression condition, List<Traversal> actions, SourceRange declRange) {
    public ActionTrigger {
        events = List.copyOf(events);
        actions = List.copyOf(actions);
    }

    /** The lifecycle events Terraform lets an action trigger on. */
    public enum Event {
        BEFORE_CREATE,
        AFTER_CREATE,
        BEFORE_UPDATE,
        AFTER_UPDATE;

        public String keyword() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        static Event of(String keyword) {
            for (Event e : values()) {
                if (e.keyword().equals(keyword)) {
                    return e;
                }
            }
            return null;
        }
    }
}
