package dev.strata.config;

import dev.strata.hcl.Body;
import dev.strata.hcl.SourceRange;

/**
 * A {@code provisioner} block of a managed resource: its type ({@code local-exec}, {@code file},
 * {@code remote-exec}), when it runs, what a failure does, the type's own arguments ({@code config},
 * decoded when it runs because they may refer to {@code self}) and its own {@code connection} block, if any
 * (null: the resource's applies).
 */
public record Provisioner(
        String type,
        When when,
        OnFailure onFailure,
        Body config,
        Connection connection,
        SourceRange declRange,
        SourceRange typeRange) {

    /** {@code when}: after the object is created, or before it is destroyed. */
    public enum When {
        CREATE,
        DESTROY
    }

    /** {@code on_failure}: whether a failed provisioner fails the apply (and taints a new object). */
    public enum OnFailure {
        FAIL,
        CONTINUE
    }

    /** A {@code connection} block: how {@code file} and {@code remote-exec} reach the machine. */
    public record Connection(Body config, SourceRange declRange) {}
}
