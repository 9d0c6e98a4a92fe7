package dev.strata.cli.command;

import dev.strata.cli.version.Version;
import dev.strata.cli.view.View;
import dev.strata.config.ConfigLoader;
import dev.strata.config.ConfigTree;
import dev.strata.engine.Engine;
import dev.strata.engine.PlanMode;
import dev.strata.engine.PlanOptions;
import dev.strata.hcl.Result;
import dev.strata.state.StateManager;

/**
 * The one sequence of the commands that plan, apply or import: interrupts taken over, the
 * configuration loaded and validated with its input variables and its {@link Engine} built, the
 * selected workspace's state opened under its lock, the engine stopped by the first interrupt, and
 * then the command's own work ({@link Body}) with all of that ({@link Session}). Each step reports its
 * problems through the command's view and ends the command with status 1. {@code validate} and
 * {@code graph}, which need neither variables nor state, use {@link #loadTree} and {@link #engine}.
 */
final class OperationRunner {
    private OperationRunner() {}

    /**
     * What a command asks of the runner.
     *
     * @param lockOperation the operation the state lock names (Terraform's {@code OperationTypePlan}, ...)
     * @param needs         what the empty-directory guard reports; null when the command works without
     *                      configuration files
     * @param savedPlan     whether a saved plan holds the variables' values (unset ones are no error)
     * @param readOnly      whether the state is only read, without its lock
     * @param showsWarnings whether the command's own work shows the warnings of loading ({@link
     *                      Operation.Loaded#warnings()}) with its diagnostics, as Terraform's plan, apply and
     *                      import do after their output; otherwise they are shown as soon as loading ends
     */
    record Request(
            String lockOperation, Operation.Needs needs, boolean savedPlan, boolean readOnly, boolean showsWarnings) {
        Request(String lockOperation, Operation.Needs needs, boolean savedPlan) {
            this(lockOperation, needs, savedPlan, false, true);
        }

        /** A command that only reads the state (drift): it takes no lock, whatever the flags say. */
        static Request readOnly(String lockOperation) {
            return new Request(lockOperation, null, false, true, false);
        }
    }

    /** What the command's own work has: the loaded configuration with its engine, and the locked state. */
    record Session(
            CommandContext context,
            ParsedArgs args,
            Operation.Loaded loaded,
            StateManager state,
            String workspace,
            Interrupts signals) {
        Engine engine() {
            return loaded.engine();
        }

        /**
         * The plan options the flags of {@code op} give for {@code mode}, with the input variables' origins;
         * null after reporting a problem.
         */
        PlanOptions options(Operation op, PlanMode mode, View view) {
            PlanOptions options = op.options(context, args, mode, workspace, view);
            return options == null ? null : options.withVariables(loaded.origins());
        }
    }

    /** A command's own work; returns its exit status. */
    interface Body {
        int run(Session session);
    }

    /** Runs {@code body} after the common steps; the lock is released and the interrupts given back after it. */
    static int run(CommandContext context, ParsedArgs args, Operation op, View view, Request request, Body body) {
        HeapGrowth.limit();
        try (Interrupts signals = Interrupts.install(context)) {
            Operation.Loaded loaded = op.load(context, args, view, request.savedPlan());
            if (loaded != null && !request.showsWarnings()) {
                view.diagnostics(loaded.warnings(), loaded.sources());
            }
            if (loaded == null
                    || request.needs() != null
                            && !Operation.checkConfigPresent(context, loaded, request.needs(), view)) {
                return 1;
            }
            Operation.Opened opened = op.openState(
                    context,
                    loaded.tree().root().module(),
                    args,
                    request.readOnly() ? null : request.lockOperation(),
                    view,
                    loaded.sources(),
                    signals);
            if (opened == null) {
                return 1;
            }
            try (StateManager state = opened.state();
                    var stop = signals.onStop(loaded.engine()::stop)) {
                return body.run(new Session(context, args, loaded, state, opened.workspace(), signals));
            }
        }
    }

    /** The configuration in the working directory, as loaded (with its problems). */
    static Result<ConfigTree> loadTree(CommandContext context) {
        return ConfigLoader.loadTree(context.workingDir(), ConfigLoader.Options.DEFAULT.withEnvironment(context.env()));
    }

    /** The engine for {@code tree}: this build's providers, its version, the command's environment. */
    static Engine engine(CommandContext context, ConfigTree tree) {
        return Engine.builder(tree, Operation.providers(context), Version.current())
                .environment(context.env())
                .build();
    }
}
