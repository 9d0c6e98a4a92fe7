package dev.strata.cli.command;

import dev.strata.addr.AbsResourceInstance;
import dev.strata.addr.ResourceMode;
import dev.strata.cli.view.CliDiagnostic;
import dev.strata.cli.view.DriftReport;
import dev.strata.cli.view.DriftView;
import dev.strata.engine.Plan;
import dev.strata.engine.PlanMode;
import dev.strata.engine.PlanOptions;
import dev.strata.hcl.Result;
import dev.strata.lang.funcs.GoDuration;
import dev.strata.state.Backend;
import dev.strata.state.PgBackend;
import dev.strata.state.PgDriftReports;
import dev.strata.state.StateSnapshot;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code strata drift}: reads every managed object through its provider, without taking the state
 * lock and without writing the state, and reports what changed outside Strata per object and
 * attribute. Exit 0 without drift, 2 with drift, 1 on errors; {@code -watch} runs until interrupted
 * and reports each change once.
 */
final class DriftCommand implements Command {
    static final String WEBHOOK = "STRATA_DRIFT_WEBHOOK";
    private static final FlagSet FLAGS = new FlagSet();
    private static final Operation OP = new Operation(FLAGS);
    private static final Flag<Boolean> JSON =
            FLAGS.bool("json", false, "Print each report as one JSON document (format_version 1.0).");
    private static final Flag<List<String>> IGNORE = FLAGS.repeated(
            "ignore",
            "TYPE.ATTRIBUTE",
            "Leave out changes of an attribute that always changes (a timestamp, a counter), for every "
                    + "resource of the type, e.g. -ignore=aws_instance.tags_all; nested paths like "
                    + "aws_instance.metadata_options.http_tokens work too. Repeatable.");
    private static final Flag<String> WATCH = FLAGS.string(
            "watch",
            "",
            "INTERVAL",
            "Keep checking every INTERVAL (e.g. 5m) until interrupted, reporting each change once. With " + WEBHOOK
                    + " set, each report with drift is also POSTed there.");

    private static final Flag<Boolean> HISTORY = FLAGS.bool(
            "history",
            false,
            "List the reports kept with the state history (pg backend only), newest first, instead of checking.");

    @Override
    public String name() {
        return "drift";
    }

    @Override
    public String synopsis() {
        return "Report what changed outside Strata";
    }

    @Override
    public Section section() {
        return Section.OTHER;
    }

    @Override
    public String description() {
        return "Reads every object the state records through its provider and reports, per object and "
                + "attribute, what changed outside Strata. It takes no state lock and writes no state, so it "
                + "can run beside applies. Exit status: 0 no drift, 2 drift, 1 error.";
    }

    @Override
    public FlagSet flags() {
        return FLAGS;
    }

    record Args(boolean json, Map<String, Set<String>> ignored, Duration watch, boolean history) {
        static Parsed<Args> parse(ParsedArgs args) {
            List<CliDiagnostic> problems = new ArrayList<>();
            if (!args.positionals().isEmpty()) {
                problems.add(CliDiagnostic.error(
                        "Too many command line arguments",
                        "The drift command takes no positional arguments; to check another directory, use the "
                                + "global -chdir option."));
            }
            Map<String, Set<String>> ignored = new TreeMap<>();
            for (String i : args.get(IGNORE)) {
                int dot = i.indexOf('.');
                if (dot <= 0 || dot == i.length() - 1) {
                    problems.add(CliDiagnostic.error(
                            "Invalid -ignore value",
                            "The value must name a resource type and an attribute, such as "
                                    + "-ignore=aws_instance.tags_all; got \"" + i + "\"."));
                    continue;
                }
                ignored.computeIfAbsent(i.substring(0, dot), k -> new TreeSet<>())
                        .add(i.substring(dot + 1));
            }
            Duration watch = null;
            String w = args.get(WATCH);
            if (!w.isEmpty()) {
                watch = GoDuration.parse(w);
                if (watch == null || watch.compareTo(Duration.ofSeconds(1)) < 0) {
                    problems.add(CliDiagnostic.error(
                            "Invalid -watch interval",
                            "The interval must be a duration of at least 1s, such as 30s or 5m; got \"" + w + "\"."));
                    watch = null;
                }
            }
            boolean history = args.get(HISTORY);
            if (history && !w.isEmpty()) {
                problems.add(CliDiagnostic.error(
                        "Conflicting options",
                        "-history lists the stored reports and makes no check, so it cannot be combined with -watch."));
            }
            return new Parsed<>(new Args(args.get(JSON), ignored, watch, history), problems);
        }
    }

