package dev.strata.state;

import java.util.List;
import java.util.Objects;

/**
 * A path into a resource's attributes, as {@code sensitive_attributes} records them: a list of steps,
 * each an attribute name or an index whose key is a typed cty value ({@code {"value":0,"type":"number"}}).
 */
public record AttributePath(List<Step> steps) {
    public AttributePath {
        steps = List.copyOf(steps);
    }

    public sealed interface Step {}

    public record GetAttr(String name) implements Step {
        public GetAttr {
            Objects.requireNonNull(name, "name");
        }
    }

    /** An index step; {@code key} is the JSON the state holds for it, kept raw like attributes. */
    public record Index(JsonValue key) implements Step {
        public Index {
            Objects.requireNonNull(key, "key");
        }
    }

    /** Terraform-style rendering for messages, e.g. {@code .tags["Name"]}. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        for (Step s : steps) {
            switch (s) {
                case GetAttr g -> sb.append('.').append(g.name());
                case Index i ->
                    sb.append('[')
                            .append(
                                    i.key() instanceof JsonValue.ObjectValue o && o.get("value") != null
                                            ? o.get("value").toCompactJson()
                                            : i.key().toCompactJson())
                            .append(']');
            }
        }
        return sb.toString();
    }
}
