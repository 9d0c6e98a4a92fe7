package dev.strata.cloudsim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.LongSupplier;
import java.util.regex.Pattern;

/**
 * The simulated cloud's objects, with the rules a real API enforces: references must point at
 * existing objects, an object that others still reference cannot be deleted, names that must be
 * unique are. Every change happens under one lock, so the rules hold however many clients race.
 * Optionally every change is written to a JSON file, which a restarted simulator reads back.
 */
final class Store {

    private static final ObjectMapper JSON = Json.MAPPER;
    private static final Pattern BUCKET = Pattern.compile("[a-z0-9][a-z0-9-]{1,61}[a-z0-9]");

    /** A kind of object: its id prefix, the fields it needs, references, and what may change. */
    record Kind(
            String name,
            String prefix,
            List<String> required,
            Map<String, String> refs,
            Map<String, String> listRefs,
            Set<String> mutable) {}

    static final Map<String, Kind> KINDS = new LinkedHashMap<>();

    static {
        add(new Kind("networks", "net", List.of("cidr"), Map.of(), Map.of(), Set.of("name")));
        add(new Kind(
                "subnets",
                "subnet",
                List.of("network_id", "cidr"),
                Map.of("network_id", "networks"),
                Map.of(),
                Set.of("name")));
        add(new Kind(
                "security_groups",
                "sg",
                List.of("network_id"),
                Map.of("network_id", "networks"),
                Map.of(),
                Set.of("name", "rules")));
        add(new Kind(
                "instances",
                "i",
                List.of("subnet_id", "image", "size"),
                Map.of("subnet_id", "subnets"),
                Map.of("security_group_ids", "security_groups"),
                Set.of("name", "size", "security_group_ids")));
        add(new Kind("disks", "vol", List.of("size_gb"), Map.of(), Map.of(), Set.of("name", "size_gb")));
        add(new Kind(
                "attachments",
                "att",
                List.of("disk_id", "instance_id"),
                Map.of("disk_id", "disks", "instance_id", "instances"),
                Map.of(),
                Set.of()));
        add(new Kind("buckets", "", List.of("name"), Map.of(), Map.of(), Set.of()));
        add(new Kind(
                "dns_records",
                "rec",
                List.of("zone", "name", "type", "records"),
                Map.of(),
                Map.of(),
                Set.of("ttl", "records")));
        add(new Kind(
                "load_balancers",
                "lb",
                List.of("network_id"),
                Map.of("network_id", "networks"),
                Map.of("target_instance_ids", "instances"),
                Set.of("name", "target_instance_ids")));
    }

    private static void add(Kind k) {
        KINDS.put(k.name(), k);
    }

    static final Set<String> SIZES = Set.of("small", "medium", "large", "xlarge");

    /** An object and the simulator time (nanoseconds) it was created at. */
    record Entry(ObjectNode object, long createdNanos) {}

    private final Map<String, Map<String, Entry>> objects = new LinkedHashMap<>();
    private final Map<String, String> idempotency = new TreeMap<>();
    private final Path file;
    private final LongSupplier clock;
    private long seq;

    Store(Path file, LongSupplier clock) {
        this.file = file;
        this.clock = clock;
        for (String k : KINDS.keySet()) {
            objects.put(k, new LinkedHashMap<>());
        }
        if (file != null && Files.exists(file)) {
            load();
        }
    }

    /**
     * The result of a create: the object, whether an earlier create with the same key made it, and the
     * simulator time it was created at (the earlier create's for a replay).
     */
    record Created(ObjectNode object, boolean replayed, long createdNanos) {}

