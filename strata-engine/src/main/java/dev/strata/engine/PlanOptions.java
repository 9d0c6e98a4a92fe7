package dev.strata.engine;

import dev.strata.addr.AbsResourceInstance;
import dev.strata.addr.Targetable;
import dev.strata.config.VariableOrigins;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * How to plan.
 *
 * @param workingDir  the directory paths in the configuration are relative to (after {@code -chdir})
 * @param startDir    the directory the command was started in, before {@code -chdir}: {@code path.cwd},
 *                    as in Terraform
 * @param workspace   the selected workspace ({@code terraform.workspace})
 * @param refresh     whether to read every managed object through its provider first
 * @param targets     {@code -target} addresses; empty means everything
 * @param excludes    {@code -exclude} addresses (OpenTofu 1.9+): these and what depends on them are left out;
 *                    never together with {@code targets}
 * @param replace     {@code -replace} addresses
 * @param parallelism how many provider operations may run at once
 * @param variables   where the root module's input variables were set and what was wrong with their values,
 *                    which the walk reports ({@link VariableOrigins#NONE} for values given by a program)
 */
public record PlanOptions(
        Path workingDir,
        Path startDir,
        String workspace,
        PlanMode mode,
        boolean refresh,
        List<Targetable> targets,
        List<Targetable> excludes,
        List<AbsResourceInstance> replace,
        int parallelism,
        VariableOrigins variables) {
    public PlanOptions {
        Objects.requireNonNull(workingDir, "workingDir");
        Objects.requireNonNull(startDir, "startDir");
        workspace = workspace == null ? "default" : workspace;
        Objects.requireNonNull(mode, "mode");
        targets = List.copyOf(targets);
        excludes = List.copyOf(excludes);
        if (!targets.isEmpty() && !excludes.isEmpty()) {
            throw new IllegalArgumentException("targets and excludes exclude each other");
        }
        replace = List.copyOf(replace);
        if (parallelism < 1) {
            throw new IllegalArgumentException("parallelism must be at least 1");
        }
        Objects.requireNonNull(variables, "variables");
    }

    /** Options whose variables have no origins ({@link VariableOrigins#NONE}). */
    public PlanOptions(
            Path workingDir,
            Path startDir,
            String workspace,
            PlanMode mode,
            boolean refresh,
            List<Targetable> targets,
            List<Targetable> excludes,
            List<AbsResourceInstance> replace,
            int parallelism) {
        this(
                workingDir,
                startDir,
                workspace,
                mode,
                refresh,
                targets,
                excludes,
                replace,
                parallelism,
                VariableOrigins.NONE);
    }

    /** These options with the root variables' {@code origins}. */
    public PlanOptions withVariables(VariableOrigins origins) {
        return new PlanOptions(
                workingDir, startDir, workspace, mode, refresh, targets, excludes, replace, parallelism, origins);
    }

    /** Options without {@code -exclude}. */
    public PlanOptions(
            Path workingDir,
            Path startDir,
            String workspace,
            PlanMode mode,
            boolean refresh,
            List<Targetable> targets,
            List<AbsResourceInstance> replace,
            int parallelism) {
        this(workingDir, startDir, workspace, mode, refresh, targets, List.of(), replace, parallelism);
    }

    /** Options of a command started in the directory it works in (no {@code -chdir}). */
    public PlanOptions(
            Path workingDir,
            String workspace,
            PlanMode mode,
            boolean refresh,
            List<Targetable> targets,
            List<AbsResourceInstance> replace,
            int parallelism) {
        this(workingDir, workingDir, workspace, mode, refresh, targets, replace, parallelism);
    }

    public static PlanOptions defaults(Path workingDir) {
        return new PlanOptions(workingDir, "default", PlanMode.NORMAL, true, List.of(), List.of(), 10);
    }
}
