package dev.strata.providers.cloudsim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.strata.addr.AttributePath;
import dev.strata.lang.value.Value;
import dev.strata.provider.Block;
import dev.strata.provider.ProviderDiagnostic;
import dev.strata.provider.ProviderDiagnostics;
import dev.strata.provider.Schema;
import dev.strata.provider.ValueJson;
import dev.strata.provider.sdk.Attrs;
import dev.strata.provider.sdk.ManagedResource;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * One simulator object kind as a resource. The arguments are sent as the JSON fields of the same
 * name ({@code wire} renames the few that differ); the computed ones come back from the API. A
 * create passes the engine's idempotency token as {@code Idempotency-Key}. Its answer holds the whole
 * object: when the API says reads already show it ({@code X-Visible-In-Ms: 0}) and it is ready, that
 * answer is the new state, one request per create. Otherwise the create waits, with backoff, until
 * the new object is visible (eventual consistency; first as long as the API said) and, for kinds
 * that provision asynchronously, ready.
 */
final class SimResource implements ManagedResource {

    private final String typeName;
    private final String kind;
    private final Schema schema;
    private final Set<String> forceNew;
    private final Set<String> mutable;
    private final Map<String, String> wire;
    private final String readyStatus;
    private final CloudsimProvider.Holder sim;
    private Set<String> growOnly = Set.of();

    SimResource(
            String typeName,
            String kind,
            Block block,
            Set<String> forceNew,
            Set<String> mutable,
            Map<String, String> wire,
            String readyStatus,
            CloudsimProvider.Holder sim) {
        this.typeName = typeName;
        this.kind = kind;
        this.schema = Schema.of(block);
        this.forceNew = forceNew;
        this.mutable = mutable;
        this.wire = wire;
        this.readyStatus = readyStatus;
        this.sim = sim;
    }

    /**
     * Numeric attributes the API lets grow but not shrink (a disk's size): a smaller value plans a
     * replacement, as cloud providers do for such sizes, instead of an update the API would refuse.
     */
    SimResource growOnly(String... attributes) {
        this.growOnly = Set.of(attributes);
        return this;
    }

    @Override
    public Value modifyPlan(PlanContext plan, ProviderDiagnostics.Builder diags) {
        Value planned = plan.planned();
        if (plan.isCreate() || !plan.requiresReplace().isEmpty()) {
            return planned;
        }
        for (String a : growOnly) {
            Value before = Attrs.get(plan.prior(), a).unmarkDeep();
            Value after = Attrs.get(planned, a).unmarkDeep();
            if (before.isKnownAndNotNull()
                    && after.isKnownAndNotNull()
                    && after.asNumber().compareTo(before.asNumber()) < 0) {
                plan.requiresReplace().add(AttributePath.of(a));
            }
        }
        if (!plan.requiresReplace().isEmpty()) {
            // A new object: everything the API assigns is unknown again.
            for (var e : schema.block().attributes().entrySet()) {
                if (e.getValue().computed()
                        && Attrs.get(plan.config(), e.getKey()).isNull()) {
                    planned = Attrs.with(
                            planned, e.getKey(), Value.unknown(e.getValue().type()));
                }
            }
        }
        return planned;
    }

    @Override
    public String typeName() {
        return typeName;
    }

    @Override
    public Schema schema() {
        return schema;
    }

    @Override
    public Set<String> forceNew() {
        return forceNew;
    }

    @Override
    public Set<String> stableComputed() {
        Set<String> s = new java.util.HashSet<>(Set.of("id", "arn", "private_ip", "dns_name"));
        if (readyStatus != null) {
            s.add("status");
        }
        return s;
    }

    private String field(String attr) {
        return wire.getOrDefault(attr, attr);
    }