    synchronized Created create(String kind, ObjectNode body, String idempotencyKey) throws ApiError {
        Kind k = kind(kind);
        if (idempotencyKey != null) {
            String prior = idempotency.get(kind + "/" + idempotencyKey);
            if (prior != null) {
                Entry e = objects.get(kind).get(prior);
                if (e != null) {
                    return new Created(e.object().deepCopy(), true, e.createdNanos());
                }
            }
        }
        for (String f : k.required()) {
            if (!body.hasNonNull(f)) {
                throw ApiError.badRequest(f + " is required");
            }
        }
        checkRefs(k, body);
        validate(k, body, null);
        String id = k.prefix().isEmpty() ? body.get("name").asText() : String.format("%s-%08x", k.prefix(), ++seq);
        ObjectNode o = body.deepCopy();
        o.put("id", id);
        o.put("arn", "arn:sim:" + kind + "/" + id);
        derive(k, o);
        long now = clock.getAsLong();
        objects.get(kind).put(id, new Entry(o, now));
        if (idempotencyKey != null) {
            idempotency.put(kind + "/" + idempotencyKey, id);
        }
        save();
        return new Created(o.deepCopy(), false, now);
    }

    synchronized Optional<Entry> get(String kind, String id) throws ApiError {
        kind(kind);
        Entry e = objects.get(kind).get(id);
        return e == null ? Optional.empty() : Optional.of(new Entry(e.object().deepCopy(), e.createdNanos()));
    }

    synchronized List<Entry> list(String kind) throws ApiError {
        kind(kind);
        List<Entry> out = new ArrayList<>();
        for (Entry e : objects.get(kind).values()) {
            out.add(new Entry(e.object().deepCopy(), e.createdNanos()));
        }
        return out;
    }

    synchronized ObjectNode update(String kind, String id, ObjectNode patch) throws ApiError {
        Kind k = kind(kind);
        Entry e = objects.get(kind).get(id);
        if (e == null) {
            throw ApiError.notFound(kind + " " + id + " does not exist");
        }
        var names = patch.fieldNames();
        while (names.hasNext()) {
            String f = names.next();
            if (!k.mutable().contains(f)) {
                throw ApiError.badRequest(f + " cannot be changed after create; make a new object instead");
            }
        }
        ObjectNode merged = e.object().deepCopy();
        merged.setAll(patch);
        checkRefs(k, merged);
        validate(k, merged, e.object());
        objects.get(kind).put(id, new Entry(merged, e.createdNanos()));
        save();
        return merged.deepCopy();
    }

    synchronized void delete(String kind, String id) throws ApiError {
        kind(kind);
        if (!objects.get(kind).containsKey(id)) {
            throw ApiError.notFound(kind + " " + id + " does not exist");
        }
        for (Kind other : KINDS.values()) {
            for (Entry e : objects.get(other.name()).values()) {
                for (Map.Entry<String, String> ref : other.refs().entrySet()) {
                    if (ref.getValue().equals(kind)
                            && id.equals(e.object().path(ref.getKey()).asText(null))) {
                        throw dependency(kind, id, other, e);
                    }
                }
                for (Map.Entry<String, String> ref : other.listRefs().entrySet()) {
                    if (ref.getValue().equals(kind)) {
                        for (JsonNode r : e.object().path(ref.getKey())) {
                            if (id.equals(r.asText())) {
                                throw dependency(kind, id, other, e);
                            }
                        }
                    }
                }
            }
        }
        objects.get(kind).remove(id);
        save();
    }

    private static ApiError dependency(String kind, String id, Kind other, Entry e) {
        return ApiError.conflict(
                "DependencyViolation",
                kind + " " + id + " is still used by " + other.name() + " "
                        + e.object().path("id").asText());
    }

    /** Every object by kind, as stored (visible or not yet), in creation order. */
    synchronized Map<String, List<Entry>> all() {
        Map<String, List<Entry>> m = new LinkedHashMap<>();
        objects.forEach((k, v) -> m.put(
                k,
                v.values().stream()
                        .map(e -> new Entry(e.object().deepCopy(), e.createdNanos()))
                        .toList()));
        return m;
    }

    synchronized Map<String, Integer> counts() {
        Map<String, Integer> m = new LinkedHashMap<>();
        objects.forEach((k, v) -> m.put(k, v.size()));
        return m;
    }

    private static Kind kind(String name) throws ApiError {
        Kind k = KINDS.get(name);
        if (k == null) {
            throw ApiError.notFound("unknown resource kind " + name);
        }
        return k;
    }

