package dev.strata.sdk;

import java.util.List;

/**
 * A stack in Terraform's JSON syntax ({@code main.tf.json}), the problems found on the way, and the
 * source map ({@code main.tf.json.sites}: which program line produced which lines of the JSON).
 */
public record Synthesis(String json, List<Problem> problems, String sourceMap) {
    public Synthesis {
        problems = List.copyOf(problems);
    }

    public boolean hasErrors() {
        return !problems.isEmpty();
    }
}
