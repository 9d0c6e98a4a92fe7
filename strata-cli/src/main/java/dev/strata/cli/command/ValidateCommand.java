package dev.strata.cli.command;

import dev.strata.addr.Provider;
import dev.strata.cli.view.ValidateView;
import dev.strata.config.ConfigLoader;
import dev.strata.config.ConfigTree;
import dev.strata.config.ProviderRequirements;
import dev.strata.config.Validator;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import java.util.List;

/**
 * {@code strata validate}: loads the configuration in the working directory with its local modules
 * and checks it statically, without variables' values, state or providers, as
 * {@code terraform validate} does. {@code -json} prints Terraform's validate JSON document.
 */
final class ValidateCommand implements Command {
    private static final FlagSet FLAGS = new FlagSet();
    private static final Flag<Boolean> JSON = FLAGS.bool("json", false,
            "Produce output in a machine-readable JSON format, suitable for use in text editor integrations and "
                    + "other automated systems. Always disables color.");

    @Override
    public String name() {
        return "validate";
    }

    @Override
    public String synopsis() {
        return "Check whether the configuration is valid";
    }

    @Override
    public Section section() {
        return Section.MAIN;
    }

    @Override
    public String description() {
        return "Validate the configuration files in a directory, referring only to the configuration and not "
                + "accessing any remote services such as remote state or provider APIs.\n\n"
                + "Validate runs checks that verify whether a configuration is syntactically valid and internally "
                + "consistent: references to declared objects, count and for_each rules, types of constant "
                + "expressions, and module arguments against the modules' variables. Checks that need a "
                + "provider's schema (the arguments of each resource type) are not run yet.\n\n"
                + "Only local modules (sources starting with ./ or ../) can be validated; remote module sources "
                + "are reported as not installed.";
    }

    @Override
    public FlagSet flags() {
        return FLAGS;
    }

    @Override
    public int run(CommandContext context, ParsedArgs args) {
        boolean json = args.get(JSON);
        ValidateView view = new ValidateView(json ? context.withColorAllowed(false) : context, json);
        if (!args.positionals().isEmpty()) {
            view.result(Diagnostics.of(Diagnostic.error("Unexpected argument", "The validate command takes no "
                    + "arguments; use the global -chdir option to validate another directory, as in "
                    + "strata -chdir=" + args.positionals().getFirst() + " validate.", null)),
                    dev.strata.hcl.DiagnosticRenderer.NO_SOURCES);
            return 1;
        }
        Result<ConfigTree> tree = ConfigLoader.loadTree(context.workingDir(), ConfigLoader.Options.DEFAULT);
        // As Terraform, a directory without configuration files is a valid, empty configuration.
        Diagnostics diags = tree.diagnostics().with(Validator.validate(tree.value()));
        List<String> unchecked = ProviderRequirements.of(tree.value()).keySet().stream()
                .filter(p -> !p.isBuiltIn()).map(Provider::forDisplay).toList();
        if (!unchecked.isEmpty()) {
            // The checks Terraform makes against provider schemas cannot run yet: say so, once.
            diags = diags.with(Diagnostic.warning("Resource arguments not checked", "The arguments of resources, "
                    + "data sources and provider blocks of " + String.join(", ", unchecked) + " were not checked, "
                    + "because their provider schemas are not available in this version of Strata. References, "
                    + "expressions and module structure were checked.", null));
        }
        view.result(diags, tree.value().diagnosticSources());
        return diags.hasErrors() ? 1 : 0;
    }
}
