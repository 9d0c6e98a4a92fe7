package dev.strata.state;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import dev.strata.addr.AbsProviderConfig;
import dev.strata.addr.AbsResource;
import dev.strata.addr.Addrs;
import dev.strata.addr.AttributePath;
import dev.strata.addr.ConfigResource;
import dev.strata.addr.GoOrder;
import dev.strata.addr.InstanceKey;
import dev.strata.addr.ModuleInstance;
import dev.strata.addr.Resource;
import dev.strata.addr.ResourceMode;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import dev.strata.hcl.SourcePos;
import dev.strata.hcl.SourceRange;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Reads and writes Terraform's state file format version 4. Writing produces the bytes Terraform
 * would write for the same content (two-space indentation, Go's escaping, sorted resources and
 * instances, a final newline); members this version does not know are kept and written back after the
 * known ones.
 */
public final class StateCodec {
    private static final Set<String> ROOT_FIELDS =
            Set.of("version", "terraform_version", "serial", "lineage", "outputs", "resources", "check_results");
    private static final Set<String> OUTPUT_FIELDS = Set.of("value", "type", "sensitive");
    private static final Set<String> RESOURCE_FIELDS =
            Set.of("module", "mode", "type", "name", "each", "provider", "instances");
    private static final Set<String> INSTANCE_FIELDS = Set.of(
            "index_key",
            "status",
            "deposed",
            "schema_version",
            "attributes",
            "attributes_flat",
            "sensitive_attributes",
            "identity_schema_version",
            "identity",
            "private",
            "dependencies",
            "create_before_destroy");
    private static final Set<String> CHECK_FIELDS = Set.of("object_kind", "config_addr", "status", "objects");
    private static final Set<String> CHECK_OBJECT_FIELDS = Set.of("object_addr", "status", "failure_messages");

    private StateCodec() {}

    /**
     * Reads a state file. On errors the value is null: a placeholder state would look like "nothing
     * exists" and lead to duplicate infrastructure, so callers must stop.
     *
     * @param filename  the name used in diagnostics
     * @param recovery  a sentence appended to corruption messages, e.g. where the backup is; may be empty
     */
    public static Result<StateSnapshot> read(byte[] src, String filename, String recovery) {
        return decode(src, filename, recovery).result();
    }

    /**
     * What reading a plain state file gave; {@code encrypted} when its root object has the member of an
     * encrypted state's envelope ({@link Encryption#HEADER}), which the caller then reads instead.
     */
    record Decoded(Result<StateSnapshot> result, boolean encrypted) {}

    /**
     * Reads a state file in one pass over Jackson's tokens: each resource is read, decoded and dropped
     * in turn, so no tree of the whole file is built (a 100,000-instance state made one of several
     * hundred megabytes, all of which survived young collections only to be thrown away).
     */
    static Decoded decode(byte[] src, String filename, String recovery) {
        Decoder d = new Decoder(src, filename, recovery);
        try (JsonParser p = JsonReader.FACTORY.createParser(src)) {
            return d.stream(p);
        } catch (JsonProcessingException e) {
            return new Decoded(syntaxError(JsonReader.syntaxError(e), filename, recovery), false);
        } catch (IOException e) {
            // Parsing from a byte array does no I/O; anything else is a bug.
            throw new UncheckedIOException(e);
        }
    }

    private static Result<StateSnapshot> syntaxError(JsonReader.SyntaxError e, String filename, String recovery) {
        String detail = "The state file " + filename + " is not valid JSON at line "
                + e.pos().line()
                + ", column " + e.pos().column() + ": " + e.message()
                + ". It may have been truncated or corrupted by an interrupted write or an edit."
                + (recovery.isEmpty() ? "" : " " + recovery);
        return Result.of(
                null,
                Diagnostics.of(
                        Diagnostic.error("Failed to read the state file", detail, SourceRange.at(filename, e.pos()))));
    }

    /** The state file bytes, exactly as Terraform lays them out. */
    public static byte[] write(StateSnapshot s) {
        GoJsonWriter w = new GoJsonWriter(1 << 16);
        w.indented(toJson(s), 0);
        w.raw((byte) '\n');
        return w.toByteArray();
    }

    /** The state as a JSON tree, members in Terraform's order. */
    public static JsonValue.ObjectValue toJson(StateSnapshot s) {
        Map<String, JsonValue> root = new LinkedHashMap<>();
        root.put("version", JsonValue.NumberValue.of(StateSnapshot.FORMAT_VERSION));
        root.put("terraform_version", JsonValue.of(s.terraformVersion()));
        root.put("serial", new JsonValue.NumberValue(Long.toUnsignedString(s.serial())));
        root.put("lineage", JsonValue.of(s.lineage()));
        Map<String, JsonValue> outputs = new LinkedHashMap<>();
        s.outputs().entrySet().stream()
                .sorted((a, b) -> GoOrder.compare(a.getKey(), b.getKey()))
                .forEach(e -> outputs.put(e.getKey(), output(e.getValue())));
        root.put("outputs", new JsonValue.ObjectValue(outputs));
        List<JsonValue> resources = new ArrayList<>(s.resources().size());
        for (ResourceState r : s.resources()) {
            resources.add(resource(r));
        }
        root.put("resources", new JsonValue.ArrayValue(resources));
        if (s.checkResults() == null) {
            root.put("check_results", JsonValue.NULL);
        } else {
            root.put(
                    "check_results",
                    new JsonValue.ArrayValue(
                            s.checkResults().stream().map(StateCodec::check).toList()));
        }
        putExtra(root, s.extra());
        return new JsonValue.ObjectValue(root);
    }

