package dev.strata.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.strata.addr.AbsProviderConfig;
import dev.strata.addr.AbsResourceInstance;
import dev.strata.addr.Addrs;
import dev.strata.addr.AttributePath;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.IoProblems;
import dev.strata.lang.types.ListType;
import dev.strata.lang.types.MapType;
import dev.strata.lang.types.ObjectType;
import dev.strata.lang.types.SetType;
import dev.strata.lang.types.TupleType;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Mark;
import dev.strata.lang.value.Value;
import dev.strata.provider.PrivateState;
import dev.strata.provider.ValueJson;
import dev.strata.state.StateCodec;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The plan file's content: a {@link Plan} as JSON, with values that keep what plain JSON cannot
 * (unknowns, sensitive marks, their types), plus the prior state in Terraform's state format.
 * Reading checks everything and fails with a message rather than returning a partial plan.
 */
public final class PlanCodec {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    // 2: plans carry their timestamp.
    static final int FORMAT = 2;

    private PlanCodec() {}

    /** Thrown for a damaged plan file; the message says what is wrong. */
    public static final class Damaged extends Exception {
        public Damaged(String message) {
            super(message);
        }
    }

    public static ObjectNode encode(Plan p) {
        ObjectNode n = F.objectNode();
        n.put("format", FORMAT);
        n.put("mode", p.mode().name());
        ObjectNode vars = n.putObject("variables");
        p.variables().forEach((k, v) -> vars.set(k, typed(v)));
        n.put("prior_state", new String(StateCodec.write(p.priorState()), StandardCharsets.UTF_8));
        ArrayNode changes = n.putArray("changes");
        p.changes().forEach(c -> changes.add(change(c)));
        ArrayNode drift = n.putArray("drift");
        p.drift().forEach(c -> drift.add(change(c)));
        if (p.relevantAttributes().isKnown()) {
            // Recorded as Terraform's plan file does, so that showing the saved plan narrows its drift alike.
            ArrayNode relevant = n.putArray("relevant_attributes");
            for (RelevantAttributes.Attr a : p.relevantAttributes().all()) {
                ObjectNode o = relevant.addObject();
                o.put("resource", a.resource());
                ArrayNode path = o.putArray("path");
                a.path().forEach(step -> {
                    if (step instanceof Long l) {
                        path.add(l);
                    } else {
                        path.add(step.toString());
                    }
                });
            }
        }
        ArrayNode deferred = n.putArray("deferred");
        for (DeferredResource d : p.deferred()) {
            ObjectNode o = deferred.addObject();
            o.put("addr", d.addr().toString());
            o.put("argument", d.argument());
            ArrayNode deps = o.putArray("depends_on");
            d.dependsOn().forEach(deps::add);
        }
        ObjectNode outs = n.putObject("outputs");
        p.outputs().forEach((k, o) -> {
            ObjectNode x = outs.putObject(k);
            x.put("action", o.action().name());
            x.set("before", typed(o.before()));
            x.set("after", typed(o.after()));
            x.put("sensitive", o.sensitive());
        });
        ArrayNode targets = n.putArray("targets");
        p.targets().forEach(targets::add);
        n.put("timestamp", p.timestamp().toString());
        if (p.errored()) {
            // The errors' words, without their places or values: what marks the plan as one never to apply.
            ArrayNode errors = n.putArray("errors");
            for (Diagnostic d : p.diagnostics()) {
                if (d.isError()) {
                    errors.addObject().put("summary", d.summary()).put("detail", d.detail());
                }
            }
        }
        return n;
    }

    private static ObjectNode change(ResourceChange c) {
        ObjectNode o = F.objectNode();
        o.put("addr", c.addr().toString());
        if (c.deposed() != null) {
            o.put("deposed", c.deposed());
        }
        o.put("action", c.action().name());
        o.set("before", typed(c.before()));
        o.set("after", typed(c.after()));
        ArrayNode rp = o.putArray("replace_paths");
        c.replacePaths().forEach(p -> rp.add(path(p)));
        if (c.reason() != null) {
            o.put("reason", c.reason());
        }
        o.put("provider", c.provider().toString());
        o.put("schema_version", c.schemaVersion());
        if (!c.plannedPrivate().isEmpty()) {
            o.put("private", c.plannedPrivate().toBase64());
        }
        if (c.previousAddr() != null) {
            o.put("previous_addr", c.previousAddr().toString());
        }
        if (c.importId() != null) {
            o.put("import_id", c.importId());
        }
        return o;
    }

