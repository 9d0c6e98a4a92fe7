package dev.strata.engine;

import dev.strata.addr.AttributePath;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import dev.strata.provider.Attribute;
import dev.strata.provider.Block;
import dev.strata.provider.Failure;
import dev.strata.provider.Provider;
import dev.strata.provider.ProviderDiagnostic;
import dev.strata.provider.ProviderDiagnostics;
import dev.strata.provider.ProviderFactory;
import dev.strata.provider.ProviderSchema;
import dev.strata.provider.Schema;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A provider for engine tests: {@code fake_thing} with a configurable {@code value}, a computed
 * {@code id} and a computed {@code serial}. Knobs make it fail transiently, fail permanently, or
 * plan a different value at apply time than at plan time. Some values act on their object alone:
 * {@code "slow"} applies when {@link #slowGate} opens (at most {@link #slowGateSeconds}), {@code "fail"} fails its apply,
 * {@code "plan-fail"} fails its plan, {@code "crash"} throws from the apply as a broken plugin client
 * would, {@code "plan-overflow"} and {@code "apply-overflow"} overflow the stack while planning or
 * applying it, {@code "apply-oom"} runs out of memory while applying it.
 */
class FakeProvider implements Provider {
    static final dev.strata.addr.Provider ADDRESS = new dev.strata.addr.Provider("example.com", "test", "fake");

    final AtomicInteger applies = new AtomicInteger();
    final AtomicInteger plans = new AtomicInteger();
    volatile int transientFailuresLeft;
    volatile boolean permanentFailure;
    volatile boolean driftingPlans;
    /** When set, resource validation fails at this attribute path, as a provider's ConflictsWith would. */
    volatile AttributePath validateError;
    /** Returns {@code ""} after apply where the plan had a null {@code value}, as legacy-SDK resources do. */
    volatile boolean emptyForNull;
    /** Fails every apply as a provider whose process died does. */
    volatile boolean gone;
    /** Plans {@code value = "default"} where the config leaves it null, as a legacy-SDK Default does. */
    volatile boolean plansDefaults;
    /** The protocol's legacy_type_system flag on plan and apply responses. */
    volatile boolean legacyTypeSystem;
    /** The provider_meta schema the provider declares; none when null. */
    volatile Block providerMeta;
    /** Opened by a test to let {@code "slow"} applies finish; they give up waiting after {@link #slowGateSeconds}. */
    final java.util.concurrent.CountDownLatch slowGate = new java.util.concurrent.CountDownLatch(1);
    /** How long a {@code "slow"} apply waits for {@link #slowGate}: long enough for a loaded machine when a test must see it open. */
    volatile int slowGateSeconds = 3;
    /** Called with every apply request before the provider acts on it (the test's synchronisation point). */
    volatile java.util.function.Consumer<ApplyRequest> beforeApply = r -> {};
    /** Called with every plan request before the provider plans it. */
    volatile java.util.function.Consumer<PlanRequest> beforePlan = r -> {};
    /** Whether reading (refreshing) a managed object fails. */
    volatile boolean readFails;
    /** Whether deleting fails (the API refuses), while creates and updates succeed. */
    volatile boolean deletesFail;
    /** Whether {@code importResourceState} finds the object (with {@code value = "imported"}). */
    volatile boolean importable;
    /** Ids whose remote object was deleted outside Strata: refresh finds nothing. */
    final java.util.Set<String> vanished = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** Every apply as {@code "<prior value> -> <planned value>"} ({@code -} for none), in the order they ran. */
    final java.util.List<String> applyLog = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
    /** The provider_meta of every request, as {@code "<call> <type>: <value>"}. */
    final java.util.List<String> metas = java.util.Collections.synchronizedList(new java.util.ArrayList<>());

    static final Block THING = Block.builder()
            .attribute("value", Attribute.optional(Type.STRING))
            .attribute("id", Attribute.computed(Type.STRING))
            .attribute("serial", Attribute.computed(Type.NUMBER))
            // A change of zone cannot be made in place: the object is replaced.
            .attribute("zone", Attribute.optional(Type.STRING))
            .block(
                    "timeouts",
                    dev.strata.provider.NestedBlock.of(
                            dev.strata.provider.NestingMode.SINGLE,
                            Block.builder()
                                    .attribute("create", Attribute.optional(Type.STRING))
                                    .build()))
            .build();

    /** A data source: {@code result} is {@code "read:" + value}. */
    static final Block INFO = Block.builder()
            .attribute("value", Attribute.optional(Type.STRING))
            .attribute("result", Attribute.computed(Type.STRING))
            .build();

    /** An ephemeral resource: {@code value} is {@code "secret:" + name}; a {@code name} of "fail" fails to open. */
    static final Block SECRET = Block.builder()
            .attribute("name", Attribute.required(Type.STRING))
            .attribute("value", Attribute.computed(Type.STRING).withSensitive())
            .build();

    /** Every ephemeral call, as {@code "open <name>"}, {@code "renew <name>"}, {@code "close <name>"}, in order. */
    final java.util.List<String> ephemeralLog = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
    /** The provider configuration's {@code token} of every configure call ({@code -} for none). */
    final java.util.List<String> configuredTokens = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
    /** When set, opened secrets ask to be renewed this long after opening. */
    volatile java.time.Duration renewAfter;

    static ProviderFactory factory(FakeProvider p) {
        return EngineHarness.factory(ADDRESS, () -> p);
    }

    @Override
    public ProviderSchema schema() {
        return new ProviderSchema(
                Schema.of(Block.builder()
                        .attribute("token", Attribute.optional(Type.STRING))
                        .build()),
                new TreeMap<>(Map.of("fake_thing", Schema.of(THING))),
                new TreeMap<>(Map.of("fake_info", Schema.of(INFO))),
                Optional.ofNullable(providerMeta).map(Schema::of),
                new TreeMap<>(Map.of("fake_secret", Schema.of(SECRET))));
    }

    @Override
    public ProviderDiagnostics validateProviderConfig(Value config) {
        return ProviderDiagnostics.NONE;
    }

    @Override
    public ProviderDiagnostics configure(ConfigureRequest request) {
        Value c = request.config();
        Value token = c.isKnownAndNotNull() ? c.attributes().get("token") : null;
        configuredTokens.add(token == null || !token.isKnownAndNotNull() ? "-" : token.asString());
        return ProviderDiagnostics.NONE;
    }

    @Override
    public ProviderDiagnostics validateResourceConfig(String typeName, Value config) {
        AttributePath at = validateError;
        return at == null
                ? ProviderDiagnostics.NONE
                : ProviderDiagnostics.of(dev.strata.provider.ProviderDiagnostic.error(
                        "Conflicting configuration", "Not with that.", at));
    }

    @Override
    public ProviderDiagnostics validateDataResourceConfig(String typeName, Value config) {
        return ProviderDiagnostics.NONE;
    }

    private static Value with(Value obj, String k, Value v) {
        Map<String, Value> m = new TreeMap<>(obj.attributes());
        m.put(k, v);
        return Value.object(m);
    }

    private static boolean valueIs(Value obj, String s) {
        Value v = obj.isKnownAndNotNull() ? obj.attributes().get("value") : null;
        return v != null && v.isKnownAndNotNull() && v.asString().equals(s);
    }

    private static String describe(Value obj) {
        if (obj.isNull()) {
            return "-";
        }
        Value v = obj.attributes().get("value");
        return v.isKnownAndNotNull() ? v.asString() : v.isKnown() ? "null" : "(unknown)";
    }

    /** Recursion without end, as a parser or decoder given a value nested too deeply would. */
    private static int recurse(int depth) {
        return recurse(depth + 1) + 1;
    }

    @Override
    public PlanResponse planResourceChange(PlanRequest r) {
        metas.add("plan " + r.typeName() + ": " + r.providerMeta());
        int n = plans.incrementAndGet();
        beforePlan.accept(r);
        Value p = r.proposedNewState();
        if (valueIs(p, "plan-overflow")) {
            recurse(0);
        }
        if (p.isNull()) {
            return new PlanResponse(p, java.util.List.of(), null, ProviderDiagnostics.NONE);
        }
        if (r.priorState().isNull()) {
            p = with(
                    with(p, "id", Value.unknown(Type.STRING)),
                    "serial",
                    driftingPlans ? Value.number(n) : Value.unknown(Type.NUMBER));
        }
        if (valueIs(p, "plan-fail")) {
            return new PlanResponse(
                    r.priorState(),
                    java.util.List.of(),
                    null,
                    ProviderDiagnostics.error("Invalid plan value", "The API would not accept this one."));
        }
        if (plansDefaults && p.attributes().get("value").isNull()) {
            p = with(p, "value", Value.string("default"));
        }
        java.util.List<AttributePath> replace = java.util.List.of();
        if (!r.priorState().isNull()) {
            Value before = r.priorState().attributes().get("zone");
            Value after = p.attributes().get("zone");
            if (before != null && !before.equals(after)) {
                replace = java.util.List.of(AttributePath.of("zone"));
                // A replacement is a new object: its computed attributes are unknown again.
                p = with(with(p, "id", Value.unknown(Type.STRING)), "serial", Value.unknown(Type.NUMBER));
            }
        }
        return new PlanResponse(p, replace, null, ProviderDiagnostics.NONE, legacyTypeSystem);
    }

    @Override
    public ApplyResponse applyResourceChange(ApplyRequest r) {
        metas.add("apply " + r.typeName() + ": " + r.providerMeta());
        applies.incrementAndGet();
        applyLog.add(describe(r.priorState()) + " -> " + describe(r.plannedState()));
        beforeApply.accept(r);
        if (valueIs(r.plannedState(), "slow")) {
            try {
                slowGate.await(slowGateSeconds, java.util.concurrent.TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (valueIs(r.plannedState(), "crash")) {
            throw new IllegalStateException("plugin connection reset");
        }
        if (valueIs(r.plannedState(), "apply-overflow")) {
            recurse(0);
        }
        if (valueIs(r.plannedState(), "apply-oom")) {
            throw new OutOfMemoryError("Java heap space");
        }
        if (deletesFail && r.plannedState().isNull()) {
            return new ApplyResponse(
                    r.priorState(),
                    null,
                    ProviderDiagnostics.error("Cannot delete", "The API refused to delete this one."));
        }
        if (valueIs(r.plannedState(), "fail")) {
            return new ApplyResponse(
                    r.priorState(), null, ProviderDiagnostics.error("Invalid thing", "The API rejected this one."));
        }
        if (transientFailuresLeft > 0) {
            transientFailuresLeft--;
            return new ApplyResponse(
                    r.priorState(),
                    null,
                    ProviderDiagnostics.of(ProviderDiagnostic.transientError(
                            "Throttled", "slow down", new Failure.Transient(Optional.of(Duration.ofMillis(5))))));
        }
        if (gone) {
            return new ApplyResponse(
                    r.priorState(),
                    null,
                    ProviderDiagnostics.of(new ProviderDiagnostic(
                            dev.strata.hcl.Severity.ERROR,
                            "Plugin did not respond",
                            "The provider crashed.",
                            null,
                            Failure.UNAVAILABLE)));
        }
        if (permanentFailure) {
            return new ApplyResponse(
                    r.priorState(), null, ProviderDiagnostics.error("Invalid thing", "The API rejected the thing."));
        }
        if (r.plannedState().isNull()) {
            return new ApplyResponse(r.plannedState(), null, ProviderDiagnostics.NONE);
        }
        Value v = r.plannedState();
        if (!v.attributes().get("id").isKnown()) {
            v = with(v, "id", Value.string("thing-" + applies.get()));
        }
        if (!v.attributes().get("serial").isKnown()) {
            v = with(v, "serial", Value.number(7));
        }
        if (emptyForNull && v.attributes().get("value").isNull()) {
            v = with(v, "value", Value.string(""));
        }
        return new ApplyResponse(v, null, ProviderDiagnostics.NONE, legacyTypeSystem);
    }

    @Override
    public ReadResponse readResource(ReadRequest r) {
        metas.add("read " + r.typeName() + ": " + r.providerMeta());
        if (!r.typeName().equals("fake_thing")) {
            // As a real provider: only managed resource types can be read as managed objects.
            return new ReadResponse(
                    r.currentState(),
                    r.currentPrivate(),
                    ProviderDiagnostics.error("Invalid resource type", "No managed resource type " + r.typeName()));
        }
        if (readFails) {
            return new ReadResponse(
                    r.currentState(),
                    r.currentPrivate(),
                    ProviderDiagnostics.error("Cannot read", "The API did not answer."));
        }
        Value id =
                r.currentState().isNull() ? null : r.currentState().attributes().get("id");
        if (id != null && id.isKnownAndNotNull() && vanished.contains(id.asString())) {
            return new ReadResponse(
                    Value.nullValue(r.currentState().type()), r.currentPrivate(), ProviderDiagnostics.NONE);
        }
        return new ReadResponse(r.currentState(), r.currentPrivate(), ProviderDiagnostics.NONE);
    }

    @Override
    public ImportResponse importResourceState(ImportRequest r) {
        if (!importable) {
            return new ImportResponse(java.util.List.of(), ProviderDiagnostics.error("Import not supported", ""));
        }
        Map<String, Value> found = new TreeMap<>();
        ((dev.strata.lang.types.ObjectType) THING.impliedType())
                .attrs()
                .forEach((k, t) -> found.put(k, Value.nullValue(t)));
        found.put("id", Value.string(r.id()));
        found.put("value", Value.string("imported"));
        found.put("serial", Value.number(1));
        return new ImportResponse(
                java.util.List.of(new ImportedResource(r.typeName(), Value.object(found), null)),
                ProviderDiagnostics.NONE);
    }

    @Override
    public UpgradeResponse upgradeResourceState(UpgradeRequest r) {
        return new UpgradeResponse(
                dev.strata.provider.ValueJson.decode(r.rawStateJson(), THING.impliedType()), ProviderDiagnostics.NONE);
    }

    @Override
    public ReadDataResponse readDataSource(ReadDataRequest r) {
        metas.add("data " + r.typeName() + ": " + r.providerMeta());
        Value v = r.config().attributes().get("value");
        return new ReadDataResponse(
                with(r.config(), "result", Value.string("read:" + (v.isNull() ? "" : v.asString()))),
                ProviderDiagnostics.NONE);
    }

    @Override
    public OpenEphemeralResponse openEphemeralResource(OpenEphemeralRequest r) {
        String name = r.config().attributes().get("name").asString();
        ephemeralLog.add("open " + name);
        if (name.equals("fail")) {
            return OpenEphemeralResponse.failed(ProviderDiagnostics.error("Secret not found", "No secret \"fail\"."));
        }
        java.time.Duration after = renewAfter;
        return OpenEphemeralResponse.of(
                with(r.config(), "value", Value.string("secret:" + name)),
                after == null ? null : java.time.Instant.now().plus(after),
                dev.strata.provider.PrivateState.of(name.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    }

    @Override
    public RenewEphemeralResponse renewEphemeralResource(RenewEphemeralRequest r) {
        ephemeralLog.add("renew " + new String(r.privateState().bytes(), java.nio.charset.StandardCharsets.UTF_8));
        java.time.Duration after = renewAfter;
        return new RenewEphemeralResponse(
                after == null ? null : java.time.Instant.now().plus(after), r.privateState(), ProviderDiagnostics.NONE);
    }

    @Override
    public ProviderDiagnostics closeEphemeralResource(CloseEphemeralRequest r) {
        ephemeralLog.add("close " + new String(r.privateState().bytes(), java.nio.charset.StandardCharsets.UTF_8));
        return ProviderDiagnostics.NONE;
    }

    @Override
    public ProviderDiagnostics stop() {
        return ProviderDiagnostics.NONE;
    }
}
