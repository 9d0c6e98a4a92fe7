package dev.strata.cli.command;

import dev.strata.cli.view.OperationView;
import dev.strata.cli.view.PlanJson;
import dev.strata.config.ConfigTree;
import dev.strata.engine.Plan;
import dev.strata.hcl.DiagnosticRenderer;
import dev.strata.hcl.Result;
import dev.strata.policy.PolicyCheck;
import dev.strata.policy.PolicyReport;
import dev.strata.policy.PolicySet;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The policies a plan is checked against before it is shown, saved or applied: the root module's own
 * {@code *.policy.hcl} files (and the directories their {@code policy_set} blocks name), each
 * {@code -policy=DIR}, and the directories of {@code STRATA_POLICY_PATH}.
 */
final class Policies {
    static final String ENV = "STRATA_POLICY_PATH";

    private Policies() {}

    /** The {@code -policy} flag of plan, apply and destroy. */
    static Flag<List<String>> flag(FlagSet flags) {
        return flags.repeated(
                "policy",
                "DIR",
                "Check the plan against the policies in DIR (*.policy.hcl files) before it is shown, saved or "
                        + "applied; a mandatory policy that does not pass stops it. Use more than once for more "
                        + "directories. The root module's own *.policy.hcl files and " + ENV + " are always read.");
    }

    /** Where the policies come from; empty when there are none. */
    static List<Path> directories(CommandContext context, List<String> flags) {
        List<Path> dirs = new ArrayList<>();
        Path root = context.workingDir();
        try (Stream<Path> files = Files.list(root)) {
            if (files.anyMatch(p -> p.getFileName().toString().endsWith(".policy.hcl")
                    || p.getFileName().toString().endsWith(".policy.json"))) {
                dirs.add(root);
            }
        } catch (IOException e) {
            // the configuration's loading reports an unreadable working directory
        }
        flags.forEach(f -> dirs.add(context.resolve(f)));
        String env = context.getenv(ENV);
        if (env != null && !env.isBlank()) {
            for (String d : env.split(File.pathSeparator)) {
                if (!d.isBlank()) {
                    dirs.add(context.resolve(d));
                }
            }
        }
        return dirs;
    }

    /**
     * Checks {@code plan} and reports the outcome through {@code view}: the failures as diagnostics
     * pointing into the policy files, then the summary. Null when the policies could not be loaded
     * (reported); {@link PolicyReport#NONE} when there are no policies.
     */
    static PolicyReport check(
            CommandContext context,
            List<String> flags,
            Plan plan,
            ConfigTree tree,
            DiagnosticRenderer.Sources configSources,
            OperationView view) {
        List<Path> dirs = directories(context, flags);
        if (dirs.isEmpty()) {
            return PolicyReport.NONE;
        }
        Result<PolicySet> set = PolicySet.load(dirs, context.workingDir());
        DiagnosticRenderer.Sources sources = name -> {
            byte[] b = set.value().files().get(name);
            return b != null ? b : configSources.bytes(name);
        };
        view.diagnostics(set.diagnostics(), sources);
        if (set.hasErrors()) {
            return null;
        }
        PolicyReport report = PolicyCheck.check(
                set.value(), PlanJson.forPolicies(plan, tree, set.value()::checksType), context.workingDir());
        view.diagnostics(report.diagnostics(), sources);
        view.policies(report);
        return report;
    }
}
