package dev.strata.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.addr.AbsResourceInstance;
import dev.strata.addr.Addrs;
import dev.strata.addr.Provider;
import dev.strata.addr.Targetable;
import dev.strata.config.ConfigLoader;
import dev.strata.config.ConfigTree;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import dev.strata.lang.value.Value;
import dev.strata.provider.ProviderFactory;
import dev.strata.provider.ProviderRegistry;
import dev.strata.state.LocalBackend;
import dev.strata.state.LockRequest;
import dev.strata.state.StateManager;
import dev.strata.state.StateSnapshot;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.UnaryOperator;

/**
 * The one place engine tests build engine operations: configuration on disk, a local state backend in
 * the same directory, and plan, apply, import and validate against the test providers. Tests never
 * construct the planner, applier or walk themselves, so that a change of the engine's entry point is
 * adapted here alone.
 */
final class EngineHarness {
    /** The {@code terraform} block every root configuration written by {@link #config(String)} starts with. */
    static final String REQUIRED_PROVIDERS = """
            terraform {
              required_providers {
                fake = { source = "example.com/test/fake" }
              }
            }
            """;

    /** The module {@code ./m} every {@link PlanCase} may call: one {@code fake_thing.x} with its input. */
    static final String CHILD_MODULE = REQUIRED_PROVIDERS + """
            variable "in" { default = "m" }
            resource "fake_thing" "x" { value = var.in }
            output "id" { value = fake_thing.x.id }
            output "value" { value = fake_thing.x.value }
            """;

    /** The module {@code ./w} every {@link PlanCase} may call: two objects, the second using the first. */
    static final String PAIR_MODULE = REQUIRED_PROVIDERS + """
            resource "fake_thing" "x" { value = "x" }
            resource "fake_thing" "y" { value = fake_thing.x.id }
            output "id" { value = fake_thing.y.id }
            """;

    /** The module {@code ./n} every {@link PlanCase} may call: {@code ./m} nested, and an object using it. */
    static final String NESTING_MODULE = REQUIRED_PROVIDERS + """
            module "k" { source = "../m" }
            resource "fake_thing" "y" { value = module.k.id }
            """;

    /** The module {@code ./v} every {@link PlanCase} may call: a validated input and a checked output. */
    static final String CHECKED_MODULE = """
            variable "size" {
              type = number
              validation {
                condition     = var.size < 10
                error_message = "The size must be below 10."
              }
            }
            output "half" {
              value = var.size / 2
              precondition {
                condition     = var.size != 4
                error_message = "Four cannot be halved here."
              }
            }
            """;

    final Path dir;
    final FakeProvider fake;
    private final ProviderRegistry registry;
    private Clock clock = Clock.systemUTC();
    private Overrides interceptor = Overrides.NONE;
    private String header = REQUIRED_PROVIDERS;
    private final SortedMap<String, Value> variables = new TreeMap<>();
    /** The operations in flight, for {@link #stop()} from another thread. */
    private final List<Runnable> stoppers = java.util.Collections.synchronizedList(new ArrayList<>());

    EngineHarness(Path dir) {
        this(dir, new FakeProvider());
    }

    EngineHarness(Path dir, FakeProvider fake, ProviderFactory... more) {
        this.dir = dir;
        this.fake = fake;
        List<ProviderFactory> all = new ArrayList<>();
        all.add(FakeProvider.factory(fake));
        all.addAll(List.of(more));
        this.registry = ProviderRegistry.of(all);
    }

    /** The {@code terraform} block {@link #config(String)} writes before the configuration. */
    EngineHarness header(String terraformBlock) {
        this.header = terraformBlock;
        return this;
    }

    /** A factory for a test provider at {@code address}, version 1.0.0; {@code create} runs per start. */
    static ProviderFactory factory(Provider address, java.util.function.Supplier<dev.strata.provider.Provider> create) {
        return new ProviderFactory() {
            @Override
            public Provider address() {
                return address;
            }

            @Override
            public dev.strata.addr.Version version() {
                return dev.strata.addr.Version.of("1.0.0");
            }

            @Override
            public dev.strata.provider.Provider create() {
                return create.get();
            }
        };
    }

    /** The providers of this harness, for tests of the provider plumbing itself. */
    ProviderRegistry registry() {
        return registry;
    }