    private static ArrayNode path(AttributePath p) {
        ArrayNode a = F.arrayNode();
        for (AttributePath.Step s : p.steps()) {
            switch (s) {
                case AttributePath.Attr g -> a.add(g.name());
                case AttributePath.IndexString k -> a.add(typed(Value.string(k.key())));
                case AttributePath.IndexNumber n -> a.add(typed(Value.number(n.index())));
            }
        }
        return a;
    }

    /** A value with its type: {@code {"type": ..., "value": ...}}. */
    static ObjectNode typed(Value v) {
        ObjectNode o = F.objectNode();
        o.set("type", ValueJson.typeNode(v.type()));
        o.set("value", value(v));
        return o;
    }

    private static JsonNode value(Value v) {
        if (v.hasMark(Mark.EPHEMERAL) && !(v.isKnown() && v.isNull())) {
            // An ephemeral value lives for one plan or one apply and is never written down: the plan keeps
            // only that there was one (the apply must be given it again).
            ObjectNode e = F.objectNode();
            e.put("~e", true);
            return e;
        }
        JsonNode inner = bare(v);
        if (v.hasMark(Mark.SENSITIVE)) {
            ObjectNode s = F.objectNode();
            s.set("~s", inner);
            return s;
        }
        return inner;
    }

    private static JsonNode bare(Value v) {
        if (!v.isKnown()) {
            ObjectNode u = F.objectNode();
            u.put("~u", true);
            return u;
        }
        if (v.isNull()) {
            return F.nullNode();
        }
        return switch (v.type()) {
            case ObjectType o -> obj(v);
            case MapType m -> obj(v);
            case ListType l -> arr(v);
            case SetType s -> arr(v);
            case TupleType t -> arr(v);
            default -> {
                if (v.type() == Type.STRING) {
                    yield F.textNode(v.asString());
                }
                if (v.type() == Type.NUMBER) {
                    yield F.textNode(v.numberText());
                }
                if (v.type() == Type.BOOL) {
                    yield F.booleanNode(v.asBool());
                }
                // A known value of the dynamic type does not exist; keep the placeholder readable.
                yield F.nullNode();
            }
        };
    }

    private static JsonNode obj(Value v) {
        ObjectNode o = F.objectNode();
        v.attributes().forEach((k, e) -> o.set(k, value(e)));
        return o;
    }

    private static JsonNode arr(Value v) {
        ArrayNode a = F.arrayNode();
        v.elements().forEach(e -> a.add(value(e)));
        return a;
    }

    // ---- decoding ----

