package dev.strata.engine;

import dev.strata.addr.AbsResourceInstance;
import dev.strata.addr.Targetable;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * How to plan.
 *
 * @param workingDir  the directory paths in the configuration are relative to ({@code path.cwd})
 * @param workspace   the selected workspace ({@code terraform.workspace})
 * @param refresh     whether to read every managed object through its provider first
 * @param targets     {@code -target} addresses; empty means everything
 * @param replace     {@code -replace} addresses
 * @param parallelism how many provider operations may run at once
 */
public record PlanOptions(Path workingDir, String workspace, PlanMode mode, boolean refresh,
                          List<Targetable> targets, List<AbsResourceInstance> replace, int parallelism) {
    public PlanOptions {
        Objects.requireNonNull(workingDir, "workingDir");
        workspace = workspace == null ? "default" : workspace;
        Objects.requireNonNull(mode, "mode");
        targets = List.copyOf(targets);
        replace = List.copyOf(replace);
        if (parallelism < 1) {
            throw new IllegalArgumentException("parallelism must be at least 1");
        }
    }

    public static PlanOptions defaults(Path workingDir) {
        return new PlanOptions(workingDir, "default", PlanMode.NORMAL, true, List.of(), List.of(), 10);
    }
}
