package dev.strata.cli.command.stacks;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.strata.addr.AbsResourceInstance;
import dev.strata.cli.command.CommandContext;
import dev.strata.cli.command.Interrupts;
import dev.strata.cli.version.Version;
import dev.strata.cli.view.CliDiagnostic;
import dev.strata.cli.view.FileSources;
import dev.strata.cli.view.View;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.IoProblems;
import dev.strata.hcl.Result;
import dev.strata.hcl.format.Formatter;
import dev.strata.provider.ProviderRegistry;
import dev.strata.provider.ProviderSource;
import dev.strata.stacks.config.ComponentConfig;
import dev.strata.stacks.config.DeploymentConfig;
import dev.strata.stacks.config.DeploymentLoader;
import dev.strata.stacks.config.InstalledSources;
import dev.strata.stacks.config.StackConfig;
import dev.strata.stacks.config.StackLoader;
import dev.strata.stacks.config.StackRequiredProvider;
import dev.strata.stacks.config.StackValidator;
import dev.strata.stacks.runtime.AutoApproval;
import dev.strata.stacks.runtime.DeploymentApplied;
import dev.strata.stacks.runtime.DeploymentPlan;
import dev.strata.stacks.runtime.DeploymentSession;
import dev.strata.stacks.runtime.RuntimeSettings;
import dev.strata.stacks.runtime.StackPlanFile;
import dev.strata.stacks.runtime.StackRuntime;
import dev.strata.stacks.runtime.StackStorage;
import dev.strata.state.LockRequest;
import dev.strata.state.StateSnapshot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;

/** The work of each {@code strata stacks} subcommand, reporting through its view. */
final class StacksOperations {
    private final CommandContext context;

    StacksOperations(CommandContext context) {
        this.context = context;
    }

    /** The Stack in the working directory, loaded and validated; null after reporting errors. */
    private record Loaded(StackConfig stack, DeploymentConfig deployments) {}

    private Loaded load(StacksView view) {
        return load(view, InstalledSources.of(context.workingDir()).reading());
    }

    /** Loads with {@code options}: the installed sources, or (init) installing what is missing. */
    private Loaded load(StacksView view, StackLoader.Options options) {
        Path dir = context.workingDir();
        Result<StackConfig> stack = StackLoader.load(dir, options);
        Result<DeploymentConfig> deployments = DeploymentLoader.load(dir);
        Diagnostics d = stack.diagnostics().with(deployments.diagnostics());
        if (stack.value() != null && !stack.hasErrors()) {
            d = d.with(StackValidator.validate(stack.value()));
            if (deployments.value() != null && !deployments.hasErrors()) {
                d = d.with(StackValidator.validateDeployments(deployments.value(), stack.value()));
            }
        }
        view.diagnostics(null, d);
        if (d.hasErrors() || stack.value() == null || deployments.value() == null) {
            return null;
        }
        return new Loaded(stack.value(), deployments.value());
    }

    private ProviderSource providerSource() {
        return providerSource(context);
    }

    /** The built-in providers, then those `strata init` installed for the working directory. */
    static ProviderSource providerSource(CommandContext context) {
        ProviderSource chain = ProviderSource.chain(
                ProviderRegistry.load(StacksOperations.class.getClassLoader()),
                dev.strata.tfplugin.InstalledProviders.forWorkingDirectory(context.workingDir(), context.env()));
        return (address, constraints) -> {
            Result<dev.strata.provider.ProviderFactory> r = chain.resolve(address, constraints);
            return r.value() != null ? r : Result.of(null, stacksInit(r.diagnostics()));
        };
    }

    /** The installed-provider texts tell to run the plain init; a Stack's providers come from its own. */
    static Diagnostics stacksInit(Diagnostics ds) {
        Diagnostics.Builder b = Diagnostics.builder();
        for (dev.strata.hcl.Diagnostic d : ds) {
            String detail = d.detail();
            b.add(
                    detail == null || !detail.contains("\"strata init")
                            ? d
                            : d.withDetail(detail.replace("\"strata init", "\"strata stacks init")));
        }
        return b.build();
    }

    /** The runtime on the Stack's recorded backend; null after reporting why it cannot be reached. */
    private StackRuntime runtime(Loaded l, int parallelism, StacksView view) {
        Result<StackStorage> storage = StackStorage.open(context.workingDir(), context.env(), Version.current());
        view.diagnostics(null, storage.diagnostics());
        if (storage.value() == null) {
            return null;
        }
        return new StackRuntime(
                new RuntimeSettings(
                        providerSource(), Version.current(), context.env(), context.workingDir(), parallelism),
                storage.value(),
                l.stack(),
                l.deployments());
    }