    public static Plan decode(JsonNode n) throws Damaged {
        try {
            if (n.path("format").asInt(-1) != FORMAT) {
                throw new Damaged("unsupported plan format " + n.path("format"));
            }
            String modeText = text(n, "mode");
            PlanMode mode = java.util.Arrays.stream(PlanMode.values())
                    .filter(m -> m.name().equals(modeText))
                    .findFirst()
                    .orElseThrow(() -> new Damaged("unknown plan mode \"" + modeText + "\""));
            SortedMap<String, Value> vars = new TreeMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = n.path("variables").fields(); it.hasNext(); ) {
                var e = it.next();
                vars.put(e.getKey(), untyped(e.getValue()));
            }
            var st = StateCodec.read(text(n, "prior_state").getBytes(StandardCharsets.UTF_8), "plan file", "");
            if (st.value() == null) {
                throw new Damaged("the prior state in the plan file is unreadable");
            }
            List<ResourceChange> changes = new ArrayList<>();
            for (JsonNode c : n.path("changes")) {
                changes.add(change(c));
            }
            List<ResourceChange> drift = new ArrayList<>();
            for (JsonNode c : n.path("drift")) {
                drift.add(change(c));
            }
            List<DeferredResource> deferred = new ArrayList<>();
            for (JsonNode d : n.path("deferred")) {
                var addr = Addrs.parseAbsResource(text(d, "addr"));
                if (addr.value() == null) {
                    throw new Damaged("bad address " + d.path("addr"));
                }
                List<String> deps = new ArrayList<>();
                d.path("depends_on").forEach(x -> deps.add(x.asText()));
                deferred.add(new DeferredResource(addr.value(), text(d, "argument"), deps));
            }
            SortedMap<String, OutputChange> outs = new TreeMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = n.path("outputs").fields(); it.hasNext(); ) {
                var e = it.next();
                JsonNode o = e.getValue();
                outs.put(
                        e.getKey(),
                        new OutputChange(
                                e.getKey(),
                                Action.valueOf(text(o, "action")),
                                untyped(o.get("before")),
                                untyped(o.get("after")),
                                o.path("sensitive").asBoolean()));
            }
            List<String> targets = new ArrayList<>();
            n.path("targets").forEach(t -> targets.add(t.asText()));
            Instant timestamp;
            try {
                timestamp = Instant.parse(text(n, "timestamp"));
            } catch (java.time.format.DateTimeParseException e) {
                throw new Damaged("bad timestamp " + n.path("timestamp"));
            }
            RelevantAttributes relevant = RelevantAttributes.UNKNOWN;
            if (n.has("relevant_attributes")) {
                List<RelevantAttributes.Attr> attrs = new ArrayList<>();
                for (JsonNode a : n.path("relevant_attributes")) {
                    List<Object> path = new ArrayList<>();
                    for (JsonNode step : a.path("path")) {
                        if (step.isIntegralNumber()) {
                            path.add(step.asLong());
                        } else if (step.isTextual()) {
                            path.add(step.asText());
                        } else {
                            throw new Damaged("bad relevant attribute path " + a.path("path"));
                        }
                    }
                    attrs.add(new RelevantAttributes.Attr(text(a, "resource"), path));
                }
                relevant = RelevantAttributes.of(attrs);
            }
            List<Diagnostic> errors = new ArrayList<>();
            for (JsonNode e : n.path("errors")) {
                errors.add(Diagnostic.error(text(e, "summary"), text(e, "detail"), null));
            }
            return new Plan(
                    mode,
                    st.value(),
                    vars,
                    changes,
                    drift,
                    deferred,
                    outs,
                    targets,
                    Diagnostics.of(errors),
                    timestamp,
                    relevant);
        } catch (RuntimeException e) {
            // A field is missing or has a value of the wrong kind; Java's wording of it helps nobody.
            throw new Damaged("the plan file's content does not have the structure of a Strata plan");
        }
    }

    private static String text(JsonNode n, String field) throws Damaged {
        JsonNode x = n.get(field);
        if (x == null || !x.isTextual()) {
            throw new Damaged("missing field \"" + field + "\"");
        }
        return x.asText();
    }

    private static AttributePath indexed(AttributePath ap, Value key) throws Damaged {
        if (key.isKnownAndNotNull() && key.type() == Type.STRING) {
            return ap.key(key.asString());
        }
        if (key.isKnownAndNotNull() && key.type() == Type.NUMBER) {
            return ap.index(key.asNumber());
        }
        throw new Damaged("bad replace path key of type " + key.type().friendlyName());
    }

    private static ResourceChange change(JsonNode c) throws Damaged {
        var addr = Addrs.parseAbsResourceInstance(text(c, "addr"));
        if (addr.value() == null) {
            throw new Damaged("bad address " + c.path("addr"));
        }
        AbsProviderConfig provider =
                AbsProviderConfig.parse(text(c, "provider")).value();
        if (provider == null) {
            throw new Damaged("bad provider " + c.path("provider"));
        }
        List<AttributePath> paths = new ArrayList<>();
        for (JsonNode p : c.path("replace_paths")) {
            AttributePath ap = AttributePath.ROOT;
            for (JsonNode s : p) {
                ap = s.isTextual() ? ap.attr(s.asText()) : indexed(ap, untyped(s));
            }
            paths.add(ap);
        }
        AbsResourceInstance prev = null;
        if (c.hasNonNull("previous_addr")) {
            prev = Addrs.parseAbsResourceInstance(c.get("previous_addr").asText())
                    .value();
        }
        return new ResourceChange(
                addr.value(),
                c.hasNonNull("deposed") ? c.get("deposed").asText() : null,
                Action.valueOf(text(c, "action")),
                untyped(c.get("before")),
                untyped(c.get("after")),
                paths,
                c.hasNonNull("reason") ? c.get("reason").asText() : null,
                provider,
                c.path("schema_version").asLong(),
                c.hasNonNull("private")
                        ? PrivateState.fromBase64(c.get("private").asText())
                        : PrivateState.EMPTY,
                prev,
                c.hasNonNull("import_id") ? c.get("import_id").asText() : null);
    }

    static Value untyped(JsonNode typed) {
        Type t = ValueJson.parseType(typed.get("type"));
        return value(typed.get("value"), t);
    }

    private static Value value(JsonNode n, Type t) {
        if (n != null && n.isObject() && n.has("~s") && n.size() == 1) {
            return value(n.get("~s"), t).mark(Mark.SENSITIVE);
        }
        if (n != null && n.isObject() && n.has("~u") && n.size() == 1) {
            return Value.unknown(t);
        }
        if (n != null && n.isObject() && n.has("~e") && n.size() == 1) {
            return Value.unknown(t).mark(Mark.EPHEMERAL);
        }
        if (n == null || n.isNull()) {
            return Value.nullValue(t);
        }
        return switch (t) {
            case ObjectType o -> {
                Map<String, Value> attrs = new TreeMap<>();
                o.attrs().forEach((k, at) -> attrs.put(k, value(n.get(k), at)));
                yield Value.object(attrs);
            }
            case MapType m -> {
                Map<String, Value> attrs = new TreeMap<>();
                n.fields().forEachRemaining(e -> attrs.put(e.getKey(), value(e.getValue(), m.elem())));
                yield Value.map(m.elem(), attrs);
            }
            case ListType l -> {
                List<Value> els = new ArrayList<>();
                n.forEach(e -> els.add(value(e, l.elem())));
                yield Value.list(l.elem(), els);
            }
            case SetType s -> {
                List<Value> els = new ArrayList<>();
                n.forEach(e -> els.add(value(e, s.elem())));
                yield Value.set(s.elem(), els);
            }
            case TupleType tt -> {
                List<Value> els = new ArrayList<>();
                for (int i = 0; i < tt.elems().size(); i++) {
                    els.add(value(n.get(i), tt.elems().get(i)));
                }
                yield Value.tuple(els);
            }
            default -> {
                if (t == Type.STRING) {
                    yield Value.string(n.asText());
                }
                if (t == Type.NUMBER) {
                    yield Value.number(new BigDecimal(n.asText()));
                }
                if (t == Type.BOOL) {
                    yield Value.bool(n.asBoolean());
                }
                yield Value.nullValue(t);
            }
        };
    }

    /**
     * The plan file's bytes: {@code n} as JSON with a last member {@code "checksum"}, the SHA-256 of the
     * file's bytes with the checksum's digits as zeros. A plan is applied as reviewed, so a file altered
     * after it was written (a flipped bit in a planned value is still valid JSON) must be refused, as
     * the checksums of Terraform's zip-based plan files refuse it.
     */
    public static byte[] toBytes(ObjectNode n) {
        ObjectNode copy = n.deepCopy();
        copy.remove(CHECKSUM);
        copy.put(CHECKSUM, ZEROS);
        try {
            byte[] bytes = JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(copy);
            int at = checksumAt(bytes);
            byte[] sum = HexFormat.of().formatHex(sha256(bytes)).getBytes(StandardCharsets.US_ASCII);
            System.arraycopy(sum, 0, bytes, at, sum.length);
            return bytes;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    public static JsonNode parse(byte[] bytes) throws Damaged {
        JsonNode n;
        try {
            n = JSON.readTree(bytes);
        } catch (IOException e) {
            throw new Damaged("the plan file is not valid JSON: " + IoProblems.reason(e));
        }
        int at = checksumAt(bytes);
        if (at < 0 || n == null || !n.path(CHECKSUM).isTextual()) {
            throw new Damaged("it has no checksum (it was not written by this version of Strata, or it was cut short)");
        }
        byte[] zeroed = bytes.clone();
        System.arraycopy(ZEROS.getBytes(StandardCharsets.US_ASCII), 0, zeroed, at, ZEROS.length());
        String recorded = new String(bytes, at, ZEROS.length(), StandardCharsets.US_ASCII);
        if (!HexFormat.of().formatHex(sha256(zeroed)).equals(recorded)) {
            throw new Damaged("its checksum does not match its content, so it was changed after it was written");
        }
        return n;
    }

    private static final String CHECKSUM = "checksum";
    private static final String ZEROS = "0".repeat(64);
    private static final byte[] CHECKSUM_MEMBER = ("\"" + CHECKSUM + "\" : \"").getBytes(StandardCharsets.US_ASCII);

    /** Where the checksum's 64 digits start: after the last {@code "checksum" : "}; -1 when absent. */
    private static int checksumAt(byte[] bytes) {
        outer:
        for (int i = bytes.length - CHECKSUM_MEMBER.length - ZEROS.length(); i >= 0; i--) {
            for (int j = 0; j < CHECKSUM_MEMBER.length; j++) {
                if (bytes[i + j] != CHECKSUM_MEMBER[j]) {
                    continue outer;
                }
            }
            return i + CHECKSUM_MEMBER.length;
        }
        return -1;
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return java.security.MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
