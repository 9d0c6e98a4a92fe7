package dev.strata.provider.testkit;

import dev.strata.addr.AttributePath;
import dev.strata.lang.value.Value;
import dev.strata.provider.Block;
import dev.strata.provider.ObjectChecks;
import dev.strata.provider.PrivateState;
import dev.strata.provider.ProposedNewState;
import dev.strata.provider.Provider;
import dev.strata.provider.ProviderDiagnostics;
import dev.strata.provider.Schema;
import dev.strata.provider.ValueJson;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Drives one resource instance through its life as the engine would, checking the protocol's
 * rules at every step: a plan keeps every configured value; apply returns a wholly known object
 * that matches every known planned value; the object survives being stored and read back
 * (upgradeResourceState at the current version); and right after an apply, refresh followed by a
 * new plan of the same configuration changes nothing.
 */
public final class ResourceTester {

    private final ProviderTester tester;
    private final Provider provider;
    private final String typeName;
    private final Schema schema;
    private final Block block;
    private Value state;
    private PrivateState privateState = PrivateState.EMPTY;
    private Value lastConfig;

    ResourceTester(ProviderTester tester, String typeName, Schema schema) {
        this.tester = tester;
        this.provider = tester.provider();
        this.typeName = typeName;
        this.schema = schema;
        this.block = schema.block();
        this.state = block.nullValue();
    }

    /** The current state; a null object when there is none. */
    public Value state() {
        return state;
    }

    /** The plan for {@code config} against the current state, without applying it. */
    public Step plan(Map<String, Value> config) {
        Value cfg = conformAndValidate(config);
        Plan p = plan(state, cfg);
        return new Step(p.action, p.planned, p.requiresReplace, state);
    }

    /**
     * Plans and applies {@code config}, then refreshes and plans again, which must find nothing
     * to do. A replacement destroys the old object and creates the new one.
     */
    public Step apply(Map<String, Value> config) {
        Value cfg = conformAndValidate(config);
        Plan p = plan(state, cfg);
        switch (p.action) {
            case NO_OP -> {}
            case CREATE, UPDATE -> {
                state = applyChange(state, p, cfg);
            }
            case REPLACE -> {
                Plan create = plan(block.nullValue(), cfg);
                destroyObject();
                state = applyChange(block.nullValue(), create, cfg);
            }
            case DELETE -> throw new IllegalStateException("a configuration never plans a delete");
        }
        lastConfig = cfg;
        if (p.action != Action.NO_OP) {
            state = refresh();
            if (state.isNull()) {
                throw new AssertionError("readResource lost the object right after it was applied");
            }
            Plan again = plan(state, cfg);
            if (again.action != Action.NO_OP) {
                throw new AssertionError("the plan after apply is not empty: " + again.action
                        + " " + differences(state, again.planned)
                        + (again.requiresReplace.isEmpty()
                                ? ""
                                : " (replace because of " + again.requiresReplace + ")"));
            }
        }
        return new Step(p.action, p.planned, p.requiresReplace, state);
    }

    /** Reads the object again, as a refresh does; returns (and keeps) the new state. */
    public Value refresh() {
        if (state.isNull()) {
            return state;
        }
        Provider.ReadResponse resp = provider.readResource(new Provider.ReadRequest(typeName, state, privateState));
        ProviderTester.checkNoLeaks(block, state, resp.diagnostics());
        ProviderTester.expectNoErrors("readResource", resp.diagnostics());
        ProviderTester.failIfUnknown("readResource", resp.newState());
        state = resp.newState();
        privateState = resp.newPrivate();
        return state;
    }

    /**
     * Imports the object named {@code id} and reads it, as {@code terraform import} does; returns
     * the imported state without changing this tester's own.
     */
    public Value importState(String id) {
        Provider.ImportResponse resp = provider.importResourceState(new Provider.ImportRequest(typeName, id));
        ProviderTester.expectNoErrors("importResourceState", resp.diagnostics());
        if (resp.imported().isEmpty()) {
            throw new AssertionError("importResourceState returned no object for the id");
        }
        Provider.ImportedResource imported = resp.imported().get(0);
        if (!imported.typeName().equals(typeName)) {
            throw new AssertionError("importResourceState returned a " + imported.typeName());
        }
        Provider.ReadResponse read =
                provider.readResource(new Provider.ReadRequest(typeName, imported.state(), imported.privateState()));
        ProviderTester.expectNoErrors("readResource after import", read.diagnostics());
        if (read.newState().isNull()) {
            throw new AssertionError("the imported object does not exist");
        }
        ProviderTester.failIfUnknown("readResource after import", read.newState());
        roundTrip(read.newState());
        return read.newState();
    }

    /** The diagnostics of importing {@code id}, for tests of ids that must be refused. */
    public ProviderDiagnostics importErrors(String id) {
        return provider.importResourceState(new Provider.ImportRequest(typeName, id))
                .diagnostics();
    }

    /**
     * Imports the object this tester manages by {@code id} and checks that the import equals the
     * current state except for {@code ignore} (attributes an import cannot know, such as keepers).
     */
    public Value importAndVerify(String id, Set<String> ignore) {
        Value imported = importState(id);
        List<String> diffs = new ArrayList<>();
        state.attributes().forEach((name, v) -> {
            if (!ignore.contains(name)
                    && !v.equalsIgnoringMarks(imported.attributes().get(name))) {
                diffs.add(name);
            }
        });
        if (!diffs.isEmpty()) {
            throw new AssertionError("the imported state differs from the managed one in " + diffs);
        }
        return imported;
    }

