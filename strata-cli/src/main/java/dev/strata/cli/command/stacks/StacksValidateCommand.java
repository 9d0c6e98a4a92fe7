package dev.strata.cli.command.stacks;

import dev.strata.cli.command.CommandContext;
import dev.strata.cli.command.Flag;
import dev.strata.cli.command.FlagSet;
import dev.strata.cli.view.CliDiagnostic;
import dev.strata.cli.view.ValidateView;
import dev.strata.hcl.DiagnosticRenderer;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import dev.strata.stacks.config.DeploymentConfig;
import dev.strata.stacks.config.DeploymentLoader;
import dev.strata.stacks.config.StackConfig;
import dev.strata.stacks.config.StackLoader;
import dev.strata.stacks.config.StackValidator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code strata stacks validate}: loads the Stack in the working directory (its component
 * configuration with embedded stacks and component modules, and its deployment configuration) and
 * checks it statically, without input values, state or providers. Output is {@code strata validate}'s:
 * diagnostics with source snippets then "Success!", or with {@code -json} the validate JSON document.
 */
public final class StacksValidateCommand {
    public static final FlagSet FLAGS = new FlagSet();
    private static final Flag<Boolean> JSON = FLAGS.bool(
            "json",
            false,
            "Produce output in a machine-readable JSON format, suitable for use in text editor integrations and "
                    + "other automated systems. Always disables color.");

    private StacksValidateCommand() {}

    /**
     * The files the Stack was loaded from, parsed again on demand so diagnostics can name the block
     * around them ({@code in component "app"}).
     */
    private record ParsedSources(Map<String, byte[]> files) implements DiagnosticRenderer.Sources {
        @Override
        public byte[] bytes(String filename) {
            return files.get(filename);
        }

        @Override
        public dev.strata.hcl.Body body(String filename) {
            byte[] b = files.get(filename);
            if (b == null) {
                return null;
            }
            Result<dev.strata.hcl.HclFile> f = filename.endsWith(".json")
                    ? dev.strata.hcl.json.JsonSyntax.parse(b, filename)
                    : dev.strata.hcl.syntax.NativeSyntax.parseConfig(b, filename);
            return f.value() == null ? null : f.value().body();
        }
    }

    /** The arguments: only the output form. */
    record Args(boolean json) {}

    /** Runs with the arguments after {@code validate}; the exit status is 1 when there are errors. */
    public static int run(CommandContext context, List<String> arguments) {
        FlagSet.Outcome outcome = FLAGS.parse(arguments);
        if (outcome instanceof FlagSet.Outcome.Invalid invalid) {
            new ValidateView(context, false).result(List.of(invalid.diagnostic()));
            return 1;
        }
        var parsed = ((FlagSet.Outcome.Parsed) outcome).args();
        Args args = new Args(parsed.get(JSON));
        ValidateView view = new ValidateView(args.json() ? context.withColorAllowed(false) : context, args.json());
        if (!parsed.positionals().isEmpty()) {
            view.result(List.of(CliDiagnostic.error(
                    "Unexpected argument",
                    "The stacks validate command takes no arguments; use the global -chdir option to validate "
                            + "another directory, as in strata -chdir="
                            + parsed.positionals().getFirst()
                            + " stacks validate.")));
            return 1;
        }
        Result<StackConfig> stack = StackLoader.load(
                context.workingDir(),
                dev.strata.stacks.config.InstalledSources.of(context.workingDir())
                        .reading());
        Result<DeploymentConfig> deployments = DeploymentLoader.load(context.workingDir());
        Diagnostics diags = stack.diagnostics().with(deployments.diagnostics());
        // validation needs a well-formed model: after load errors it would only repeat them
        if (!diags.hasErrors()) {
            diags = diags.with(StackValidator.validate(stack.value()))
                    .with(StackValidator.validateDeployments(deployments.value(), stack.value()));
        }
        // As Terraform, the component modules are checked against their providers' schemas once the
        // stack itself is valid (the providers are started, not configured).
        if (!diags.hasErrors()) {
            diags = diags.with(dev.strata.stacks.runtime.ComponentModuleChecks.validate(
                    stack.value(),
                    StacksOperations.providerSource(context),
                    context.workingDir(),
                    dev.strata.cli.version.Version.current()));
        }
        Map<String, byte[]> sources = new HashMap<>(stack.value().sources());
        sources.putAll(deployments.value().sources());
        view.result(diags, new ParsedSources(sources));
        return diags.hasErrors() ? 1 : 0;
    }
}
