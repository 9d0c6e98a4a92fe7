package dev.strata.cli.e2e;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Function;

/**
 * Generates damaged copies of a valid state file, each of which any reader must refuse: torn and
 * malformed JSON, fields of the wrong type, missing required fields, unknown (future or past) format
 * versions, attributes that do not fit the resource's schema, a schema version newer than the
 * provider's, duplicated resources. Damage that Terraform accepts as a valid state (a changed string,
 * a missing optional field, a newer {@code terraform_version} of 1.x, a serial below the backup's: the
 * backup is only a copy, not a reference) is not generated: it is not detectable as damage.
 *
 * <p>The baseline is a state whose {@code resources[0]} is {@code terraform_data.a} with two
 * instances and {@code resources[1]} is {@code terraform_data.b}.
 */
final class StateDamage {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    /** Which layer must catch it: the state file's codec, or the engine's decoding against the provider schema. */
    enum Layer {
        CODEC,
        SCHEMA
    }

    record Mutant(String description, byte[] bytes, Layer layer) {
        @Override
        public String toString() {
            return description;
        }
    }

    private final byte[] baseline;
    private final Random random;

    /** The run's seed, printed with the mutant count: {@code -Dstrata.damage.seed} replays a failed run. */
    static long announceSeed(String test, int count) {
        long seed = Long.getLong("strata.damage.seed", System.nanoTime());
        System.out.println(
                test + ": seed " + seed + " (-Dstrata.damage.seed=" + seed + " replays it), " + count + " mutants");
        return seed;
    }

    StateDamage(byte[] baseline, long seed) {
        this.baseline = baseline.clone();
        this.random = new Random(seed);
    }

    Mutant next() {
        return switch (random.nextInt(8)) {
            case 0 -> truncate();
            case 1 -> deleteStructural();
            case 2 -> flipStructural();
            case 3 -> notAState();
            case 4, 5 -> wrongType();
            case 6 -> missingField();
            default -> futureOrPast();
        };
    }

    Mutant truncate() {
        // Keeping at most length-2 bytes always drops the closing brace of the document.
        int len = 1 + random.nextInt(baseline.length - 2);
        return new Mutant(
                "truncated to " + len + " of " + baseline.length + " bytes", Arrays.copyOf(baseline, len), Layer.CODEC);
    }

    /** Offsets of JSON punctuation outside strings. */
    private List<Integer> structural() {
        List<Integer> out = new ArrayList<>();
        boolean inString = false;
        for (int i = 0; i < baseline.length; i++) {
            byte b = baseline[i];
            if (inString) {
                if (b == '\\') {
                    i++;
                } else if (b == '"') {
                    inString = false;
                }
            } else if (b == '"') {
                inString = true;
            } else if ("{}[]:,".indexOf(b) >= 0) {
                out.add(i);
            }
        }
        return out;
    }

    Mutant deleteStructural() {
        List<Integer> at = structural();
        for (int attempt = 0; ; attempt++) {
            int i = at.get(random.nextInt(at.size()));
            byte[] b = new byte[baseline.length - 1];
            System.arraycopy(baseline, 0, b, 0, i);
            System.arraycopy(baseline, i + 1, b, i, baseline.length - i - 1);
            if (!parses(b) || attempt > 50) {
                return new Mutant("'" + (char) baseline[i] + "' at byte " + i + " deleted", b, Layer.CODEC);
            }
        }
    }

    Mutant flipStructural() {
        List<Integer> at = structural();
        for (int attempt = 0; ; attempt++) {
            int i = at.get(random.nextInt(at.size()));
            int bit = random.nextInt(7); // stays ASCII: damage, not an encoding question
            byte[] b = baseline.clone();
            b[i] = (byte) (b[i] ^ (1 << bit));
            if (!parses(b) || attempt > 50) {
                return new Mutant(
                        "bit " + bit + " of '" + (char) baseline[i] + "' at byte " + i + " flipped", b, Layer.CODEC);
            }
        }
    }

    private Mutant notAState() {
        String[] texts = {
            "null",
            "[]",
            "\"terraform\"",
            "42",
            "{}",
            "{\"version\": 4, \"resources\": 7}",
            "<html>",
            "{\"version\": 4}}",
            "\u0000\u0001\u0002",
            "{\"version\": 4, \"serial\": 1, \"serial\": 2, \"lineage\": 3}"
        };
        String t = texts[random.nextInt(texts.length)];
        return new Mutant("replaced by " + JSON.valueToTree(t), t.getBytes(StandardCharsets.UTF_8), Layer.CODEC);
    }

    /** A structural edit of the parsed baseline. */
    private record Edit(
            String path, Function<ObjectNode, ObjectNode> parent, String field, JsonNode value, Layer layer) {}