    private List<String> select(Loaded l, List<String> asked, StacksView view) {
        if (asked.isEmpty()) {
            return List.copyOf(l.deployments().deployments().keySet());
        }
        List<String> out = new ArrayList<>();
        for (String a : asked) {
            if (!l.deployments().deployments().containsKey(a)) {
                view.diagnostics(
                        null,
                        Diagnostics.of(dev.strata.hcl.Diagnostic.error(
                                "Deployment not found",
                                "There is no deployment \"" + a + "\" in the deployment configuration. Declared: "
                                        + String.join(
                                                ", ",
                                                l.deployments().deployments().keySet()) + ".",
                                null)));
                return null;
            }
            if (!out.contains(a)) {
                out.add(a);
            }
        }
        return out;
    }

    // ---- init, validate, fmt, providers ----

    int init(StacksArgs.Init args) {
        StacksView view = StacksView.of(context, false);
        InstalledSources sources = InstalledSources.of(context.workingDir());
        boolean[] told = {false};
        dev.strata.hcl.Result<dev.strata.config.RemoteAccess> access =
                dev.strata.cli.command.RemoteModuleAccess.of(context);
        Loaded l = load(
                view,
                sources.installing(
                        args.upgrade(),
                        line -> {
                            if (!told[0]) {
                                told[0] = true;
                                view.line("Installing component sources...");
                            }
                            view.line(line);
                        },
                        access.value()));
        if (l != null) {
            sources.installTrees(l.stack());
        }
        Diagnostics installed = access.diagnostics().with(sources.diagnostics()).with(sources.save());
        view.diagnostics(null, installed);
        if (l == null || installed.hasErrors()) {
            return 1;
        }
        if (!initBackend(args, view)) {
            return 1;
        }
        boolean[] installing = {false};
        Diagnostics providers = dev.strata.cli.command.ProviderSetup.install(
                context, requiredProviders(l.stack()), args.upgrade(), step -> {
                    if (!installing[0]) {
                        installing[0] = true;
                        view.line("Installing providers...");
                    }
                    view.line("- " + step.line());
                });
        view.diagnostics(null, providers);
        if (providers.hasErrors()) {
            return 1;
        }
        ProviderSource source = providerSource();
        Diagnostics.Builder d = Diagnostics.builder();
        for (StackRequiredProvider rp : l.stack().requiredProviders().values()) {
            // What was installed above is found as plan will find it; the install reported each one.
            var r = source.resolve(rp.source(), dev.strata.addr.VersionConstraint.ANY);
            if (r.value() == null) {
                d.addAll(r.diagnostics());
            }
        }
        Diagnostics ds = d.build();
        view.diagnostics(null, ds);
        if (ds.hasErrors()) {
            return 1;
        }
        view.line("");
        view.line(
                "Strata Stacks has been successfully initialized! Run \"strata stacks plan\" to see what each deployment would do.");
        return 0;
    }

    /** The providers the Stack and its embedded stacks require, each with its version constraints. */
    private static java.util.SortedMap<dev.strata.addr.Provider, List<dev.strata.addr.VersionConstraint>>
            requiredProviders(StackConfig stack) {
        java.util.SortedMap<dev.strata.addr.Provider, List<dev.strata.addr.VersionConstraint>> out =
                new java.util.TreeMap<>();
        addRequired(stack, out);
        return out;
    }

    private static void addRequired(
            StackConfig stack, Map<dev.strata.addr.Provider, List<dev.strata.addr.VersionConstraint>> out) {
        for (StackRequiredProvider rp : stack.requiredProviders().values()) {
            List<dev.strata.addr.VersionConstraint> cs = out.computeIfAbsent(rp.source(), k -> new ArrayList<>());
            if (rp.version() != null) {
                // An unparseable constraint was reported when the Stack was validated.
                var c = dev.strata.addr.VersionConstraint.parse(rp.version());
                if (c.value() != null && !c.hasErrors()) {
                    cs.add(c.value());
                }
            }
        }
        for (var e : stack.embeddedStacks().values()) {
            if (e.stack() != null) {
                addRequired(e.stack(), out);
            }
        }
        for (var r : stack.removed()) {
            if (r.stack() != null) {
                addRequired(r.stack(), out);
            }
        }
    }