    private void checkRefs(Kind k, ObjectNode body) throws ApiError {
        for (Map.Entry<String, String> ref : k.refs().entrySet()) {
            String target = body.path(ref.getKey()).asText(null);
            if (target != null && !objects.get(ref.getValue()).containsKey(target)) {
                throw ApiError.badRequest(ref.getKey() + " " + target + " does not exist");
            }
        }
        for (Map.Entry<String, String> ref : k.listRefs().entrySet()) {
            JsonNode list = body.path(ref.getKey());
            if (!list.isMissingNode() && !list.isNull() && !list.isArray()) {
                throw ApiError.badRequest(ref.getKey() + " must be a list");
            }
            for (JsonNode r : list) {
                if (!objects.get(ref.getValue()).containsKey(r.asText())) {
                    throw ApiError.badRequest(ref.getKey() + " " + r.asText() + " does not exist");
                }
            }
        }
    }

    /** Kind-specific rules; {@code before} is the current object on update. */
    private void validate(Kind k, ObjectNode o, ObjectNode before) throws ApiError {
        switch (k.name()) {
            case "networks" -> Cidr.parse(o.get("cidr").asText());
            case "subnets" -> {
                Cidr net = Cidr.parse(objects.get("networks")
                        .get(o.get("network_id").asText())
                        .object()
                        .get("cidr")
                        .asText());
                Cidr sub = Cidr.parse(o.get("cidr").asText());
                if (!net.contains(sub)) {
                    throw ApiError.badRequest("subnet " + o.get("cidr").asText() + " is not inside network "
                            + net.prefix() + "-bit block " + Cidr.address(net.base()) + "/" + net.prefix());
                }
                for (Entry e : objects.get("subnets").values()) {
                    if (!e.object().get("id").asText().equals(o.path("id").asText())
                            && e.object()
                                    .get("network_id")
                                    .asText()
                                    .equals(o.get("network_id").asText())
                            && Cidr.parse(e.object().get("cidr").asText()).overlaps(sub)) {
                        throw ApiError.conflict(
                                "CidrConflict",
                                "subnet " + o.get("cidr").asText() + " overlaps subnet "
                                        + e.object().get("id").asText());
                    }
                }
            }
            case "security_groups" -> {
                for (JsonNode r : o.path("rules")) {
                    String proto = r.path("protocol").asText("");
                    int from = r.path("from_port").asInt(-1);
                    int to = r.path("to_port").asInt(-1);
                    if (!Set.of("tcp", "udp", "icmp", "all").contains(proto)) {
                        throw ApiError.badRequest("rule protocol must be tcp, udp, icmp or all");
                    }
                    if (from < 0 || to > 65535 || from > to) {
                        throw ApiError.badRequest("rule ports must satisfy 0 <= from_port <= to_port <= 65535");
                    }
                    Cidr.parse(r.path("cidr").asText(""));
                }
            }
            case "instances" -> {
                if (!SIZES.contains(o.get("size").asText())) {
                    throw ApiError.badRequest("size must be one of " + SIZES);
                }
                String network = objects.get("subnets")
                        .get(o.get("subnet_id").asText())
                        .object()
                        .get("network_id")
                        .asText();
                for (JsonNode sg : o.path("security_group_ids")) {
                    if (!objects.get("security_groups")
                            .get(sg.asText())
                            .object()
                            .get("network_id")
                            .asText()
                            .equals(network)) {
                        throw ApiError.badRequest("security group " + sg.asText() + " belongs to another network");
                    }
                }
            }
            case "disks" -> {
                int size = o.get("size_gb").asInt(0);
                if (size < 1 || size > 16384) {
                    throw ApiError.badRequest("size_gb must be between 1 and 16384");
                }
                if (before != null && size < before.get("size_gb").asInt()) {
                    throw ApiError.badRequest("a disk can grow but not shrink");
                }
            }
            case "attachments" -> {
                for (Entry e : objects.get("attachments").values()) {
                    if (e.object()
                            .get("disk_id")
                            .asText()
                            .equals(o.get("disk_id").asText())) {
                        throw ApiError.conflict(
                                "VolumeInUse", "disk " + o.get("disk_id").asText() + " is already attached");
                    }
                }
            }
            case "buckets" -> {
                String name = o.get("name").asText();
                if (!BUCKET.matcher(name).matches()) {
                    throw ApiError.badRequest("bucket names have 3 to 63 lower-case letters, digits and hyphens");
                }
                if (objects.get("buckets").containsKey(name)) {
                    throw ApiError.conflict("BucketAlreadyExists", "the bucket name " + name + " is taken");
                }
            }
            case "dns_records" -> {
                if (!Set.of("A", "AAAA", "CNAME", "TXT").contains(o.get("type").asText())) {
                    throw ApiError.badRequest("type must be A, AAAA, CNAME or TXT");
                }
                if (!o.get("records").isArray() || o.get("records").isEmpty()) {
                    throw ApiError.badRequest("records must be a non-empty list");
                }
                if (before == null) {
                    for (Entry e : objects.get("dns_records").values()) {
                        ObjectNode x = e.object();
                        if (x.get("zone").asText().equals(o.get("zone").asText())
                                && x.get("name").asText().equals(o.get("name").asText())
                                && x.get("type").asText().equals(o.get("type").asText())) {
                            throw ApiError.conflict(
                                    "RecordExists", "a " + o.get("type").asText() + " record for that name exists");
                        }
                    }
                }
            }
            default -> {}
        }
    }

