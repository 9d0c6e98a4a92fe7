package dev.strata.config;

import java.util.Optional;

/**
 * Asks the person running a command for the value of a root module input variable that no other
 * source set and that has no default, as Terraform does when its input is a terminal and
 * {@code -input} is true. The CLI supplies a terminal-backed implementation; {@link InputVariables}
 * decides which variables to ask for (required ones without a value, by name) and parses the answers
 * as it parses {@code -var} values.
 */
public interface Prompter {
    /**
     * Asks for one variable. The implementation shows {@code var.NAME}, the variable's description
     * and "Enter a value:", and reads the answer without echo when the variable is sensitive.
     *
     * @return the text entered (possibly empty), or empty when no answer can be had (input closed or
     *         interrupted), which leaves the variable unset
     */
    Optional<String> ask(VariableConfig variable);
}