    /** One output as the state file writes it; for the journal. */
    static JsonValue outputToJson(OutputValue o) {
        return output(o);
    }

    /** One instance object as the state file writes it; for the journal. */
    static JsonValue instanceToJson(ResourceInstanceObject o) {
        return instance(o);
    }

    /** Decodes one output written by {@link #outputToJson}; diagnostics name {@code where}. */
    static Result<OutputValue> outputFromJson(JsonValue v, String where) {
        Decoder d = new Decoder(new byte[0], where, "");
        OutputValue o = d.output(v, List.of("outputs", where));
        return Result.of(o, d.diagnostics());
    }

    /** Decodes one instance object written by {@link #instanceToJson}. */
    static Result<ResourceInstanceObject> instanceFromJson(JsonValue v, String where, String label) {
        Decoder d = new Decoder(new byte[0], where, "");
        ResourceInstanceObject o = d.instance(v, List.of(), label);
        return Result.of(o, d.diagnostics());
    }

    private static JsonValue output(OutputValue o) {
        Map<String, JsonValue> m = new LinkedHashMap<>();
        m.put("value", o.value());
        m.put("type", o.type());
        if (o.sensitive()) {
            m.put("sensitive", JsonValue.TRUE);
        }
        putExtra(m, o.extra());
        return new JsonValue.ObjectValue(m);
    }

    private static JsonValue resource(ResourceState r) {
        Map<String, JsonValue> m = new LinkedHashMap<>();
        if (!r.module().isRoot()) {
            m.put("module", JsonValue.of(r.module().toString()));
        }
        m.put("mode", JsonValue.of(r.mode().jsonName()));
        m.put("type", JsonValue.of(r.type()));
        m.put("name", JsonValue.of(r.name()));
        if (r.each() != null) {
            m.put("each", JsonValue.of(r.each()));
        }
        m.put("provider", JsonValue.of(r.provider().toString()));
        List<JsonValue> instances = new ArrayList<>(r.instances().size());
        for (ResourceInstanceObject o : r.instances()) {
            instances.add(instance(o));
        }
        m.put("instances", new JsonValue.ArrayValue(instances));
        putExtra(m, r.extra());
        return new JsonValue.ObjectValue(m);
    }

    private static JsonValue instance(ResourceInstanceObject o) {
        Map<String, JsonValue> m = new LinkedHashMap<>();
        switch (o.key()) {
            case InstanceKey.NoKey n -> {}
            case InstanceKey.IntKey i -> m.put("index_key", JsonValue.NumberValue.of(i.index()));
            case InstanceKey.StringKey s -> m.put("index_key", JsonValue.of(s.key()));
        }
        switch (o.status()) {
            case READY -> {}
            case TAINTED -> m.put("status", JsonValue.of("tainted"));
        }
        if (o.deposed() != null) {
            m.put("deposed", JsonValue.of(o.deposed()));
        }
        m.put("schema_version", new JsonValue.NumberValue(Long.toUnsignedString(o.schemaVersion())));
        if (o.attributes() != null) {
            m.put("attributes", o.attributes());
        }
        if (o.attributesFlat() != null && !o.attributesFlat().isEmpty()) {
            Map<String, JsonValue> flat = new LinkedHashMap<>();
            o.attributesFlat().keySet().stream()
                    .sorted(GoOrder::compare)
                    .forEach(k -> flat.put(k, JsonValue.of(o.attributesFlat().get(k))));
            m.put("attributes_flat", new JsonValue.ObjectValue(flat));
        }
        if (o.sensitiveAttributes() != null) {
            // A loop, not a stream: this runs for every object the journal records, and the list is mostly empty.
            List<JsonValue> paths = new ArrayList<>(o.sensitiveAttributes().size());
            for (AttributePath p : o.sensitiveAttributes()) {
                paths.add(path(p));
            }
            m.put("sensitive_attributes", new JsonValue.ArrayValue(paths));
        }
        if (o.identitySchemaVersion() != 0) {
            m.put(
                    "identity_schema_version",
                    new JsonValue.NumberValue(Long.toUnsignedString(o.identitySchemaVersion())));
        }
        if (o.identity() != null) {
            m.put("identity", o.identity());
        }
        if (o.privateData() != null && !o.privateData().isEmpty()) {
            m.put("private", JsonValue.of(o.privateData()));
        }
        if (!o.dependencies().isEmpty()) {
            m.put(
                    "dependencies",
                    new JsonValue.ArrayValue(o.dependencies().stream()
                            .map(d -> (JsonValue) JsonValue.of(d.toString()))
                            .toList()));
        }
        if (o.createBeforeDestroy()) {
            m.put("create_before_destroy", JsonValue.TRUE);
        }
        putExtra(m, o.extra());
        return new JsonValue.ObjectValue(m);
    }

