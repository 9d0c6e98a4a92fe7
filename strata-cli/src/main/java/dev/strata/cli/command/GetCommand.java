package dev.strata.cli.command;

import dev.strata.cli.view.CliDiagnostic;
import dev.strata.cli.view.ModulesView;
import dev.strata.config.ConfigLoader;
import dev.strata.config.ModuleInstaller;
import dev.strata.hcl.Result;
import java.util.List;

/**
 * {@code strata get [-update]}: the module half of {@code init}. Installs the modules the configuration
 * calls (and theirs) as {@code init} does, printing one line per module as {@code terraform get} does,
 * and touches neither the backend nor the providers.
 */
final class GetCommand implements Command {
    private static final FlagSet FLAGS = new FlagSet();
    private static final Flag<Boolean> UPDATE = FLAGS.bool(
            "update",
            false,
            "Install every module again from its source, even where an earlier run installed it from the same source.");

    @Override
    public String name() {
        return "get";
    }

    @Override
    public String synopsis() {
        return "Install or upgrade remote Strata modules";
    }

    @Override
    public Section section() {
        return Section.OTHER;
    }

    @Override
    public String description() {
        return "Downloads and installs modules needed for the configuration in the current working directory, "
                + "into .strata/modules, and records the module tree in .strata/modules/modules.json.\n\n"
                + "This installs the modules of every module the root calls, recursively. A module installed "
                + "earlier from the same source is kept unless -update is given. Local paths (./ or ../) are read "
                + "in place. Module installation also happens as part of \"strata init\", so this command is only "
                + "needed to refresh the modules without touching the backend or the providers.";
    }

    @Override
    public FlagSet flags() {
        return FLAGS;
    }

    /** The arguments: whether to install again modules that are already installed. */
    record Args(boolean update) {
        static Parsed<Args> parse(ParsedArgs args) {
            Args parsed = new Args(args.get(UPDATE));
            if (!args.positionals().isEmpty()) {
                return new Parsed<>(
                        parsed,
                        List.of(CliDiagnostic.error(
                                "Unexpected argument",
                                "The get command takes no arguments; use the global -chdir option to install the "
                                        + "modules of another directory.")));
            }
            return Parsed.of(parsed);
        }
    }

    @Override
    public int run(CommandContext context, ParsedArgs parsed) {
        ModulesView view = ModulesView.human(context);
        Parsed<Args> args = Args.parse(parsed);
        if (args.hasErrors()) {
            view.diagnostics(args.diagnostics());
            return 1;
        }
        Result<dev.strata.config.RemoteAccess> access = RemoteModuleAccess.of(context);
        if (access.hasErrors()) {
            view.diagnostics(access.diagnostics(), dev.strata.hcl.DiagnosticRenderer.NO_SOURCES);
            return 1;
        }
        Result<ModuleInstaller.Installation> installed = ModuleInstaller.install(
                context.workingDir(), ConfigLoader.Options.DEFAULT, args.value().update(), access.value());
        // As Terraform: a module whose download failed is listed as downloading, its error follows.
        for (ModuleInstaller.Step step : installed.value().listing()) {
            switch (step.action()) {
                case INSTALLED -> {
                    view.downloading(step.label(), step.key());
                    view.installed(step.key(), step.dir());
                }
                case FAILED -> view.downloading(step.label(), step.key());
                case LOCAL -> view.installed(step.key(), step.dir());
                // As Terraform: a module kept from an earlier run is not listed again.
                case REUSED -> {}
            }
        }
        view.diagnostics(installed.diagnostics(), installed.value().tree().diagnosticSources());
        return installed.hasErrors() ? 1 : 0;
    }
}