    @Override
    public int run(CommandContext context, ParsedArgs parsed) {
        Parsed<Args> args = Args.parse(parsed);
        CommandContext ctx = args.value().json() ? context.withColorAllowed(false) : context;
        DriftView view = DriftView.of(ctx, args.value().json());
        if (args.hasErrors()) {
            view.view().diagnostics(args.diagnostics());
            return 1;
        }
        if (args.value().history()) {
            return history(ctx, view);
        }
        if (args.value().watch() == null) {
            Outcome o = once(ctx, parsed, args.value(), view, new HashSet<>(), false, true);
            return o.status();
        }
        Set<String> seen = new HashSet<>();
        // The watch's own handlers stay installed from start to end: each check installs its own over them
        // while it runs, and between checks (the wait, and the moments before a check takes the signals
        // over and after it gives them back) a signal still stops the watch cleanly instead of the JVM's
        // default ending the process with 143.
        try (Interrupts signals = Interrupts.install(ctx)) {
            CountDownLatch stop = new CountDownLatch(1);
            try (var r = signals.onStop(stop::countDown)) {
                for (boolean first = true; ; first = false) {
                    if (stop.getCount() == 0) {
                        return 0;
                    }
                    Outcome o = once(ctx, parsed, args.value(), view, seen, true, first);
                    if (o.interrupted() || stop.await(args.value().watch().toMillis(), TimeUnit.MILLISECONDS)) {
                        return 0;
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return 0;
            }
        }
    }

    private record Outcome(int status, boolean interrupted) {}

    private static Outcome once(
            CommandContext ctx,
            ParsedArgs parsed,
            Args args,
            DriftView view,
            Set<String> seen,
            boolean watching,
            boolean first) {
        boolean[] interrupted = {false};
        int status = OperationRunner.run(
                ctx, parsed, OP, view.view(), OperationRunner.Request.readOnly("OperationTypeRefresh"), s -> {
                    PlanOptions options = s.options(OP, PlanMode.REFRESH_ONLY, view.view());
                    if (options == null) {
                        return 1;
                    }
                    // Progress lines are for plan and apply; drift prints only its report.
                    Result<Plan> plan = s.engine()
                            .plan(
                                    s.loaded().variables(),
                                    s.state().state(),
                                    options,
                                    dev.strata.engine.EngineEvents.NONE);
                    interrupted[0] = s.signals().interrupted();
                    if (watching && interrupted[0]) {
                        // Stopping a watch is its normal end: the check cut short is no error to report.
                        return 0;
                    }
                    view.view()
                            .diagnostics(
                                    Operation.narrowed(options).with(plan.diagnostics()),
                                    s.loaded().sources());
                    if (plan.value() == null || plan.diagnostics().hasErrors()) {
                        return 1;
                    }
                    int checked = (int) s.state().state().instanceAddresses().stream()
                            .map(AbsResourceInstance::resource)
                            .filter(r -> r.resource().mode() == ResourceMode.MANAGED)
                            .count();
                    // PostgreSQL keeps microseconds: the stored row and the report then name the same time.
                    Instant at = Instant.now().truncatedTo(java.time.temporal.ChronoUnit.MICROS);
                    DriftReport report = DriftReport.of(checked, plan.value().drift(), args.ignored())
                            .unseen(seen);
                    view.report(report, at, watching);
                    // Under -watch, checks that found nothing new are not kept (the first one is).
                    if (first || report.drifted()) {
                        keep(s, report, at, view);
                    }
                    if (report.drifted()) {
                        post(ctx, report, at, view);
                    }
                    return report.drifted() ? 2 : 0;
                });
        return new Outcome(status, interrupted[0]);
    }

    /** Stores the report with the state history when the state is in PostgreSQL; a failure is a warning. */
    private static void keep(OperationRunner.Session s, DriftReport report, Instant at, DriftView view) {
        Optional<PgDriftReports> reports = PgDriftReports.of(s.state());
        if (reports.isEmpty()) {
            return;
        }
        StateSnapshot checked = s.state().state();
        Result<Long> stored = reports.get()
                .store(
                        s.workspace(),
                        checked.lineage() == null ? "" : checked.lineage(),
                        checked.serial(),
                        at,
                        report.checked(),
                        report.objects().size(),
                        DriftView.json(report, at).toString());
        if (stored.hasErrors()) {
            view.view()
                    .diagnostics(List.of(CliDiagnostic.warning(
                            "Drift report not stored",
                            "The report could not be kept with the state history: "
                                    + stored.diagnostics().asList().getFirst().detail())));
        }
    }

    /** {@code -history}: the reports kept in PostgreSQL for the selected workspace, newest first. */
    private static int history(CommandContext ctx, DriftView view) {
        Result<Backend> backend = StateCli.backend(ctx);
        view.view().diagnostics(backend.diagnostics(), null);
        if (backend.value() == null) {
            return 1;
        }
        if (!(Interrupts.unwrap(backend.value()) instanceof PgBackend pg)) {
            view.view()
                    .diagnostics(List.of(CliDiagnostic.error(
                            "No drift history",
                            "Drift reports are kept with the state history, which only the pg backend has; this "
                                    + "working directory uses another backend. Run \"strata drift\" (or -watch) to "
                                    + "check now, or configure backend \"pg\" to keep the reports.")));
            return 1;
        }
        Parsed<String> ws = StateCli.workspace(ctx);
        view.view().diagnostics(ws.diagnostics());
        if (ws.value() == null || ws.hasErrors()) {
            return 1;
        }
        Result<List<PgDriftReports.Entry>> listed = PgDriftReports.of(pg).list(ws.value());
        view.view().diagnostics(listed.diagnostics(), null);
        if (listed.hasErrors()) {
            return 1;
        }
        view.history(listed.value());
        return 0;
    }

    /** POSTs a report to {@code STRATA_DRIFT_WEBHOOK} when it is set; a failure is a warning. */
    private static void post(CommandContext ctx, DriftReport report, Instant at, DriftView view) {
        String address = ctx.getenv(WEBHOOK);
        if (address == null || address.isBlank()) {
            return;
        }
        try {
            HttpClient client = HttpClient.newBuilder()
                    .connectTimeout(Duration.ofSeconds(10))
                    .build();
            HttpRequest request = HttpRequest.newBuilder(URI.create(address.trim()))
                    .timeout(Duration.ofSeconds(30))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(
                            DriftView.json(report, at).toString()))
                    .build();
            HttpResponse<Void> r = client.send(request, HttpResponse.BodyHandlers.discarding());
            if (r.statusCode() / 100 != 2) {
                throw new java.io.IOException("it answered HTTP " + r.statusCode());
            }
        } catch (IllegalArgumentException | java.io.IOException e) {
            view.view()
                    .diagnostics(List.of(CliDiagnostic.warning(
                            "Drift report not delivered",
                            "The report could not be POSTed to " + WEBHOOK + " (" + address + "): "
                                    + (e.getMessage() == null ? "connection failed" : e.getMessage()) + ".")));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