    private static JsonValue path(AttributePath p) {
        List<JsonValue> steps = new ArrayList<>();
        for (AttributePath.Step step : p.steps()) {
            Map<String, JsonValue> m = new LinkedHashMap<>();
            switch (step) {
                case AttributePath.Attr g -> {
                    m.put("type", JsonValue.of("get_attr"));
                    m.put("value", JsonValue.of(g.name()));
                }
                case AttributePath.IndexString k -> {
                    m.put("type", JsonValue.of("index"));
                    m.put("value", typedKey(JsonValue.of(k.key()), "string"));
                }
                case AttributePath.IndexNumber n -> {
                    m.put("type", JsonValue.of("index"));
                    m.put("value", typedKey(new JsonValue.NumberValue(n.index().toPlainString()), "number"));
                }
            }
            steps.add(new JsonValue.ObjectValue(m));
        }
        return new JsonValue.ArrayValue(steps);
    }

    /** An index key as Terraform writes it: {@code {"value":0,"type":"number"}}. */
    private static JsonValue typedKey(JsonValue value, String type) {
        Map<String, JsonValue> m = new LinkedHashMap<>();
        m.put("value", value);
        m.put("type", JsonValue.of(type));
        return new JsonValue.ObjectValue(m);
    }

    /** The step for a state index key, or null when the key is neither a string nor a number. */
    private static AttributePath.Step indexKey(JsonValue key) {
        if (!(key instanceof JsonValue.ObjectValue o)
                || o.members().size() != 2
                || !(o.get("type") instanceof JsonValue.StringValue type)) {
            return null;
        }
        return switch (o.get("value")) {
            case JsonValue.StringValue s when type.value().equals("string") -> new AttributePath.IndexString(s.value());
            case JsonValue.NumberValue n
            when type.value().equals("number") -> new AttributePath.IndexNumber(new BigDecimal(n.text()));
            case null, default -> null;
        };
    }

    private static JsonValue check(CheckResult c) {
        Map<String, JsonValue> m = new LinkedHashMap<>();
        m.put("object_kind", JsonValue.of(c.objectKind()));
        m.put("config_addr", JsonValue.of(c.configAddr()));
        m.put("status", JsonValue.of(c.status()));
        if (c.objects() == null) {
            m.put("objects", JsonValue.NULL);
        } else {
            List<JsonValue> objs = new ArrayList<>();
            for (CheckResult.CheckObject o : c.objects()) {
                Map<String, JsonValue> om = new LinkedHashMap<>();
                om.put("object_addr", JsonValue.of(o.objectAddr()));
                om.put("status", JsonValue.of(o.status()));
                if (!o.failureMessages().isEmpty()) {
                    om.put(
                            "failure_messages",
                            new JsonValue.ArrayValue(o.failureMessages().stream()
                                    .map(f -> (JsonValue) JsonValue.of(f))
                                    .toList()));
                }
                putExtra(om, o.extra());
                objs.add(new JsonValue.ObjectValue(om));
            }
            m.put("objects", new JsonValue.ArrayValue(objs));
        }
        putExtra(m, c.extra());
        return new JsonValue.ObjectValue(m);
    }

    private static void putExtra(Map<String, JsonValue> m, JsonValue.ObjectValue extra) {
        extra.members().forEach(m::putIfAbsent);
    }

    /**
     * Turns a state file's tokens (or, for journal entries, one tree) into values, collecting every
     * problem with the place it is at. The root's members may come in any order, so its small members
     * are kept as trees and checked at its end, in a fixed order, as are the problems: those of the
     * resources, found while streaming them, are reported after those of the other root members.
     */
    private static final class Decoder {
        private final byte[] src;
        private final String filename;
        private final String recovery;
        /** The problems found so far of the part being decoded; located and worded when all are known. */
        private List<Problem> problems = new ArrayList<>();
        // A state names few distinct modules, providers and dependencies, each many times: parse each text once.
        private final Map<String, ModuleInstance> modules = new HashMap<>();
        private final Map<String, AbsProviderConfig> providers = new HashMap<>();
        private final Map<String, ConfigResource> dependencies = new HashMap<>();

        /** One problem, at the path of the value it is about. */
        private record Problem(List<Object> path, String summary, String detail) {}

        Decoder(byte[] src, String filename, String recovery) {
            this.src = src;
            this.filename = filename;
            this.recovery = recovery;
        }

        /** The resources member as streamed, with the problems found in it. */
        private record Resources(List<ResourceState> list, List<Problem> problems) {}

        Decoded stream(JsonParser p) throws IOException {
            JsonToken t = p.nextToken();
            if (t == null) {
                return new Decoded(
                        syntaxError(
                                new JsonReader.SyntaxError("the file is empty", SourcePos.START), filename, recovery),
                        false);
            }
            JsonReader reader = new JsonReader();
            if (t != JsonToken.START_OBJECT) {
                JsonValue root = reader.value(p, t);
                JsonReader.SyntaxError after = JsonReader.end(p);
                if (after != null) {
                    return new Decoded(syntaxError(after, filename, recovery), false);
                }
                error(
                        List.of(),
                        "Failed to read the state file",
                        "The state file " + filename + " must contain a JSON object, but it contains " + kind(root)
                                + "." + suffix());
                return new Decoded(Result.of(null, diagnostics()), false);
            }
            // A member given twice counts with its last value, in the place of its first (as in the tree).
            Map<String, JsonValue> members = new LinkedHashMap<>();
            Resources resources = null;
            JsonToken k;
            while ((k = p.nextToken()) == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken v = p.nextToken();
                if (name.equals("resources")) {
                    resources = resources(p, v, reader);
                    members.putIfAbsent(name, JsonValue.NULL);
                } else {
                    members.put(name, reader.value(p, v));
                }
            }
            JsonReader.SyntaxError after = JsonReader.end(p);
            if (after != null) {
                return new Decoded(syntaxError(after, filename, recovery), false);
            }
            JsonValue.ObjectValue o = new JsonValue.ObjectValue(members);
            boolean encrypted = o.get(Encryption.HEADER) instanceof JsonValue.ObjectValue;
            return new Decoded(root(o, resources), encrypted);
        }

