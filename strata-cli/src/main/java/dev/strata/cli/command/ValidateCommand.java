package dev.strata.cli.command;

import dev.strata.addr.Provider;
import dev.strata.cli.view.CliDiagnostic;
import dev.strata.cli.view.ValidateView;
import dev.strata.config.ConfigTree;
import dev.strata.config.ProviderRequirements;
import dev.strata.engine.Engine;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import dev.strata.provider.ProviderRegistry;
import dev.strata.tfplugin.install.LockFile;
import java.util.List;

/**
 * {@code strata validate}: loads the configuration in the working directory with its local modules
 * and checks it statically, without variables' values, state or providers, as
 * {@code terraform validate} does. {@code -json} prints Terraform's validate JSON document.
 */
final class ValidateCommand implements Command {
    private static final FlagSet FLAGS = new FlagSet();
    private static final Flag<Boolean> JSON = FLAGS.bool(
            "json",
            false,
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
                + "expressions, module arguments against the modules' variables, and every provider block, resource "
                + "and data source against its provider's schema and the provider's own validation. Providers must "
                + "be installed (strata init) for that; validate starts them but never configures them.\n\n"
                + "Only local modules (sources starting with ./ or ../) can be validated; remote module sources "
                + "are reported as not installed.";
    }

    /**
     * Terraform's "Missing required provider" for each provider the configuration requires that
     * neither Strata builds in nor the dependency lock file selects; other problems of installed
     * providers (a package gone, a version out of range) are reported when the walk starts them.
     */
    private static Diagnostics missingProviders(CommandContext context, ConfigTree tree) {
        // A lock file that cannot be read is an error even for a configuration without providers, as in
        // Terraform.
        Result<LockFile> lock = ProviderSetup.readLock(context.workingDir());
        if (lock.value() == null || lock.diagnostics().hasErrors()) {
            return lock.diagnostics();
        }
        java.util.Set<Provider> required = ProviderRequirements.of(tree).keySet();
        if (required.stream().allMatch(p -> p.isBuiltIn() && p.isKnownBuiltIn())) {
            // Nothing to look up: loading the registry (a service search over every jar) would only cost
            // a small validate its start-up time.
            return Diagnostics.NONE;
        }
        ProviderRegistry builtins = ProviderSetup.builtins();
        var overrides = dev.strata.tfplugin.InstalledProviders.forWorkingDirectory(context.workingDir(), context.env())
                .devOverrides();
        Diagnostics.Builder out = Diagnostics.builder();
        for (Provider p : required) {
            if (p.isBuiltIn() && !p.isKnownBuiltIn()) {
                out.add(ProviderSetup.missingBuiltIn(p));
                continue;
            }
            if (p.isBuiltIn() || builtins.has(p) || lock.value().entry(p).isPresent() || overrides.containsKey(p)) {
                continue;
            }
            out.add(Diagnostic.error(
                    "Missing required provider",
                    "This configuration requires provider " + p
                            + ", but that provider isn't available. You may be able to install it automatically by "
                            + "running:\n  strata init",
                    null));
        }
        return out.build();
    }

    /** The walk's findings that static validation already made (same summary, same place) are left out. */
    private static Diagnostics withoutRepeats(Diagnostics walked, Diagnostics statics) {
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (Diagnostic d : statics) {
            seen.add(d.summary() + "@" + d.subject());
        }
        Diagnostics.Builder out = Diagnostics.builder();
        for (Diagnostic d : walked) {
            if (!seen.contains(d.summary() + "@" + d.subject())) {
                out.add(d);
            }
        }
        return out.build();
    }

    @Override
    public FlagSet flags() {
        return FLAGS;
    }

    /** The arguments: only the output form ({@code -json} always disables colour). */
    record Args(boolean json) {

        static Parsed<Args> parse(ParsedArgs args) {
            Args value = new Args(args.get(JSON));
            if (!args.positionals().isEmpty()) {
                return new Parsed<>(
                        value,
                        List.of(CliDiagnostic.error(
                                "Unexpected argument",
                                "The validate command "
                                        + "takes no arguments; use the global -chdir option to validate another directory, as in "
                                        + "strata -chdir=" + args.positionals().getFirst() + " validate.")));
            }
            return Parsed.of(value);
        }
    }

    @Override
    public int run(CommandContext context, ParsedArgs parsed) {
        Parsed<Args> args = Args.parse(parsed);
        boolean json = args.value().json();
        ValidateView view = new ValidateView(json ? context.withColorAllowed(false) : context, json);
        if (args.hasErrors()) {
            view.result(args.diagnostics());
            return 1;
        }
        Result<ConfigTree> tree = OperationRunner.loadTree(context);
        // As Terraform, a directory without configuration files is a valid, empty configuration.
        Diagnostics diags = Operation.devOverrides(context).with(tree.diagnostics());
        if (!diags.hasErrors()) {
            Diagnostics missing = missingProviders(context, tree.value());
            if (missing.hasErrors()) {
                // As Terraform: without every provider there is no walk, so nothing else is reported.
                diags = diags.with(missing);
            } else {
                Engine engine = OperationRunner.engine(context, tree.value());
                Diagnostics statics = engine.checkConfig();
                Diagnostics walked = engine.validate(context.workingDir());
                diags = diags.with(statics).with(withoutRepeats(walked, statics));
            }
        }
        // The files on disk too: the dependency lock file's problems are shown with their source lines.
        view.result(
                diags, dev.strata.cli.view.FileSources.over(tree.value().diagnosticSources(), context.workingDir()));
        return diags.hasErrors() ? 1 : 0;
    }
}