    private ObjectNode body(Value v, Set<String> only) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        Map<String, dev.strata.lang.types.Type> types =
                schema.block().impliedType().attrs();
        schema.block().attributes().forEach((name, a) -> {
            if (a.configurable() && only.contains(name)) {
                Value x = Attrs.get(v, name).unmarkDeep();
                if (x.isKnownAndNotNull()) {
                    o.set(field(name), ValueJson.toNode(x, types.get(name)));
                }
            }
        });
        schema.block().blockTypes().forEach((name, nb) -> {
            if (only.contains(name)) {
                Value x = Attrs.get(v, name).unmarkDeep();
                if (x.isKnownAndNotNull()) {
                    o.set(field(name), ValueJson.toNode(x, types.get(name)));
                }
            }
        });
        return o;
    }

    /** The state from an API object: every attribute from its field, absent fields null. */
    private Value state(JsonNode obj) {
        Map<String, Value> m = new TreeMap<>();
        schema.block().impliedType().attrs().forEach((name, t) -> {
            JsonNode n = obj.get(field(name));
            Value v = n == null || n.isNull() ? Value.nullValue(t) : ValueJson.fromNode(n, t);
            if (schema.block().blockType(name) != null && v.isNull()) {
                v = dev.strata.provider.SchemaValues.coerce(schema.block(), Value.EMPTY_OBJECT)
                        .value()
                        .attributes()
                        .get(name);
            }
            m.put(name, v);
        });
        return Value.object(m);
    }

    /** Every attribute and block name: what a create sends (made once, the schema does not change). */
    private Set<String> all() {
        Set<String> s = all;
        if (s == null) {
            Set<String> names =
                    new java.util.HashSet<>(schema.block().attributes().keySet());
            names.addAll(schema.block().blockTypes().keySet());
            all = s = Set.copyOf(names);
        }
        return s;
    }

    private volatile Set<String> all;

    @Override
    public Value create(Value planned, Value config, String idempotencyToken, ProviderDiagnostics.Builder diags) {
        SimClient c = sim.client();
        Optional<SimClient.Response> r = c.send("POST", "/v1/" + kind, body(planned, all()), idempotencyToken, diags);
        if (r.isEmpty()) {
            return null;
        }
        if (r.get().status() != 200 && r.get().status() != 201) {
            diags.add(SimClient.permanent("Could not create " + typeName, r.get()));
            return null;
        }
        String id = r.get().body().get("id").asText();
        Value created = state(r.get().body());
        long visibleIn = r.get().visibleInMs();
        if (visibleIn == 0 && ready(r.get().body())) {
            // Reads show it already and would answer the same object: reading it back would only cost a request.
            return created;
        }
        // Eventual consistency: the API may not show a new object for a while; wait, bounded.
        Duration waited = Duration.ZERO;
        Duration step = Duration.ofMillis(100);
        if (visibleIn > 0) {
            // The API said how long: no read can show it earlier.
            Duration pause = Duration.ofMillis(visibleIn).compareTo(c.consistencyTimeout) < 0
                    ? Duration.ofMillis(visibleIn)
                    : c.consistencyTimeout;
            try {
                c.sleeper.sleep(pause);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return created;
            }
            waited = pause;
        }
        while (true) {
            // A probe that fails (throttled, 5xx) does not fail the create, which did happen: it
            // counts as "not visible yet" until the wait is over.
            ProviderDiagnostics.Builder probe = ProviderDiagnostics.builder();
            Optional<SimClient.Response> g = c.send("GET", "/v1/" + kind + "/" + id, null, null, probe);
            // An endpoint that stopped answering will not show the object by waiting: report it now.
            if (g.isEmpty()
                    && (waited.compareTo(c.consistencyTimeout) >= 0
                            || !probe.build()
                                    .failure()
                                    .map(dev.strata.provider.Failure::isTransient)
                                    .orElse(true))) {
                diags.addAll(probe.build());
                return created;
            }
            if (g.isEmpty()) {
                Duration pause = probe.build()
                        .failure()
                        .flatMap(f -> f instanceof dev.strata.provider.Failure.Transient t
                                ? t.retryAfter()
                                : Optional.empty())
                        .filter(d -> !d.isZero())
                        .orElse(step);
                try {
                    c.sleeper.sleep(pause);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return created;
                }
                waited = waited.plus(pause);
                continue;
            }
            boolean visible = g.get().status() == 200;
            if (visible && ready(g.get().body())) {
                return state(g.get().body());
            }
            if (!visible && g.get().status() != 404) {
                diags.add(SimClient.permanent("Could not read the new " + typeName, g.get()));
                return created;
            }
            if (waited.compareTo(c.consistencyTimeout) >= 0) {
                diags.add(ProviderDiagnostic.transientError(
                        "Timed out waiting for " + typeName + " " + id,
                        visible
                                ? "The object was created but is still "
                                        + g.get().body().path("status").asText() + "."
                                : "The object was created but the API does not show it yet.",
                        new dev.strata.provider.Failure.Transient(Optional.empty())));
                return created;
            }
            try {
                c.sleeper.sleep(step);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return created;
            }
            waited = waited.plus(step);
            step = step.multipliedBy(2).compareTo(Duration.ofSeconds(5)) > 0
                    ? Duration.ofSeconds(5)
                    : step.multipliedBy(2);
        }
    }

    /** Whether an object of this kind is in its usable state (kinds that provision asynchronously report a status). */
    private boolean ready(JsonNode obj) {
        return readyStatus == null || readyStatus.equals(obj.path("status").asText());
    }

    @Override
    public Value update(Value prior, Value planned, Value config, ProviderDiagnostics.Builder diags) {
        Set<String> changed = new java.util.HashSet<>();
        for (String m : mutable) {
            if (!Attrs.get(prior, m).equalsIgnoringMarks(Attrs.get(planned, m))) {
                changed.add(m);
            }
        }
        ObjectNode patch = body(planned, changed);
        for (String m : changed) {
            if (!patch.has(field(m))) {
                patch.putNull(field(m));
            }
        }
        String id = Attrs.string(prior, "id");
        Optional<SimClient.Response> r = sim.client().send("PATCH", "/v1/" + kind + "/" + id, patch, null, diags);
        if (r.isEmpty()) {
            return null;
        }
        if (r.get().status() != 200) {
            diags.add(SimClient.permanent("Could not update " + typeName + " " + id, r.get()));
            return null;
        }
        return state(r.get().body());
    }

    @Override
    public void delete(Value prior, ProviderDiagnostics.Builder diags) {
        String id = Attrs.string(prior, "id");
        Optional<SimClient.Response> r = sim.client().send("DELETE", "/v1/" + kind + "/" + id, null, null, diags);
        if (r.isPresent() && r.get().status() != 204 && r.get().status() != 404) {
            diags.add(SimClient.permanent("Could not delete " + typeName + " " + id, r.get()));
        }
    }

    @Override
    public Value read(Value state, ProviderDiagnostics.Builder diags) {
        String id = Attrs.string(state, "id");
        Optional<SimClient.Response> r = sim.client().send("GET", "/v1/" + kind + "/" + id, null, null, diags);
        if (r.isEmpty()) {
            return state;
        }
        if (r.get().status() == 404) {
            return null;
        }
        if (r.get().status() != 200) {
            diags.add(SimClient.permanent("Could not read " + typeName + " " + id, r.get()));
            return state;
        }
        return state(r.get().body());
    }

    @Override
    public Value importState(String id, ProviderDiagnostics.Builder diags) {
        return Attrs.with(schema.block().emptyValue(), "id", Value.string(id));
    }
}