        /** Resources read before their decode starts on a second thread; small states never start one. */
        private static final int BATCH = 512;

        /** Batches read ahead of the decode at most: bounds the trees waiting, should reading be the faster. */
        private static final int AHEAD = 4;

        /**
         * The resources array, each resource read as a tree, decoded and dropped. Reading (Jackson's
         * tokens into trees, this thread) and decoding (trees into {@link ResourceState}s) of a large state
         * overlap: batches are decoded on one other thread, in file order, so the problems are the same
         * and come in the same order; nothing else touches the decoder until every batch is done.
         */
        private Resources resources(JsonParser p, JsonToken t, JsonReader reader) throws IOException {
            List<Problem> outer = problems;
            problems = new ArrayList<>();
            List<ResourceState> list = new ArrayList<>();
            if (t == JsonToken.START_ARRAY) {
                Set<AbsResource> seen = new java.util.HashSet<>();
                ExecutorService decoding = null;
                Deque<Future<?>> pending = new ArrayDeque<>();
                try {
                    JsonValue[] batch = new JsonValue[BATCH];
                    int n = 0;
                    int first = 0;
                    JsonToken e;
                    while ((e = p.nextToken()) != JsonToken.END_ARRAY) {
                        batch[n++] = reader.value(p, e);
                        if (n == BATCH) {
                            if (decoding == null) {
                                decoding = Executors.newSingleThreadExecutor(Thread.ofPlatform()
                                        .name("state-decode")
                                        .daemon()
                                        .factory());
                            }
                            JsonValue[] full = batch;
                            int from = first;
                            pending.add(decoding.submit(() -> decodeResources(full, BATCH, from, seen, list)));
                            if (pending.size() > AHEAD) {
                                await(pending.removeFirst());
                            }
                            batch = new JsonValue[BATCH];
                            first += n;
                            n = 0;
                        }
                    }
                    while (!pending.isEmpty()) {
                        await(pending.removeFirst());
                    }
                    decodeResources(batch, n, first, seen, list);
                } finally {
                    if (decoding != null) {
                        decoding.shutdownNow();
                    }
                }
            } else if (t != JsonToken.VALUE_NULL) {
                typeError(List.of("resources"), "an array", reader.value(p, t));
            }
            Resources r = new Resources(list, problems);
            problems = outer;
            return r;
        }

        private void decodeResources(
                JsonValue[] batch, int n, int first, Set<AbsResource> seen, List<ResourceState> list) {
            List<Object> fpath = List.of("resources");
            for (int j = 0; j < n; j++) {
                List<Object> path = append(fpath, first + j);
                ResourceState r = resource(batch[j], path);
                batch[j] = null;
                if (r != null) {
                    if (!seen.add(r.addr())) {
                        error(
                                path,
                                "Duplicate resource in state",
                                "Resource " + r.addr() + " appears more than once in " + filename + ".");
                    }
                    list.add(r);
                }
            }
        }

