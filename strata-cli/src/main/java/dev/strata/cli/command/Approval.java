package dev.strata.cli.command;

import dev.strata.cli.version.Version;
import dev.strata.cli.view.CliDiagnostic;
import dev.strata.cli.view.OperationView;
import dev.strata.cli.view.PlanJson;
import dev.strata.config.ConfigTree;
import dev.strata.engine.Plan;
import dev.strata.lang.funcs.GoDuration;
import dev.strata.policy.ApprovalWebhook;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * The pre-apply approval webhook, configured by the environment: {@code STRATA_APPROVAL_WEBHOOK}
 * (the address), {@code STRATA_APPROVAL_TIMEOUT} (how long to wait for a decision, a Go duration;
 * 5m) and {@code STRATA_APPROVAL_FAIL_MODE} ({@code closed}, the default, or {@code open}).
 */
final class Approval {
    static final String ADDRESS = "STRATA_APPROVAL_WEBHOOK";
    static final String TIMEOUT = "STRATA_APPROVAL_TIMEOUT";
    static final String FAIL_MODE = "STRATA_APPROVAL_FAIL_MODE";

    private Approval() {}

    /** The settings, null when no webhook is configured; problems are reported and make it {@link #INVALID}. */
    static ApprovalWebhook.Settings settings(CommandContext context, OperationView view) {
        String address = context.getenv(ADDRESS);
        if (address == null || address.isBlank()) {
            return null;
        }
        URI uri;
        try {
            uri = new URI(address.trim());
        } catch (URISyntaxException e) {
            uri = null;
        }
        if (uri == null
                || !List.of("http", "https")
                        .contains(String.valueOf(uri.getScheme()).toLowerCase(Locale.ROOT))
                || uri.getHost() == null) {
            view.diagnostics(List.of(CliDiagnostic.error(
                    "Invalid approval webhook address",
                    ADDRESS + " must be an http:// or https:// URL, such as https://approvals.example.com/strata; "
                            + "got \"" + address + "\".")));
            return INVALID;
        }
        Duration timeout = ApprovalWebhook.Settings.DEFAULT_TIMEOUT;
        String t = context.getenv(TIMEOUT);
        if (t != null && !t.isBlank()) {
            timeout = GoDuration.parse(t.trim());
            if (timeout == null || timeout.isZero()) {
                view.diagnostics(List.of(CliDiagnostic.error(
                        "Invalid approval timeout",
                        TIMEOUT + " must be a positive duration such as 30s or 5m; got \"" + t + "\".")));
                return INVALID;
            }
        }
        String mode = context.getenv(FAIL_MODE);
        boolean failOpen = false;
        if (mode != null && !mode.isBlank()) {
            switch (mode.trim().toLowerCase(Locale.ROOT)) {
                case "open" -> failOpen = true;
                case "closed" -> failOpen = false;
                default -> {
                    view.diagnostics(List.of(CliDiagnostic.error(
                            "Invalid approval fail mode",
                            FAIL_MODE + " must be \"closed\" (no decision stops the apply) or \"open\" (no decision "
                                    + "lets it go on); got \"" + mode + "\".")));
                    return INVALID;
                }
            }
        }
        return new ApprovalWebhook.Settings(uri, timeout, ApprovalWebhook.Settings.DEFAULT_ATTEMPTS, failOpen);
    }

    /** Stands for settings that were reported as wrong. */
    static final ApprovalWebhook.Settings INVALID =
            new ApprovalWebhook.Settings(URI.create("http://invalid.invalid/"), Duration.ZERO, 0, false);

    /**
     * Asks the webhook, if one is configured, whether {@code plan} may be applied; reports the decision.
     * True when the apply may go on.
     */
    static boolean ask(CommandContext context, Plan plan, ConfigTree tree, String workspace, OperationView view) {
        ApprovalWebhook.Settings settings = settings(context, view);
        if (settings == null) {
            return true;
        }
        if (settings == INVALID) {
            return false;
        }
        // The document `show -json` prints for the plan, schemas included (arguments in the configuration).
        var document =
                PlanJson.of(plan, tree, Version.current(), new dev.strata.engine.Schemas(Operation.providers(context)));
        ApprovalWebhook.Decision d = new ApprovalWebhook(settings).decide(document, workspace);
        String where = "The approval webhook at " + settings.address() + " (correlation id " + d.correlationId() + ")";
        switch (d.outcome()) {
            case APPROVED ->
                view.view()
                        .out()
                        .println("\nApproval: approved by " + settings.address() + " (correlation id "
                                + d.correlationId() + ")" + (d.reason() == null ? "." : ": " + d.reason()));
            case REJECTED ->
                view.diagnostics(List.of(CliDiagnostic.error(
                        "Apply rejected", where + " rejected this plan: " + d.reason() + ". Nothing was changed.")));
            case FAILED_CLOSED ->
                view.diagnostics(
                        List.of(
                                CliDiagnostic.error(
                                        "No approval decision",
                                        where + " gave no decision: " + d.reason() + ". " + FAIL_MODE
                                                + " is closed, so nothing was changed; run the apply again when the service answers.")));
            case FAILED_OPEN ->
                view.diagnostics(List.of(CliDiagnostic.warning(
                        "Applying without an approval decision",
                        where + " gave no decision: " + d.reason() + ". " + FAIL_MODE
                                + " is open, so the apply goes on.")));
        }
        return d.approved();
    }
}