    /**
     * Records the backend {@code -backend} names after connecting to it (a pg schema is created then),
     * refusing to leave deployment states behind in the recorded one unless {@code -reconfigure}.
     */
    private boolean initBackend(StacksArgs.Init args, StacksView view) {
        Path dir = context.workingDir();
        Result<StackStorage.Choice> recorded = StackStorage.readChoice(dir);
        StackStorage.Choice was = recorded.value();
        if (args.backend().isEmpty()) {
            if (was == null) {
                view.diagnostics(null, recorded.diagnostics());
                return false;
            }
            Result<StackStorage> s = StackStorage.connect(dir, was, context.env(), Version.current());
            view.diagnostics(null, s.diagnostics());
            if (s.value() == null) {
                return false;
            }
            view.line("- Deployment states are stored in: " + was.describe());
            return true;
        }
        StackStorage.Choice next = new StackStorage.Choice(args.backend().get(), args.backendConfig());
        Result<StackStorage> target = StackStorage.connect(dir, next, context.env(), Version.current());
        view.diagnostics(null, target.diagnostics());
        if (target.value() == null) {
            return false;
        }
        if (was != null && !was.equals(next) && !args.reconfigure()) {
            Result<StackStorage> old = StackStorage.connect(dir, was, context.env(), Version.current());
            List<String> held = old.value() == null
                    ? List.of()
                    : old.value().deploymentsWithState().value();
            if (held != null && !held.isEmpty()) {
                view.diagnostics(
                        null,
                        Diagnostics.of(dev.strata.hcl.Diagnostic.error(
                                "Backend change would leave deployment states behind",
                                "The recorded backend (" + was.describe() + ") holds the state of "
                                        + String.join(", ", held)
                                        + ". Destroy those deployments first, or pass -reconfigure to switch anyway "
                                        + "(their states stay where they are and are not moved).",
                                null)));
                return false;
            }
        }
        Diagnostics w = StackStorage.writeChoice(dir, next);
        view.diagnostics(null, w);
        if (w.hasErrors()) {
            return false;
        }
        view.line("- Deployment states are stored in: " + next.describe());
        return true;
    }

    int fmt(StacksArgs.Fmt args) {
        View view = new View(context);
        List<Path> files;
        try (var s = Files.list(context.workingDir())) {
            files = s.filter(p -> {
                        String n = p.getFileName().toString();
                        return n.endsWith(".tfcomponent.hcl")
                                || n.endsWith(".tfstack.hcl")
                                || n.endsWith(".tfdeploy.hcl");
                    })
                    .sorted()
                    .toList();
        } catch (IOException e) {
            view.diagnostic(CliDiagnostic.error(
                    "Failed to read directory",
                    "Could not list " + IoProblems.describe(context.workingDir(), e) + "."));
            return 1;
        }
        boolean changed = false;
        boolean bad = false;
        for (Path f : files) {
            String shown = context.workingDir().relativize(f).toString();
            try {
                byte[] before = Files.readAllBytes(f);
                Result<byte[]> r = Formatter.format(before, shown);
                if (r.hasErrors()) {
                    view.diagnostics(r.diagnostics(), new FileSources(context.workingDir()));
                    bad = true;
                    continue;
                }
                if (!java.util.Arrays.equals(before, r.value())) {
                    changed = true;
                    if (args.list()) {
                        view.out().println(shown);
                    }
                    if (args.write()) {
                        Files.write(f, r.value());
                    }
                }
            } catch (IOException e) {
                view.diagnostic(CliDiagnostic.error(
                        "Failed to format file", "Could not rewrite " + IoProblems.describe(f, e) + "."));
                bad = true;
            }
        }
        return bad ? 2 : args.check() && changed ? 3 : 0;
    }

    int providers(StacksArgs.Plain args) {
        StacksView view = StacksView.of(context, args.json());
        Loaded l = load(view);
        if (l == null) {
            return 1;
        }
        if (args.json()) {
            ObjectNode n = new ObjectMapper().createObjectNode();
            n.put("type", "providers");
            ObjectNode req = n.putObject("required_providers");
            l.stack()
                    .requiredProviders()
                    .forEach((k, v) -> req.put(k, v.source().toString()));
            ObjectNode comps = n.putObject("components");
            l.stack().components().forEach((k, c) -> {
                ObjectNode cn = comps.putObject(k);
                c.module()
                        .requiredProviders()
                        .forEach((lk, rp) -> cn.put(lk, rp.source().toString()));
            });
            view.raw(n);
            return 0;
        }
        view.line("Providers required by the Stack:");
        l.stack()
                .requiredProviders()
                .forEach((k, v) ->
                        view.line("├── provider[" + v.source() + "]" + (v.version() == null ? "" : " " + v.version())));
        for (ComponentConfig c : l.stack().components().values()) {
            view.line("└── component." + c.name() + " (" + c.source() + ")");
            c.module().requiredProviders().forEach((lk, rp) -> view.line("    ├── provider[" + rp.source() + "]"));
        }
        return 0;
    }

