package dev.strata.sdk;

import java.util.List;
import java.util.stream.Collectors;

/** The program's stack cannot be synthesised; {@link #problems()} says why and where. */
public final class SynthesisException extends Exception {
    private static final long serialVersionUID = 1L;
    private final transient List<Problem> problems;

    SynthesisException(List<Problem> problems) {
        super(problems.stream().map(Problem::toString).collect(Collectors.joining("\n\n")));
        this.problems = List.copyOf(problems);
    }

    public List<Problem> problems() {
        return problems;
    }
}