    private Mutant wrongType() {
        int r = random.nextInt(2);
        int inst = random.nextInt(2);
        List<Edit> edits = List.of(
                top("version", F.textNode("4")),
                top("version", F.numberNode(4.5)),
                top("version", F.nullNode()),
                top("serial", F.textNode("3")),
                top("serial", F.numberNode(-1)),
                top("serial", F.numberNode(1.5)),
                top("lineage", F.numberNode(5)),
                top("lineage", F.arrayNode()),
                top("outputs", F.arrayNode()),
                top("outputs", F.textNode("x")),
                top("resources", F.objectNode()),
                top("resources", F.textNode("x")),
                top("resources", F.numberNode(5)),
                resource(r, "mode", F.textNode("weird")),
                resource(r, "mode", F.numberNode(1)),
                resource(r, "type", F.numberNode(1)),
                resource(r, "name", F.booleanNode(true)),
                resource(r, "provider", F.numberNode(1)),
                resource(r, "instances", F.textNode("x")),
                resource(r, "instances", F.objectNode()),
                instance(r, inst, "schema_version", F.textNode("0")),
                instance(r, inst, "schema_version", F.numberNode(-1)),
                instance(r, inst, "schema_version", F.numberNode(0.5)),
                instance(r, inst, "attributes", F.textNode("garbage")),
                instance(r, inst, "attributes", F.arrayNode()),
                instance(r, inst, "attributes", F.numberNode(5)),
                instance(r, inst, "status", F.textNode("weird")),
                instance(r, inst, "deposed", F.textNode("abc")),
                instance(r, inst, "private", F.textNode("!!! not base64 !!!")),
                instance(r, inst, "sensitive_attributes", F.textNode("x")),
                instance(r, inst, "dependencies", F.textNode("terraform_data.a")),
                instance(r, inst, "dependencies", F.arrayNode().add(1)),
                // Malformed addresses: the codec parses them and names the file, the resource and the fix.
                resource(r, "module", F.textNode("module.")),
                resource(r, "module", F.textNode("module.m[true]")),
                resource(r, "provider", F.textNode("provider[\"terraform.io/builtin/\"]")),
                resource(r, "provider", F.textNode("module.m[0].provider[\"terraform.io/builtin/terraform\"]")),
                resource(r, "provider", F.textNode("terraform")),
                instance(r, inst, "dependencies", F.arrayNode().add("terraform_data.")),
                new Edit(
                        "resources[0].instances[" + inst + "].index_key",
                        n -> inst(n, 0, inst),
                        "index_key",
                        random.nextBoolean() ? F.booleanNode(true) : F.numberNode(1.5),
                        Layer.CODEC),
                attribute(r, inst, "id", F.arrayNode().add(1)),
                attribute(r, inst, "id", F.objectNode()),
                attribute(r, inst, "input", F.textNode("not a dynamic value")),
                attribute(r, inst, "input", F.objectNode().put("value", "x")),
                attribute(r, inst, "output", F.objectNode().put("type", "string")),
                attribute(
                        r,
                        inst,
                        "triggers_replace",
                        F.objectNode().put("value", "x").put("type", "no-such-type")),
                attribute(
                        r,
                        inst,
                        "input",
                        typed(F.arrayNode().add("tuple").add(F.arrayNode().add("string")), F.arrayNode())));
        return apply(edits.get(random.nextInt(edits.size())), "wrong type");
    }

    private Mutant missingField() {
        int r = random.nextInt(2);
        List<Edit> edits = List.of(
                top("version", null),
                resource(r, "mode", null),
                resource(r, "type", null),
                resource(r, "name", null),
                resource(r, "provider", null));
        return apply(edits.get(random.nextInt(edits.size())), "missing");
    }

    private Mutant futureOrPast() {
        int r = random.nextInt(2);
        List<Edit> edits = List.of(
                top("version", F.numberNode(5)),
                top("version", F.numberNode(99)),
                top("version", F.numberNode(3)),
                new Edit(
                        "resources[" + r + "].instances[0].schema_version",
                        n -> inst(n, r, 0),
                        "schema_version",
                        F.numberNode(1 + random.nextInt(99)),
                        Layer.SCHEMA));
        Edit e = edits.get(random.nextInt(edits.size()));
        if (e.field().equals("version")) {
            return apply(e, "future or past format");
        }
        return apply(e, "newer provider schema");
    }

    /** Both resources named alike: a resource appears twice. */
    Mutant duplicateResource() {
        ObjectNode root = parse();
        ArrayNode resources = (ArrayNode) root.get("resources");
        resources.add(resources.get(0).deepCopy());
        return new Mutant("resources[0] duplicated", write(root), Layer.CODEC);
    }

    private Edit top(String field, JsonNode v) {
        return new Edit(field, n -> n, field, v, Layer.CODEC);
    }

    private Edit resource(int r, String field, JsonNode v) {
        return new Edit(
                "resources[" + r + "]." + field,
                n -> (ObjectNode) n.get("resources").get(r),
                field,
                v,
                Layer.CODEC);
    }

    private Edit instance(int r, int i, String field, JsonNode v) {
        int idx = r == 1 ? 0 : i;
        return new Edit(
                "resources[" + r + "].instances[" + idx + "]." + field, n -> inst(n, r, idx), field, v, Layer.CODEC);
    }

    private Edit attribute(int r, int i, String field, JsonNode v) {
        int idx = r == 1 ? 0 : i;
        return new Edit(
                "resources[" + r + "].instances[" + idx + "].attributes." + field,
                n -> (ObjectNode) inst(n, r, idx).get("attributes"),
                field,
                v,
                Layer.SCHEMA);
    }

    private static ObjectNode inst(ObjectNode root, int r, int i) {
        return (ObjectNode) root.get("resources").get(r).get("instances").get(i);
    }

    private static JsonNode typed(JsonNode type, JsonNode value) {
        ObjectNode o = F.objectNode();
        o.set("value", value);
        o.set("type", type);
        return o;
    }

    private Mutant apply(Edit e, String kind) {
        ObjectNode root = parse();
        ObjectNode parent = e.parent().apply(root);
        if (e.value() == null) {
            parent.remove(e.field());
            return new Mutant(kind + ": " + e.path() + " removed", write(root), e.layer());
        }
        parent.set(e.field(), e.value());
        return new Mutant(kind + ": " + e.path() + " = " + e.value(), write(root), e.layer());
    }

    private ObjectNode parse() {
        try {
            return (ObjectNode) JSON.readTree(baseline);
        } catch (IOException e) {
            throw new IllegalStateException("the baseline state is not JSON", e);
        }
    }

    private static byte[] write(JsonNode n) {
        try {
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(n);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static boolean parses(byte[] b) {
        try {
            JSON.readTree(b);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