    // ---- plan, apply, destroy ----

    private static <T> List<T> concurrently(List<String> names, int limit, Function<String, T> work) {
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(limit, Math.max(1, names.size())));
        try {
            List<Future<T>> fs =
                    names.stream().map(n -> pool.submit(() -> work.apply(n))).toList();
            List<T> out = new ArrayList<>();
            for (Future<T> f : fs) {
                try {
                    out.add(f.get());
                } catch (Exception e) {
                    throw new IllegalStateException(e.getCause() != null ? e.getCause() : e);
                }
            }
            return out;
        } finally {
            pool.shutdown();
        }
    }

    private record Opened(String deployment, DeploymentSession session, DeploymentPlan plan, Diagnostics problems) {}

    private Opened openAndPlan(StackRuntime rt, String d, String lockOp, boolean destroy, StacksView view) {
        Result<DeploymentSession> s = rt.open(d, LockRequest.of(lockOp, Duration.ZERO));
        if (s.value() == null) {
            return new Opened(d, null, null, s.diagnostics());
        }
        DeploymentPlan p = s.value().plan(destroy, view);
        return new Opened(d, s.value(), p, s.diagnostics());
    }

    int plan(StacksArgs.Operation args) {
        StacksView view = StacksView.of(context, args.json());
        Loaded l = load(view);
        if (l == null) {
            return 1;
        }
        List<String> names = select(l, args.deployments(), view);
        if (names == null) {
            return 1;
        }
        StackRuntime rt = runtime(l, args.parallelism(), view);
        if (rt == null) {
            return 1;
        }
        return interruptible(rt, () -> plan(rt, names, args, view));
    }

    private int plan(StackRuntime rt, List<String> names, StacksArgs.Operation args, StacksView view) {
        List<Opened> done = concurrently(names, args.concurrency(), d -> {
            Opened o = openAndPlan(rt, d, "OperationTypePlan", args.destroy(), view);
            if (o.session() != null) {
                o.session().close();
            }
            return o;
        });
        boolean failed = false;
        List<DeploymentPlan> plans = new ArrayList<>();
        for (Opened o : done) {
            view.diagnostics(o.deployment(), o.problems());
            if (o.plan() == null) {
                failed = true;
                continue;
            }
            view.diagnostics(o.deployment(), o.plan().diagnostics());
            if (!o.plan().hasChanges() && o.plan().applyable()) {
                view.noChanges(o.plan());
            } else {
                view.planned(o.plan());
            }
            failed |= !o.plan().applyable();
            plans.add(o.plan());
        }
        if (failed) {
            return 1;
        }
        if (args.out().isPresent()) {
            Path f = context.resolve(args.out().get());
            try {
                Files.write(f, StackPlanFile.encode(plans));
            } catch (IOException e) {
                view.diagnostics(
                        null,
                        Diagnostics.of(dev.strata.hcl.Diagnostic.error(
                                "Failed to write plan file",
                                "Could not write " + IoProblems.describe(f, e) + ".",
                                null)));
                return 1;
            }
            view.planSaved(args.out().get());
        }
        return 0;
    }

    int apply(StacksArgs.Operation args) {
        StacksView view = StacksView.of(context, args.json());
        Loaded l = load(view);
        if (l == null) {
            return 1;
        }
        StackRuntime rt = runtime(l, args.parallelism(), view);
        if (rt == null) {
            return 1;
        }
        if (args.planFile().isPresent()) {
            return interruptible(rt, () -> applySaved(rt, args, view));
        }
        List<String> names = select(l, args.deployments(), view);
        if (names == null) {
            return 1;
        }
        return interruptible(rt, () -> apply(rt, l, names, args, view));
    }

    /**
     * Runs {@code body} with INT, TERM and HUP handled as the modules commands handle them: the first
     * stops the runtime (nothing new starts; running operations finish and are recorded; locks are
     * released as the deployments close), the second exits at once after releasing every lock held.
     */
    private int interruptible(StackRuntime rt, java.util.function.IntSupplier body) {
        try (Interrupts signals = Interrupts.install(context);
                Interrupts.Registration stop = signals.onStop(rt::stop)) {
            rt.onStateOpened(signals::holding);
            return body.getAsInt();
        }
    }

    private int apply(StackRuntime rt, Loaded l, List<String> names, StacksArgs.Operation args, StacksView view) {
        List<Opened> planned = concurrently(
                names, args.concurrency(), d -> openAndPlan(rt, d, "OperationTypeApply", args.destroy(), view));
        try {
            boolean failed = false;
            boolean held = false;
            List<Opened> approved = new ArrayList<>();
            for (Opened o : planned) {
                view.diagnostics(o.deployment(), o.problems());
                if (o.plan() == null) {
                    failed = true;
                    continue;
                }
                view.diagnostics(o.deployment(), o.plan().diagnostics());
                if (!o.plan().applyable()) {
                    view.planned(o.plan());
                    failed = true;
                    continue;
                }
                if (!o.plan().hasChanges()) {
                    view.noChanges(o.plan());
                    continue;
                }
                view.planned(o.plan());
                if (args.autoApprove()) {
                    view.approval(o.deployment(), true, "by -auto-approve", List.of());
                    approved.add(o);
                    continue;
                }
                Result<AutoApproval> rule = AutoApproval.decide(l.deployments(), o.plan(), context.workingDir());
                view.diagnostics(o.deployment(), rule.diagnostics());
                if (rule.value().approved()) {
                    view.approval(o.deployment(), true, "by its auto-approve rules", List.of());
                    approved.add(o);
                } else if (view.approve(o.deployment())) {
                    view.approval(o.deployment(), true, "interactively", List.of());
                    approved.add(o);
                } else {
                    view.approval(o.deployment(), false, "held", rule.value().reasons());
                    // As Terraform's apply when its question is not answered "yes" ("Apply
                    // cancelled.", exit 1): the changes asked for were not all made.
                    held = true;
                }
            }
            List<DeploymentApplied> results =
                    concurrently(approved.stream().map(Opened::deployment).toList(), args.concurrency(), d -> {
                        Opened o = approved.stream()
                                .filter(x -> x.deployment().equals(d))
                                .findFirst()
                                .orElseThrow();
                        return o.session().apply(o.plan(), false, view);
                    });
            for (DeploymentApplied a : results) {
                view.applied(a);
                failed |= a.failed();
            }
            return failed || held ? 1 : 0;
        } finally {
            planned.stream()
                    .filter(o -> o.session() != null)
                    .forEach(o -> o.session().close());
        }
    }

    private int applySaved(StackRuntime rt, StacksArgs.Operation args, StacksView view) {
        Path f = context.resolve(args.planFile().get());
        List<DeploymentPlan> plans;
        try {
            plans = StackPlanFile.decode(Files.readAllBytes(f));
        } catch (IOException e) {
            view.diagnostics(
                    null,
                    Diagnostics.of(dev.strata.hcl.Diagnostic.error(
                            "Failed to read plan file", "Could not read " + IoProblems.describe(f, e) + ".", null)));
            return 1;
        } catch (StackPlanFile.Damaged e) {
            view.diagnostics(
                    null,
                    Diagnostics.of(dev.strata.hcl.Diagnostic.error(
                            "Failed to read plan file",
                            "The plan in " + f + " cannot be used: " + e.getMessage() + ".",
                            null)));
            return 1;
        }
        List<DeploymentApplied> results =
                concurrently(plans.stream().map(DeploymentPlan::deployment).toList(), args.concurrency(), d -> {
                    DeploymentPlan p = plans.stream()
                            .filter(x -> x.deployment().equals(d))
                            .findFirst()
                            .orElseThrow();
                    if (!rt.deployments().deployments().containsKey(d)) {
                        return new DeploymentApplied(
                                d,
                                List.of(),
                                new TreeMap<>(),
                                Diagnostics.of(dev.strata.hcl.Diagnostic.error(
                                        "Deployment not found",
                                        "The saved plan has deployment \"" + d
                                                + "\", which the deployment configuration no longer declares.",
                                        null)));
                    }
                    Result<DeploymentSession> s = rt.open(d, LockRequest.of("OperationTypeApply", Duration.ZERO));
                    if (s.value() == null) {
                        return new DeploymentApplied(d, List.of(), new TreeMap<>(), s.diagnostics());
                    }
                    try (DeploymentSession session = s.value()) {
                        return session.apply(p, true, view);
                    }
                });
        boolean failed = false;
        for (DeploymentApplied a : results) {
            view.applied(a);
            failed |= a.failed();
        }
        return failed ? 1 : 0;
    }

    // ---- show, output, list ----

    int show(StacksArgs.Inspect args) {
        StacksView view = StacksView.of(context, args.json());
        Loaded l = load(view);
        if (l == null) {
            return 1;
        }
        List<String> names = select(l, args.deployments(), view);
        if (names == null) {
            return 1;
        }
        StackRuntime rt = runtime(l, 1, view);
        if (rt == null) {
            return 1;
        }
        for (String d : names) {
            Result<DeploymentSession> s = rt.open(d, LockRequest.none());
            if (s.value() == null) {
                view.diagnostics(d, s.diagnostics());
                return 1;
            }
            try (DeploymentSession session = s.value()) {
                Result<List<String>> instances = session.componentInstances();
                view.diagnostics(d, instances.diagnostics());
                ObjectNode n = new ObjectMapper().createObjectNode();
                n.put("type", "deployment_state");
                n.put("deployment", d);
                ObjectNode comps = n.putObject("component_instances");
                if (!args.json()) {
                    view.line("Deployment \"" + d + "\":");
                }
                for (String a : instances.value() == null ? List.<String>of() : instances.value()) {
                    Result<StateSnapshot> st = session.componentState(a);
                    if (st.value() == null) {
                        view.diagnostics(d, st.diagnostics());
                        continue;
                    }
                    List<AbsResourceInstance> rs = st.value().instanceAddresses();
                    var arr = comps.putObject(a).putArray("resources");
                    rs.forEach(r -> arr.add(r.toString()));
                    if (!args.json()) {
                        view.line("  " + a + ":");
                        rs.forEach(r -> view.line("    " + r));
                    }
                }
                if (args.json()) {
                    view.raw(n);
                }
            }
        }
        return 0;
    }

    int output(StacksArgs.Inspect args) {
        StacksView view = StacksView.of(context, args.json());
        Loaded l = load(view);
        if (l == null) {
            return 1;
        }
        List<String> names = select(l, args.deployments(), view);
        if (names == null) {
            return 1;
        }
        StackRuntime rt = runtime(l, 1, view);
        if (rt == null) {
            return 1;
        }
        for (String d : names) {
            Result<DeploymentSession> s = rt.open(d, LockRequest.none());
            if (s.value() == null) {
                view.diagnostics(d, s.diagnostics());
                return 1;
            }
            try (DeploymentSession session = s.value()) {
                Map<String, dev.strata.lang.value.Value> outs = session.outputs();
                if (args.name().isPresent() && !outs.containsKey(args.name().get())) {
                    view.diagnostics(
                            d,
                            Diagnostics.of(dev.strata.hcl.Diagnostic.error(
                                    "Output \"" + args.name().get() + "\" not found",
                                    "Deployment \"" + d + "\" has no output named \""
                                            + args.name().get() + "\". Apply it first, or check the name.",
                                    null)));
                    return 1;
                }
                view.outputs(d, new TreeMap<>(outs), args.name());
            }
        }
        return 0;
    }

    int list(StacksArgs.Inspect args) {
        StacksView view = StacksView.of(context, args.json());
        Loaded l = load(view);
        if (l == null) {
            return 1;
        }
        StackRuntime rt = runtime(l, 1, view);
        if (rt == null) {
            return 1;
        }
        Result<List<String>> stated = rt.deploymentsWithState();
        view.diagnostics(null, stated.diagnostics());
        List<String> withState = stated.value() == null ? List.of() : stated.value();
        for (String d : l.deployments().deployments().keySet()) {
            int count = 0;
            if (withState.contains(d)) {
                Result<DeploymentSession> s = rt.open(d, LockRequest.none());
                if (s.value() != null) {
                    try (DeploymentSession session = s.value()) {
                        var instances = session.componentInstances().value();
                        count = instances == null ? 0 : instances.size();
                    }
                }
            }
            if (args.json()) {
                ObjectNode n = new ObjectMapper().createObjectNode();
                n.put("type", "deployment");
                n.put("deployment", d);
                n.put("component_instances", count);
                view.raw(n);
            } else {
                view.line(d + "\t"
                        + (count == 0 ? "not applied" : count + " component instance" + (count == 1 ? "" : "s")));
            }
        }
        return 0;
    }
}
