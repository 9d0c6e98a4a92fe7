package dev.strata.sdk;

import java.util.List;

/** A stack in Terraform's JSON syntax ({@code main.tf.json}), and the problems found on the way. */
public record Synthesis(String json, List<Problem> problems) {
    public Synthesis {
        problems = List.copyOf(problems);
    }

    public boolean hasErrors() {
        return !problems.isEmpty();
    }
}