    /** Who stands in for providers and module instances in the operations from now on. */
    EngineHarness interceptor(Overrides i) {
        this.interceptor = i;
        return this;
    }

    EngineHarness clock(Clock c) {
        this.clock = c;
        return this;
    }

    EngineHarness variable(String name, Value v) {
        variables.put(name, v);
        return this;
    }

    /** Writes {@code main.tf} (with the provider requirements) and loads the tree; fails the test on errors. */
    ConfigTree config(String tf) {
        return files(Map.of("main.tf", header + tf));
    }

    /** Writes the files (relative paths, replacing what was there before) and loads the tree. */
    ConfigTree files(Map<String, String> files) {
        Result<ConfigTree> t = load(files);
        assertThat(t.diagnostics().hasErrors()).as(t.diagnostics().toString()).isFalse();
        return t.value();
    }

    /** Writes the files and loads them, errors and all. */
    Result<ConfigTree> load(Map<String, String> files) {
        try {
            for (var f : files.entrySet()) {
                Path p = dir.resolve(f.getKey());
                Files.createDirectories(p.getParent());
                Files.writeString(p, f.getValue());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return ConfigLoader.loadTree(dir, ConfigLoader.Options.DEFAULT);
    }

    PlanOptions options() {
        return PlanOptions.defaults(dir);
    }

    /** Options with {@code -target}s, {@code -replace}s and a mode, as the CLI builds them. */
    PlanOptions options(PlanMode mode, List<String> targets, List<String> replace) {
        return options(mode, targets, List.of(), replace);
    }

    /** Options with {@code -target}s, {@code -exclude}s, {@code -replace}s and a mode, as the CLI builds them. */
    PlanOptions options(PlanMode mode, List<String> targets, List<String> excludes, List<String> replace) {
        List<Targetable> ts = targets(targets);
        List<Targetable> xs = targets(excludes);
        List<AbsResourceInstance> rs =
                replace.stream().map(EngineHarness::instance).toList();
        return new PlanOptions(dir, dir, "default", mode, true, ts, xs, rs, 10);
    }

    private static List<Targetable> targets(List<String> targets) {
        return targets.stream()
                .map(t -> {
                    Result<Targetable> r = Addrs.parseTarget(t);
                    assertThat(r.value()).as(r.diagnostics().toString()).isNotNull();
                    return r.value();
                })
                .toList();
    }

    static AbsResourceInstance instance(String addr) {
        Result<AbsResourceInstance> r = Addrs.parseAbsResourceInstance(addr);
        assertThat(r.value()).as(r.diagnostics().toString()).isNotNull();
        return r.value();
    }

    private StateManager open(String operation) {
        Result<StateManager> sm =
                LocalBackend.in(dir, "test").open("default", LockRequest.of(operation, Duration.ZERO));
        assertThat(sm.value()).as(sm.diagnostics().toString()).isNotNull();
        return sm.value();
    }

    /** The stored state. */
    StateSnapshot state() {
        try (StateManager sm = open("read")) {
            return sm.state();
        }
    }

    /** The stored state's instance addresses, sorted. */
    List<String> stateAddresses() {
        List<String> out = new ArrayList<>();
        for (var rs : state().resources()) {
            for (var o : rs.instances()) {
                out.add(rs.addr() + o.key().toString() + (o.deposed() == null ? "" : " (deposed)"));
            }
        }
        return out.stream().sorted().toList();
    }

    /**
     * The root module's variables as the CLI reads them for an operation (defaults; the walk checks them),
     * with those the test set.
     */
    private SortedMap<String, Value> rootVariables(ConfigTree tree) {
        Result<dev.strata.config.InputVariables.Read> r =
                dev.strata.config.InputVariables.read(tree.root().module(), dir, Map.of(), List.of(), null, false);
        assertThat(r.diagnostics().hasErrors()).as(r.diagnostics().toString()).isFalse();
        SortedMap<String, Value> all = new TreeMap<>(r.value().values());
        all.putAll(variables);
        return all;
    }

    Result<Plan> plan(ConfigTree tree) {
        return plan(tree, options());
    }

    Result<Plan> plan(ConfigTree tree, PlanOptions options) {
        return plan(tree, options, EngineEvents.NONE);
    }

    Result<Plan> plan(ConfigTree tree, PlanOptions options, EngineEvents events) {
        try (StateManager sm = open("plan")) {
            Engine engine = engine(tree);
            stoppers.add(engine::stop);
            try {
                return engine.plan(rootVariables(tree), sm.state(), options, events);
            } finally {
                stoppers.clear();
            }
        }
    }

    /** The engine every operation of this harness runs on: the test providers and the harness's clock. */
    Engine engine(ConfigTree tree) {
        return Engine.builder(tree, registry, "test")
                .clock(clock)
                .interceptor(interceptor)
                .build();
    }

    /** Plans and fails the test unless there is a plan. */
    Plan planned(ConfigTree tree, PlanOptions options) {
        Result<Plan> p = plan(tree, options);
        assertThat(p.value()).as(p.diagnostics().toString()).isNotNull();
        return p.value();
    }

    Plan planned(ConfigTree tree) {
        return planned(tree, options());
    }

    Result<ApplyResult> apply(ConfigTree tree, Plan plan) {
        return apply(tree, plan, options(), EngineEvents.NONE);
    }

    Result<ApplyResult> apply(ConfigTree tree, Plan plan, PlanOptions options, EngineEvents events) {
        try (StateManager sm = open("apply")) {
            Engine engine = engine(tree);
            stoppers.add(engine::stop);
            try {
                return engine.apply(plan, sm, options, events);
            } finally {
                stoppers.clear();
            }
        }
    }

    Result<ApplyResult> planAndApply(ConfigTree tree) {
        return planAndApply(tree, options(), EngineEvents.NONE);
    }

    Result<ApplyResult> planAndApply(ConfigTree tree, PlanOptions options, EngineEvents events) {
        return apply(tree, planned(tree, options), options, events);
    }

    /** Writes the configuration, plans and applies it, and fails the test on any error. */
    ApplyResult applied(String tf) {
        Result<ApplyResult> r = planAndApply(config(tf));
        assertThat(r.diagnostics().hasErrors()).as(r.diagnostics().toString()).isFalse();
        return r.value();
    }

    /** The first interrupt of the operation in flight, as the CLI's Ctrl-C handler sends it. */
    void stop() {
        synchronized (stoppers) {
            stoppers.forEach(Runnable::run);
        }
    }

    /** Changes the stored state directly (the state a test starts from). */
    void editState(UnaryOperator<StateSnapshot> edit) {
        try (StateManager sm = open("edit")) {
            Result<StateSnapshot> w = sm.persist(edit.apply(sm.state()));
            assertThat(w.hasErrors()).as(w.diagnostics().toString()).isFalse();
        }
    }

    Diagnostics importResource(ConfigTree tree, String addr, String id) {
        try (StateManager sm = open("import")) {
            return engine(tree)
                    .importResource(rootVariables(tree), sm, options(), instance(addr), id, EngineEvents.NONE);
        }
    }

    /** Sets how many journal entries an apply writes before folding them into the snapshot; returns the old. */
    static int compactEvery(int entries) {
        int before = Applier.compactEvery;
        Applier.compactEvery = entries;
        return before;
    }

    /** {@code strata graph}: the DOT text, or the cycle errors unless {@code drawCycles}. */
    static Result<String> graph(ConfigTree tree, boolean drawCycles) {
        return Planner.dot(tree, drawCycles);
    }

    Diagnostics validate(ConfigTree tree) {
        return engine(tree).validate(dir);
    }

    // What tests compare: plain strings, sorted where order is not part of the behaviour.

    /** Every change as {@code "addr action"}, with {@code " (reason)"} where Terraform gives one. */
    static List<String> changes(Plan p) {
        return p.changes().stream().map(EngineHarness::describe).toList();
    }

    static String describe(ResourceChange c) {
        StringBuilder s = new StringBuilder(c.addr().toString());
        if (c.deposed() != null) {
            s.append(" deposed");
        }
        s.append(' ').append(c.action().name().toLowerCase(java.util.Locale.ROOT));
        if (c.reason() != null) {
            s.append(" (").append(c.reason()).append(')');
        }
        if (c.previousAddr() != null) {
            s.append(" from ").append(c.previousAddr());
        }
        if (c.importId() != null) {
            s.append(" import ").append(c.importId());
        }
        return s.toString();
    }

    /** Changes other than no-ops. */
    static List<String> actions(Plan p) {
        return p.changes().stream()
                .filter(c -> c.action() != Action.NO_OP || c.previousAddr() != null || c.importId() != null)
                .map(EngineHarness::describe)
                .toList();
    }

    static List<String> deferred(Plan p) {
        return p.deferred().stream()
                .map(d -> d.addr() + " " + d.argument() + " " + d.dependsOn())
                .toList();
    }

    static List<Diagnostic> errors(Diagnostics ds) {
        return ds.asList().stream().filter(Diagnostic::isError).toList();
    }

    /** Errors as {@code "summary: detail"}. */
    /** Each error as {@code "[with ADDRESS, ]summary: detail"}, the address when a provider reported it for one. */
    static List<String> errorTexts(Diagnostics ds) {
        return errors(ds).stream()
                .map(d -> (d.address() == null ? "" : "with " + d.address() + ", ") + d.summary() + ": " + d.detail())
                .toList();
    }

    static List<String> summaries(Diagnostics ds) {
        return ds.asList().stream()
                .map(d -> (d.isError() ? "error " : "warning ") + d.summary())
                .toList();
    }

    static List<String> sorted(List<?> l) {
        return l.stream().map(Object::toString).sorted().toList();
    }

    /** The value of an attribute of a planned change's after object. */
    static Value after(Plan p, String addr, String attribute) {
        return p.changes().stream()
                .filter(c -> c.addr().toString().equals(addr) && c.deposed() == null)
                .findFirst()
                .orElseThrow(() -> new AssertionError("no change for " + addr + " in " + changes(p)))
                .after()
                .attributes()
                .get(attribute);
    }

    /**
     * A row of a small table: a prior configuration applied first (or null), the configuration under
     * test, and what is expected of it, as strings.
     */
    record Row(String name, String prior, String config, List<String> expected) {
        @Override
        public String toString() {
            return name;
        }
    }

    /**
     * One row of a table-driven plan test: an optional configuration applied first (the prior state),
     * then the configuration planned, and what the plan must be. Built with the {@code with} methods:
     * {@code PlanCase.of("name", prior, config).targets("fake_thing.a").changes("fake_thing.a create")}.
     *
     * @param changes  every change other than a no-op, as {@link #describe(ResourceChange)} writes it
     * @param deferred every deferred expansion, as {@link #deferred(Plan)} writes it
     * @param errors   the plan's errors as {@code "summary: detail"}; when not empty there must be no plan
     * @param warnings the plan's warning summaries
     */
    record PlanCase(
            String name,
            String prior,
            String config,
            PlanMode mode,
            List<String> targets,
            List<String> excludes,
            List<String> replace,
            List<String> changes,
            List<String> deferred,
            List<String> errors,
            List<String> warnings,
            String bug) {
        static PlanCase of(String name, String prior, String config) {
            return new PlanCase(
                    name,
                    prior,
                    config,
                    PlanMode.NORMAL,
                    List.of(),
                    List.of(),
                    List.of(),
                    List.of(),
                    List.of(),
                    List.of(),
                    List.of(),
                    null);
        }

        /**
         * A row that states Terraform's behaviour where Strata differs today: skipped with the reason
         * (the table's {@code @Disabled}) until the engine is fixed.
         */
        PlanCase bug(String why) {
            return new PlanCase(
                    name,
                    prior,
                    config,
                    mode,
                    targets,
                    excludes,
                    replace,
                    changes,
                    deferred,
                    errors,
                    warnings,
                    "bug: " + why);
        }

        PlanCase mode(PlanMode m) {
            return new PlanCase(
                    name, prior, config, m, targets, excludes, replace, changes, deferred, errors, warnings, bug);
        }

        PlanCase targets(String... t) {
            return new PlanCase(
                    name, prior, config, mode, List.of(t), excludes, replace, changes, deferred, errors, warnings, bug);
        }

        PlanCase excludes(String... x) {
            return new PlanCase(
                    name, prior, config, mode, targets, List.of(x), replace, changes, deferred, errors, warnings, bug);
        }

        PlanCase replace(String... r) {
            return new PlanCase(
                    name, prior, config, mode, targets, excludes, List.of(r), changes, deferred, errors, warnings, bug);
        }

        PlanCase changes(String... c) {
            return new PlanCase(
                    name, prior, config, mode, targets, excludes, replace, List.of(c), deferred, errors, warnings, bug);
        }

        PlanCase deferred(String... d) {
            return new PlanCase(
                    name, prior, config, mode, targets, excludes, replace, changes, List.of(d), errors, warnings, bug);
        }

        PlanCase errors(String... e) {
            return new PlanCase(
                    name,
                    prior,
                    config,
                    mode,
                    targets,
                    excludes,
                    replace,
                    changes,
                    deferred,
                    List.of(e),
                    warnings,
                    bug);
        }

        PlanCase warnings(String... w) {
            return new PlanCase(
                    name, prior, config, mode, targets, excludes, replace, changes, deferred, errors, List.of(w), bug);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /** Applies the case's prior configuration (which must succeed), plans its configuration and checks the plan. */
    Result<Plan> check(PlanCase c) {
        org.junit.jupiter.api.Assumptions.assumeTrue(c.bug() == null, c.bug());
        files(Map.of(
                "m/main.tf",
                CHILD_MODULE,
                "v/main.tf",
                CHECKED_MODULE,
                "w/main.tf",
                PAIR_MODULE,
                "n/main.tf",
                NESTING_MODULE));
        if (c.prior() != null) {
            applied(c.prior());
        }
        Result<Plan> p = plan(config(c.config()), options(c.mode(), c.targets(), c.excludes(), c.replace()));
        if (!c.errors().isEmpty()) {
            assertThat(errorTexts(p.diagnostics()))
                    .as(p.diagnostics().toString())
                    .isEqualTo(c.errors());
            assertThat(p.value()).isNull();
            return p;
        }
        assertThat(p.value()).as(p.diagnostics().toString()).isNotNull();
        assertThat(actions(p.value())).as("changes").isEqualTo(c.changes());
        assertThat(deferred(p.value())).as("deferred").isEqualTo(c.deferred());
        assertThat(p.diagnostics().asList())
                .filteredOn(d -> !d.isError())
                .extracting(Diagnostic::summary)
                .as("warnings")
                .isEqualTo(c.warnings());
        return p;
    }

    /**
     * One row of a table-driven apply test: the prior configuration applied first, then the
     * configuration planned and applied.
     *
     * @param order   provider apply calls ({@link FakeProvider#applyLog}) that must have run in this order
     * @param calls   how many apply calls there were
     * @param summary {@code "added changed destroyed"}
     * @param state   the stored state's instances afterwards, sorted
     * @param errors  the apply's errors as {@code "summary: detail"}
     */
    record ApplyCase(
            String name,
            String prior,
            String config,
            PlanMode mode,
            List<String> order,
            int calls,
            String summary,
            List<String> state,
            List<String> errors) {
        static ApplyCase of(String name, String prior, String config, int calls, String summary, String... state) {
            return new ApplyCase(
                    name, prior, config, PlanMode.NORMAL, List.of(), calls, summary, List.of(state), List.of());
        }

        ApplyCase mode(PlanMode m) {
            return new ApplyCase(name, prior, config, m, order, calls, summary, state, errors);
        }

        ApplyCase order(String... o) {
            return new ApplyCase(name, prior, config, mode, List.of(o), calls, summary, state, errors);
        }

        ApplyCase errors(String... e) {
            return new ApplyCase(name, prior, config, mode, order, calls, summary, state, List.of(e));
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /** Applies the prior configuration, then plans and applies the case's and checks what the apply did. */
    ApplyResult check(ApplyCase c) {
        files(Map.of("m/main.tf", CHILD_MODULE));
        if (c.prior() != null) {
            applied(c.prior());
        }
        fake.applyLog.clear();
        Result<ApplyResult> r =
                planAndApply(config(c.config()), options(c.mode(), List.of(), List.of()), EngineEvents.NONE);
        assertThat(errorTexts(r.diagnostics())).as(r.diagnostics().toString()).isEqualTo(c.errors());
        List<String> log = List.copyOf(fake.applyLog);
        assertThat(log).as("apply calls").hasSize(c.calls());
        if (!c.order().isEmpty()) {
            assertThat(log).as("apply order").containsSubsequence(c.order());
        }
        ApplyResult a = r.value();
        assertThat(a.added() + " " + a.changed() + " " + a.destroyed())
                .as("added changed destroyed")
                .isEqualTo(c.summary());
        assertThat(stateAddresses()).as("state").isEqualTo(c.state());
        return a;
    }
}