    /** Values the cloud assigns: addresses, DNS names, defaults. */
    private void derive(Kind k, ObjectNode o) throws ApiError {
        switch (k.name()) {
            case "instances" -> {
                Cidr sub = Cidr.parse(objects.get("subnets")
                        .get(o.get("subnet_id").asText())
                        .object()
                        .get("cidr")
                        .asText());
                long used = objects.get("instances").values().stream()
                        .filter(e -> e.object()
                                .get("subnet_id")
                                .asText()
                                .equals(o.get("subnet_id").asText()))
                        .count();
                if (used + 4 >= sub.size()) {
                    throw ApiError.conflict(
                            "SubnetFull", "subnet " + o.get("subnet_id").asText() + " has no free address");
                }
                o.put("private_ip", Cidr.address(sub.base() + 4 + used));
                if (!o.has("security_group_ids")) {
                    o.set("security_group_ids", JSON.createArrayNode());
                }
            }
            case "load_balancers" -> {
                o.put("dns_name", o.get("id").asText() + ".lb.sim.internal");
                if (!o.has("target_instance_ids")) {
                    o.set("target_instance_ids", JSON.createArrayNode());
                }
            }
            case "dns_records" -> {
                if (!o.has("ttl")) {
                    o.put("ttl", 300);
                }
            }
            default -> {}
        }
    }

    private void save() {
        if (file == null) {
            return;
        }
        ObjectNode root = JSON.createObjectNode();
        root.put("seq", seq);
        ObjectNode kinds = root.putObject("objects");
        objects.forEach((k, m) -> {
            ArrayNode a = kinds.putArray(k);
            m.values().forEach(e -> a.add(e.object()));
        });
        ObjectNode idem = root.putObject("idempotency");
        idempotency.forEach(idem::put);
        try {
            Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
            JSON.writerWithDefaultPrettyPrinter().writeValue(tmp.toFile(), root);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void load() {
        try {
            JsonNode root = JSON.readTree(file.toFile());
            seq = root.path("seq").asLong();
            root.path("objects").properties().forEach(k -> {
                Map<String, Entry> m = objects.get(k.getKey());
                if (m != null) {
                    // Objects read back existed before this run: they are visible at once.
                    k.getValue()
                            .forEach(o -> m.put(o.get("id").asText(), new Entry((ObjectNode) o, Long.MIN_VALUE / 2)));
                }
            });
            root.path("idempotency")
                    .properties()
                    .forEach(e -> idempotency.put(e.getKey(), e.getValue().asText()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