    /** Plans and applies the destruction of the object. */
    public void destroy() {
        if (state.isNull()) {
            return;
        }
        Provider.PlanResponse p = provider.planResourceChange(
                new Provider.PlanRequest(typeName, state, block.nullValue(), block.nullValue(), privateState));
        ProviderTester.expectNoErrors("planResourceChange (destroy)", p.diagnostics());
        if (!p.plannedState().isNull()) {
            throw new AssertionError("planResourceChange planned an object for a destroy");
        }
        destroyObject();
    }

    private void destroyObject() {
        Provider.ApplyResponse resp = provider.applyResourceChange(
                new Provider.ApplyRequest(typeName, state, block.nullValue(), block.nullValue(), privateState, null));
        ProviderTester.checkNoLeaks(block, state, resp.diagnostics());
        ProviderTester.expectNoErrors("applyResourceChange (destroy)", resp.diagnostics());
        if (!resp.newState().isNull()) {
            throw new AssertionError("applyResourceChange returned an object after a destroy");
        }
        state = block.nullValue();
        privateState = PrivateState.EMPTY;
    }

    private record Plan(Action action, Value planned, List<AttributePath> requiresReplace, PrivateState planPrivate) {}

    private Value conformAndValidate(Map<String, Value> config) {
        Value cfg = ProviderTester.conform(block, config, typeName + " configuration");
        ProviderTester.expectNoErrors("validateResourceConfig", provider.validateResourceConfig(typeName, cfg));
        return cfg;
    }

    private Plan plan(Value prior, Value cfg) {
        Value proposed = ProposedNewState.of(block, prior, cfg);
        Provider.PlanResponse resp = provider.planResourceChange(new Provider.PlanRequest(
                typeName, prior, proposed, cfg, prior.isNull() ? PrivateState.EMPTY : privateState));
        ProviderTester.checkNoLeaks(block, prior, resp.diagnostics());
        ProviderTester.expectNoErrors("planResourceChange", resp.diagnostics());
        Value planned = resp.plannedState();
        ProviderTester.failIf("planResourceChange returned", ObjectChecks.checkPlanValid(block, cfg, planned));
        if (!planned.type().equals(block.impliedType()) && !conformsLoosely(planned)) {
            throw new AssertionError("planResourceChange returned an object of the wrong type");
        }
        if (prior.isNull() && !resp.requiresReplace().isEmpty()) {
            throw new AssertionError("planResourceChange asked to replace an object that does not exist yet");
        }
        Action action;
        if (prior.isNull()) {
            action = Action.CREATE;
        } else if (!resp.requiresReplace().isEmpty()) {
            action = Action.REPLACE;
        } else if (planned.equalsIgnoringMarks(prior)) {
            action = Action.NO_OP;
        } else {
            action = Action.UPDATE;
        }
        return new Plan(action, planned, resp.requiresReplace(), resp.plannedPrivate());
    }

    // Dynamic attributes make the planned object's type more specific than the implied type.
    private boolean conformsLoosely(Value planned) {
        return planned.type() instanceof dev.strata.lang.types.ObjectType o
                && o.attrs().keySet().equals(block.impliedType().attrs().keySet());
    }

    private Value applyChange(Value prior, Plan p, Value cfg) {
        String token = prior.isNull() ? UUID.randomUUID().toString() : null;
        Provider.ApplyResponse resp = provider.applyResourceChange(
                new Provider.ApplyRequest(typeName, prior, p.planned, cfg, p.planPrivate, token));
        ProviderTester.checkNoLeaks(block, resp.newState(), resp.diagnostics());
        ProviderTester.checkNoLeaks(block, p.planned, resp.diagnostics());
        ProviderTester.expectNoErrors("applyResourceChange", resp.diagnostics());
        Value newState = resp.newState();
        if (newState.isNull()) {
            throw new AssertionError("applyResourceChange returned no object for a " + p.action);
        }
        ProviderTester.failIfUnknown("applyResourceChange", newState);
        ProviderTester.failIf("applyResourceChange returned", ObjectChecks.checkCompatible(p.planned, newState));
        privateState = resp.newPrivate();
        roundTrip(newState);
        return newState;
    }

    /** The object must read back unchanged after being stored as JSON at the current schema version. */
    private void roundTrip(Value v) {
        String json = ValueJson.encode(v.unmarkDeep(), block.impliedType());
        Provider.UpgradeResponse up =
                provider.upgradeResourceState(new Provider.UpgradeRequest(typeName, schema.version(), json));
        ProviderTester.expectNoErrors("upgradeResourceState", up.diagnostics());
        if (!up.upgradedState().equalsIgnoringMarks(v)) {
            throw new AssertionError(
                    "the object changed when stored and read back: " + differences(v, up.upgradedState()));
        }
    }

    /** The names of the top-level attributes that differ; never the values, which may be secret. */
    static List<String> differences(Value a, Value b) {
        List<String> out = new ArrayList<>();
        if (!a.isKnownAndNotNull() || !b.isKnownAndNotNull()) {
            return List.of("(whole object)");
        }
        a.attributes().forEach((k, v) -> {
            Value o = b.attributes().get(k);
            if (o == null || !v.equalsIgnoringMarks(o)) {
                out.add(k);
            }
        });
        return out;
    }

    /** The configuration of the last apply, for tests that change one argument. */
    public Value lastConfig() {
        return lastConfig;
    }

    public ProviderTester tester() {
        return tester;
    }
}