        /**
         * Waits for one batch's decode; its failure (a bug) is this thread's. An interrupt does not stop
         * the read (a read on one thread never did); it is kept for the caller to see.
         */
        private static void await(Future<?> f) {
            boolean interrupted = false;
            try {
                while (true) {
                    try {
                        f.get();
                        return;
                    } catch (InterruptedException e) {
                        interrupted = true;
                    } catch (ExecutionException e) {
                        if (e.getCause() instanceof RuntimeException r) {
                            throw r;
                        }
                        if (e.getCause() instanceof Error err) {
                            throw err;
                        }
                        throw new IllegalStateException(e.getCause());
                    }
                }
            } finally {
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
        }

        private Result<StateSnapshot> root(JsonValue.ObjectValue o, Resources streamed) {
            JsonValue version = o.get("version");
            if (!(version instanceof JsonValue.NumberValue n) || !n.isLong()) {
                error(
                        List.of("version"),
                        "Failed to read the state file",
                        "The state file " + filename
                                + " has no valid \"version\" field, so it is not a Terraform state file." + suffix());
                return Result.of(null, diagnostics());
            }
            long v = n.decimal().longValueExact();
            if (v < StateSnapshot.FORMAT_VERSION) {
                error(
                        List.of("version"),
                        "Unsupported state file format",
                        "The state file " + filename
                                + " uses format version " + v
                                + ", written by Terraform 0.11 or older. Strata reads format "
                                + "version 4 only. Convert it by running \"terraform state pull > converted.tfstate\" with "
                                + "Terraform 0.12 to 1.x (which upgrades older formats), then \"strata state push converted.tfstate\".");
                return Result.of(null, diagnostics());
            }
            if (v > StateSnapshot.FORMAT_VERSION) {
                error(
                        List.of("version"),
                        "Unsupported state file format",
                        "The state file " + filename
                                + " uses format version " + v
                                + ", which is newer than the version 4 that Strata supports. "
                                + "It was written by a newer program; use that program, or a newer Strata, to work with it.");
                return Result.of(null, diagnostics());
            }
            List<Object> p = List.of();
            String tfVersion = str(o, "terraform_version", p, false, "");
            long serial = uint(o, "serial", p);
            String lineage = str(o, "lineage", p, false, "");
            Map<String, OutputValue> outputs = new LinkedHashMap<>();
            JsonValue outs = o.get("outputs");
            if (outs instanceof JsonValue.ObjectValue om) {
                om.members().forEach((name, ov) -> {
                    OutputValue out = output(ov, List.of("outputs", name));
                    if (out != null) {
                        outputs.put(name, out);
                    }
                });
            } else if (outs != null && !(outs instanceof JsonValue.NullValue)) {
                typeError(List.of("outputs"), "an object", outs);
            }
            List<ResourceState> resources = List.of();
            if (streamed != null) {
                problems.addAll(streamed.problems());
                resources = streamed.list();
            }
            List<CheckResult> checks = null;
            if (o.get("check_results") instanceof JsonValue.ArrayValue) {
                List<CheckResult> cs = new ArrayList<>();
                forEachItem(o, "check_results", p, (item, path) -> {
                    CheckResult c = check(item, path);
                    if (c != null) {
                        cs.add(c);
                    }
                });
                checks = cs;
            } else if (o.get("check_results") != null && !(o.get("check_results") instanceof JsonValue.NullValue)) {
                typeError(List.of("check_results"), "an array", o.get("check_results"));
            }
            if (!problems.isEmpty()) {
                return Result.of(null, diagnostics());
            }
            return Result.of(
                    new StateSnapshot(tfVersion, serial, lineage, outputs, resources, checks, extra(o, ROOT_FIELDS)),
                    Diagnostics.NONE);
        }

        private OutputValue output(JsonValue v, List<Object> path) {
            if (!(v instanceof JsonValue.ObjectValue o)) {
                typeError(path, "an object", v);
                return null;
            }
            JsonValue value = o.get("value");
            JsonValue type = o.get("type");
            if (value == null || type == null) {
                error(
                        path,
                        "Invalid output value in state",
                        "Output \"" + path.get(1) + "\" needs both \"value\" and \"type\".");
                return null;
            }
            return new OutputValue(value, type, bool(o, "sensitive", path), extra(o, OUTPUT_FIELDS));
        }

        private ResourceState resource(JsonValue v, List<Object> path) {
            if (!(v instanceof JsonValue.ObjectValue o)) {
                typeError(path, "an object", v);
                return null;
            }
            int before = problems.size();
            String moduleText = str(o, "module", path, false, "");
            String modeText = str(o, "mode", path, true, "");
            ResourceMode mode = switch (modeText) {
                case "managed" -> ResourceMode.MANAGED;
                case "data" -> ResourceMode.DATA;
                default -> null;
            };
            String type = str(o, "type", path, true, "");
            String name = str(o, "name", path, true, "");
            if (mode == null && problems.size() == before) {
                error(
                        append(path, "mode"),
                        "Invalid resource mode in state",
                        "Resource " + type + "." + name + " has mode \"" + modeText
                                + "\"; only \"managed\" and \"data\" are supported.");
            }
            String each = str(o, "each", path, false, "");
            String providerText = str(o, "provider", path, true, "");
            List<ResourceInstanceObject> instances = new ArrayList<>();
            String label = (moduleText.isEmpty() ? "" : moduleText + ".") + (mode == ResourceMode.DATA ? "data." : "")
                    + type + "." + name;
            ModuleInstance module =
                    moduleText.isEmpty() ? ModuleInstance.ROOT : moduleAddress(o, moduleText, path, label);
            AbsProviderConfig provider = o.get("provider") instanceof JsonValue.StringValue
                    ? providerAddress(providerText, append(path, "provider"), label)
                    : null;
            Set<ObjectId> seen = new java.util.HashSet<>();
            forEachItem(o, "instances", path, (item, ipath) -> {
                ResourceInstanceObject obj = instance(item, ipath, label);
                if (obj != null) {
                    if (!seen.add(new ObjectId(obj.key(), obj.deposed()))) {
                        error(
                                ipath,
                                "Duplicate resource instance in state",
                                "Instance " + label + obj.key()
                                        + (obj.isDeposed() ? " deposed object \"" + obj.deposed() + "\"" : "")
                                        + " appears more than once in " + filename + ".");
                    }
                    instances.add(obj);
                }
            });
            if (problems.size() != before || mode == null) {
                return null;
            }
            return new ResourceState(
                    module.resource(new Resource(mode, type, name)),
                    each,
                    provider,
                    instances,
                    extra(o, RESOURCE_FIELDS));
        }

        private ModuleInstance moduleAddress(JsonValue.ObjectValue o, String text, List<Object> path, String label) {
            if (!(o.get("module") instanceof JsonValue.StringValue)) {
                return ModuleInstance.ROOT; // the type error is reported already
            }
            ModuleInstance known = modules.get(text);
            if (known != null) {
                return known;
            }
            ModuleInstance parsed = address(
                    Addrs.parseModuleInstance(text),
                    append(path, "module"),
                    "Invalid module instance address in state",
                    "Resource " + label + " in " + filename + " has the module address \"" + text + "\"",
                    "Module addresses look like module.network or module.network[\"eu\"].module.subnets; correct the "
                            + "\"module\" field, or remove the resource from the state with \"strata state rm\".");
            if (parsed != null) {
                modules.put(text, parsed);
            }
            return parsed;
        }

        private AbsProviderConfig providerAddress(String text, List<Object> path, String label) {
            AbsProviderConfig known = providers.get(text);
            if (known != null) {
                return known;
            }
            AbsProviderConfig parsed = address(
                    AbsProviderConfig.parse(text),
                    path,
                    "Invalid provider configuration address in state",
                    "Resource " + label + " in " + filename + " names the provider configuration \"" + text + "\"",
                    "Provider configurations look like provider[\"registry.terraform.io/hashicorp/aws\"] or "
                            + "module.network.provider[\"registry.terraform.io/hashicorp/aws\"].west; correct the "
                            + "\"provider\" field, or point the resource at a provider with \"strata state replace-provider\".");
            if (parsed != null) {
                providers.put(text, parsed);
            }
            return parsed;
        }

        /** An object of a resource: its instance key, and the deposed key or null for the current one. */
        private record ObjectId(InstanceKey key, String deposed) {}

        private ConfigResource dependency(String text, List<Object> path, String label, InstanceKey key) {
            ConfigResource known = dependencies.get(text);
            if (known != null) {
                return known;
            }
            AbsResource r = address(
                    Addrs.parseAbsResource(text),
                    path,
                    "Invalid resource instance metadata in state",
                    "Instance " + label + key + " in " + filename + " depends on \"" + text + "\"",
                    "Dependencies look like aws_vpc.main or module.network.aws_subnet.a; correct or remove the entry "
                            + "of \"dependencies\" (Strata records them again on the next apply).");
            if (r == null) {
                return null;
            }
            dependencies.put(text, r.config());
            return r.config();
        }

        /** The parsed address, or null after reporting at {@code path} what is wrong with it and how to fix it. */
        private <T> T address(Result<T> parsed, List<Object> path, String summary, String what, String fix) {
            if (parsed.value() == null) {
                error(path, summary, what + ", which is not valid: " + Addrs.problem(parsed.diagnostics()) + " " + fix);
            }
            return parsed.value();
        }

        private ResourceInstanceObject instance(JsonValue v, List<Object> path, String label) {
            if (!(v instanceof JsonValue.ObjectValue o)) {
                typeError(path, "an object", v);
                return null;
            }
            int before = problems.size();
            InstanceKey key = InstanceKey.NONE;
            JsonValue k = o.get("index_key");
            switch (k) {
                case null -> {}
                case JsonValue.NullValue n -> {}
                case JsonValue.NumberValue n
                when n.isLong() && n.decimal().signum() >= 0 && n.decimal().longValueExact() <= Integer.MAX_VALUE ->
                    key = InstanceKey.of(n.decimal().intValueExact());
                case JsonValue.StringValue s -> key = InstanceKey.of(s.value());
                default ->
                    error(
                            append(path, "index_key"),
                            "Invalid resource instance metadata in state",
                            "Resource " + label + " has an instance with the invalid instance key " + k.toCompactJson()
                                    + "; keys are whole numbers from 0 to " + Integer.MAX_VALUE + " or strings.");
            }
            ObjectStatus status = ObjectStatus.READY;
            String statusText = str(o, "status", path, false, "");
            switch (statusText) {
                case "" -> {}
                case "tainted" -> status = ObjectStatus.TAINTED;
                default ->
                    error(
                            append(path, "status"),
                            "Invalid resource instance metadata in state",
                            "Instance " + label + key + " has the invalid status \"" + statusText + "\".");
            }
            String deposed = str(o, "deposed", path, false, "");
            if (!deposed.isEmpty() && deposed.length() != 8) {
                error(
                        append(path, "deposed"),
                        "Invalid resource instance metadata in state",
                        "Instance " + label + key + " has an object with deposed key \"" + deposed
                                + "\", which is not 8 characters long.");
            }
            long schemaVersion = uint(o, "schema_version", path);
            JsonValue attributes = o.get("attributes");
            if (attributes instanceof JsonValue.NullValue) {
                attributes = null;
            } else if (attributes != null && !(attributes instanceof JsonValue.ObjectValue)) {
                // A resource's attributes are always an object (Terraform fails decoding anything else).
                typeError(append(path, "attributes"), "an object", attributes);
            }
            Map<String, String> flat = null;
            JsonValue flatValue = o.get("attributes_flat");
            if (flatValue != null
                    && !(flatValue instanceof JsonValue.NullValue)
                    && !(flatValue instanceof JsonValue.ObjectValue)) {
                typeError(append(path, "attributes_flat"), "an object", flatValue);
            }
            if (flatValue instanceof JsonValue.ObjectValue fm) {
                flat = new LinkedHashMap<>();
                for (Map.Entry<String, JsonValue> e : fm.members().entrySet()) {
                    if (e.getValue() instanceof JsonValue.StringValue s) {
                        flat.put(e.getKey(), s.value());
                    } else {
                        typeError(append(append(path, "attributes_flat"), e.getKey()), "a string", e.getValue());
                    }
                }
            }
            if (attributes == null && flat == null) {
                // Terraform treats a missing attributes object as empty (hand-written test states have this).
                attributes = JsonValue.EMPTY_OBJECT;
            }
            List<AttributePath> sensitive =
                    sensitivePaths(o.get("sensitive_attributes"), append(path, "sensitive_attributes"));
            long identityVersion =
                    o.get("identity_schema_version") == null ? 0 : uint(o, "identity_schema_version", path);
            JsonValue identity = o.get("identity") instanceof JsonValue.NullValue ? null : o.get("identity");
            String priv = str(o, "private", path, false, "");
            if (!priv.isEmpty()) {
                try {
                    Base64.getDecoder().decode(priv);
                } catch (IllegalArgumentException e) {
                    error(
                            append(path, "private"),
                            "Invalid resource instance metadata in state",
                            "Instance " + label + key + " has private data that is not valid base64.");
                }
            }
            List<ConfigResource> deps = new ArrayList<>();
            InstanceKey instanceKey = key;
            forEachItem(o, "dependencies", path, (item, dpath) -> {
                if (item instanceof JsonValue.StringValue s) {
                    ConfigResource d = dependency(s.value(), dpath, label, instanceKey);
                    if (d != null) {
                        deps.add(d);
                    }
                } else {
                    typeError(dpath, "a string", item);
                }
            });
            boolean cbd = bool(o, "create_before_destroy", path);
            if (problems.size() != before) {
                return null;
            }
            return new ResourceInstanceObject(
                    key,
                    status,
                    deposed,
                    schemaVersion,
                    attributes,
                    flat,
                    sensitive,
                    identityVersion,
                    identity,
                    priv.isEmpty() ? null : priv,
                    deps,
                    cbd,
                    extra(o, INSTANCE_FIELDS));
        }

        private List<AttributePath> sensitivePaths(JsonValue v, List<Object> path) {
            if (v == null || v instanceof JsonValue.NullValue) {
                return null;
            }
            if (!(v instanceof JsonValue.ArrayValue a)) {
                typeError(path, "an array of paths", v);
                return null;
            }
            List<AttributePath> out = new ArrayList<>();
            for (int i = 0; i < a.items().size(); i++) {
                List<Object> ppath = append(path, i);
                if (!(a.items().get(i) instanceof JsonValue.ArrayValue steps)) {
                    typeError(ppath, "an array of path steps", a.items().get(i));
                    continue;
                }
                List<AttributePath.Step> parsed = new ArrayList<>();
                for (int j = 0; j < steps.items().size(); j++) {
                    List<Object> spath = append(ppath, j);
                    JsonValue s = steps.items().get(j);
                    if (s instanceof JsonValue.ObjectValue so
                            && so.get("type") instanceof JsonValue.StringValue t
                            && so.get("value") != null) {
                        switch (t.value()) {
                            case "get_attr" -> {
                                if (so.get("value") instanceof JsonValue.StringValue name) {
                                    parsed.add(new AttributePath.Attr(name.value()));
                                } else {
                                    typeError(append(spath, "value"), "a string", so.get("value"));
                                }
                            }
                            case "index" -> {
                                AttributePath.Step key = indexKey(so.get("value"));
                                if (key != null) {
                                    parsed.add(key);
                                } else {
                                    typeError(
                                            append(spath, "value"),
                                            "an index key {\"value\": ..., \"type\": \"string\" or \"number\"}",
                                            so.get("value"));
                                }
                            }
                            default ->
                                error(
                                        append(spath, "type"),
                                        "Unsupported path step",
                                        "Path step type \"" + t.value()
                                                + "\" is not supported; expected \"get_attr\" or \"index\".");
                        }
                    } else {
                        typeError(spath, "an object with \"type\" and \"value\"", s);
                    }
                }
                out.add(new AttributePath(parsed));
            }
            return out;
        }

        private CheckResult check(JsonValue v, List<Object> path) {
            if (!(v instanceof JsonValue.ObjectValue o)) {
                typeError(path, "an object", v);
                return null;
            }
            int before = problems.size();
            String kind = str(o, "object_kind", path, true, "");
            String addr = str(o, "config_addr", path, true, "");
            String status = str(o, "status", path, true, "");
            List<CheckResult.CheckObject> objects = null;
            if (o.get("objects") instanceof JsonValue.ArrayValue) {
                List<CheckResult.CheckObject> objs = new ArrayList<>();
                forEachItem(o, "objects", path, (item, opath) -> {
                    if (!(item instanceof JsonValue.ObjectValue io)) {
                        typeError(opath, "an object", item);
                        return;
                    }
                    String oaddr = str(io, "object_addr", opath, true, "");
                    String ostatus = str(io, "status", opath, true, "");
                    List<String> messages = new ArrayList<>();
                    forEachItem(io, "failure_messages", opath, (m, mpath) -> {
                        if (m instanceof JsonValue.StringValue s) {
                            messages.add(s.value());
                        } else {
                            typeError(mpath, "a string", m);
                        }
                    });
                    objs.add(new CheckResult.CheckObject(oaddr, ostatus, messages, extra(io, CHECK_OBJECT_FIELDS)));
                });
                objects = objs;
            } else if (o.get("objects") != null && !(o.get("objects") instanceof JsonValue.NullValue)) {
                typeError(append(path, "objects"), "an array", o.get("objects"));
            }
            if (problems.size() != before) {
                return null;
            }
            return new CheckResult(kind, addr, status, objects, extra(o, CHECK_FIELDS));
        }

        // ---- field helpers: each reports a typed problem at the field's line and column

        private String str(JsonValue.ObjectValue o, String field, List<Object> path, boolean required, String dflt) {
            JsonValue v = o.get(field);
            if (v instanceof JsonValue.StringValue s) {
                return s.value();
            }
            if (v == null || v instanceof JsonValue.NullValue) {
                if (required) {
                    error(path, "Invalid state file", "The " + describe(path) + " has no \"" + field + "\" field.");
                }
                return dflt;
            }
            typeError(append(path, field), "a string", v);
            return dflt;
        }

        private long uint(JsonValue.ObjectValue o, String field, List<Object> path) {
            JsonValue v = o.get(field);
            if (v == null) {
                return 0;
            }
            if (v instanceof JsonValue.NumberValue n
                    && n.isLong()
                    && n.decimal().signum() >= 0) {
                return n.decimal().longValueExact();
            }
            typeError(append(path, field), "a whole number not below zero", v);
            return 0;
        }

        private boolean bool(JsonValue.ObjectValue o, String field, List<Object> path) {
            JsonValue v = o.get(field);
            if (v == null || v instanceof JsonValue.NullValue) {
                return false;
            }
            if (v instanceof JsonValue.BoolValue b) {
                return b.value();
            }
            typeError(append(path, field), "true or false", v);
            return false;
        }

        interface ItemVisitor {
            void visit(JsonValue item, List<Object> path);
        }

        private void forEachItem(JsonValue.ObjectValue o, String field, List<Object> path, ItemVisitor visitor) {
            JsonValue v = o.get(field);
            if (v == null || v instanceof JsonValue.NullValue) {
                return;
            }
            List<Object> fpath = append(path, field);
            if (!(v instanceof JsonValue.ArrayValue a)) {
                typeError(fpath, "an array", v);
                return;
            }
            for (int i = 0; i < a.items().size(); i++) {
                visitor.visit(a.items().get(i), append(fpath, i));
            }
        }

        private JsonValue.ObjectValue extra(JsonValue.ObjectValue o, Set<String> known) {
            Map<String, JsonValue> m = null;
            for (Map.Entry<String, JsonValue> e : o.members().entrySet()) {
                if (!known.contains(e.getKey())) {
                    if (m == null) {
                        m = new LinkedHashMap<>();
                    }
                    m.put(e.getKey(), e.getValue());
                }
            }
            return m == null ? JsonValue.EMPTY_OBJECT : new JsonValue.ObjectValue(m);
        }

        private void typeError(List<Object> path, String expected, JsonValue got) {
            error(
                    path,
                    "Invalid state file",
                    "The " + describe(path) + " must be " + expected + ", but it is " + kind(got) + ".");
        }

        private void error(List<Object> path, String summary, String detail) {
            problems.add(new Problem(path, summary, detail));
        }

        /** The problems found, located in the source; where to recover from is said once, with the first. */
        Diagnostics diagnostics() {
            Diagnostics.Builder b = Diagnostics.builder();
            for (int i = 0; i < problems.size(); i++) {
                Problem e = problems.get(i);
                String detail = e.detail();
                if (i == 0 && !recovery.isEmpty() && !detail.contains(recovery)) {
                    detail = detail + suffix();
                }
                SourcePos pos = JsonLocator.locate(src, e.path());
                b.add(Diagnostic.error(e.summary(), detail, SourceRange.at(filename, pos)));
            }
            return b.build();
        }

        private String suffix() {
            return recovery.isEmpty() ? "" : " " + recovery;
        }

        private static String describe(List<Object> path) {
            if (path.isEmpty()) {
                return "state file";
            }
            StringBuilder sb = new StringBuilder("field ");
            for (Object p : path) {
                if (p instanceof Integer i) {
                    sb.append('[').append(i).append(']');
                } else {
                    if (sb.length() > "field ".length()) {
                        sb.append('.');
                    }
                    sb.append(p);
                }
            }
            return sb.toString();
        }

        private static List<Object> append(List<Object> path, Object step) {
            List<Object> l = new ArrayList<>(path.size() + 1);
            l.addAll(path);
            l.add(step);
            return l;
        }

        private static String kind(JsonValue v) {
            return switch (v) {
                case JsonValue.NullValue n -> "null";
                case JsonValue.BoolValue b -> "a boolean";
                case JsonValue.NumberValue n -> "the number " + n.text();
                case JsonValue.StringValue s -> "a string";
                case JsonValue.ArrayValue a -> "an array";
                case JsonValue.ObjectValue o -> "an object";
            };
        }
    }
}
