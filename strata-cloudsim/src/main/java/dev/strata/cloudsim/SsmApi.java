package dev.strata.cloudsim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The subset of AWS Systems Manager's Parameter Store that the AWS provider's
 * {@code aws_ssm_parameter} resource uses, in SSM's JSON protocol ({@code POST /} with
 * {@code X-Amz-Target: AmazonSSM.ACTION}, AWS JSON 1.1 bodies): PutParameter, GetParameter,
 * GetParameters, DescribeParameters, DeleteParameter, AddTagsToResource, ListTagsForResource,
 * RemoveTagsFromResource. Requests are not authenticated; the region comes from the signature's
 * credential scope, the account is always {@value #ACCOUNT}. Parameters live in memory.
 */
final class SsmApi {
    static final String TARGET_PREFIX = "AmazonSSM.";
    static final String ACCOUNT = "123456789012";
    private static final ObjectMapper JSON = Json.MAPPER;
    private static final Pattern REGION = Pattern.compile("Credential=[^/]+/[^/]+/([^/]+)/");

    /** One parameter; {@code tags} is kept sorted. */
    private static final class Param {
        String name;
        String type;
        String value;
        String description = "";
        String keyId;
        String allowedPattern = "";
        String tier = "Standard";
        String dataType = "text";
        long version;
        double modified;
        final TreeMap<String, String> tags = new TreeMap<>();
    }

    private final Map<String, Param> params = new ConcurrentHashMap<>();

    /** The parameters stored, by name, with their versions. */
    synchronized java.util.SortedMap<String, Long> versions() {
        java.util.SortedMap<String, Long> out = new TreeMap<>();
        params.forEach((n, p) -> out.put(n, p.version));
        return out;
    }

    /** The number of parameters stored, for tests. */
    int size() {
        return params.size();
    }

    void handle(HttpExchange ex, String target) throws IOException {
        String action = target.substring(TARGET_PREFIX.length());
        JsonNode req;
        try {
            req = JSON.readTree(ex.getRequestBody());
        } catch (IOException e) {
            send(ex, 400, error("SerializationException", "the body is not valid JSON"));
            return;
        }
        if (req == null || !req.isObject()) {
            req = JSON.createObjectNode();
        }
        String region = region(ex);
        try {
            ObjectNode out = switch (action) {
                case "PutParameter" -> put(req);
                case "GetParameter" -> get(req, region);
                case "GetParameters" -> getMany(req, region);
                case "DescribeParameters" -> describe(req, region);
                case "DeleteParameter" -> delete(req);
                case "AddTagsToResource" -> addTags(req);
                case "ListTagsForResource" -> listTags(req);
                case "RemoveTagsFromResource" -> removeTags(req);
                default -> throw new SsmError(400, "InvalidAction", "the simulator does not implement " + action);
            };
            send(ex, 200, out);
        } catch (SsmError e) {
            ex.getResponseHeaders().set("X-Amzn-ErrorType", e.type);
            send(ex, e.status, error(e.type, e.getMessage()));
        }
    }

    private static String region(HttpExchange ex) {
        String auth = ex.getRequestHeaders().getFirst("Authorization");
        if (auth != null) {
            Matcher m = REGION.matcher(auth);
            if (m.find()) {
                return m.group(1);
            }
        }
        return "us-east-1";
    }

    private static String text(JsonNode req, String field) throws SsmError {
        JsonNode n = req.get(field);
        if (n == null || !n.isTextual() || n.asText().isEmpty()) {
            throw new SsmError(
                    400,
                    "ValidationException",
                    "1 validation error detected: Value null at '"
                            + Character.toLowerCase(field.charAt(0)) + field.substring(1)
                            + "' failed to satisfy constraint: "
                            + "Member must not be null");
        }
        return n.asText();
    }

    private Param find(String name) throws SsmError {
        Param p = params.get(name);
        if (p == null) {
            throw new SsmError(400, "ParameterNotFound", "Parameter " + name + " not found.");
        }
        return p;
    }

    private synchronized ObjectNode put(JsonNode req) throws SsmError {
        String name = text(req, "Name");
        String value = text(req, "Value");
        Param old = params.get(name);
        boolean overwrite = req.path("Overwrite").asBoolean(false);
        if (old != null && !overwrite) {
            throw new SsmError(
                    400,
                    "ParameterAlreadyExists",
                    "The parameter already exists. To overwrite this value,"
                            + " set the overwrite option in the request to true.");
        }
        if (old != null && req.has("Tags") && req.get("Tags").size() > 0) {
            throw new SsmError(
                    400,
                    "ValidationException",
                    "Invalid request: tags and overwrite can't be used together."
                            + " To create a parameter with tags, please remove overwrite flag. To update tags on an existing"
                            + " parameter, please use AddTagsToResource or RemoveTagsFromResource.");
        }
        Param p = old != null ? old : new Param();
        p.name = name;
        p.value = value;
        p.type = req.hasNonNull("Type") ? req.get("Type").asText() : old != null ? old.type : "String";
        if (req.has("Description")) {
            p.description = req.get("Description").asText();
        }
        if (req.has("KeyId")) {
            p.keyId = req.get("KeyId").asText();
        } else if (p.type.equals("SecureString") && p.keyId == null) {
            p.keyId = "alias/aws/ssm";
        }
        if (req.has("AllowedPattern")) {
            p.allowedPattern = req.get("AllowedPattern").asText();
            if (!p.allowedPattern.isEmpty() && !value.matches(p.allowedPattern)) {
                throw new SsmError(
                        400,
                        "ParameterPatternMismatchException",
                        "Parameter value, cannot be validated" + " against allowedPattern: " + p.allowedPattern);
            }
        }
        if (req.hasNonNull("Tier") && !req.get("Tier").asText().equals("Intelligent-Tiering")) {
            p.tier = req.get("Tier").asText();
        }
        if (req.hasNonNull("DataType")) {
            p.dataType = req.get("DataType").asText();
        }
        for (JsonNode t : req.path("Tags")) {
            p.tags.put(t.path("Key").asText(), t.path("Value").asText());
        }
        p.version++;
        p.modified = System.currentTimeMillis() / 1000.0;
        params.put(name, p);
        ObjectNode out = JSON.createObjectNode();
        out.put("Version", p.version);
        out.put("Tier", p.tier);
        return out;
    }

    private static String arn(Param p, String region) {
        String path = p.name.startsWith("/") ? p.name.substring(1) : p.name;
        return "arn:aws:ssm:" + region + ":" + ACCOUNT + ":parameter/" + path;
    }

    private static ObjectNode parameter(Param p, String region) {
        ObjectNode o = JSON.createObjectNode();
        o.put("Name", p.name);
        o.put("Type", p.type);
        o.put("Value", p.value);
        o.put("Version", p.version);
        o.put("LastModifiedDate", p.modified);
        o.put("ARN", arn(p, region));
        o.put("DataType", p.dataType);
        return o;
    }

    private synchronized ObjectNode get(JsonNode req, String region) throws SsmError {
        ObjectNode out = JSON.createObjectNode();
        out.set("Parameter", parameter(find(byNameOrArn(text(req, "Name"))), region));
        return out;
    }

    /**
     * GetParameter takes a parameter's ARN as its name too (the AWS provider's ephemeral
     * {@code aws_ssm_parameter} always sends the ARN): the name is what follows {@code parameter},
     * with the leading slash a hierarchical name has.
     */
    private String byNameOrArn(String name) {
        int at = name.startsWith("arn:") ? name.indexOf(":parameter/") : -1;
        if (at < 0) {
            return name;
        }
        String path = name.substring(at + ":parameter/".length());
        return params.containsKey(path) ? path : "/" + path;
    }

    private synchronized ObjectNode getMany(JsonNode req, String region) {
        ObjectNode out = JSON.createObjectNode();
        ArrayNode found = out.putArray("Parameters");
        ArrayNode invalid = out.putArray("InvalidParameters");
        for (JsonNode n : req.path("Names")) {
            Param p = params.get(n.asText());
            if (p == null) {
                invalid.add(n.asText());
            } else {
                found.add(parameter(p, region));
            }
        }
        return out;
    }

    /** Supports the filters the provider sends: {@code Name} with {@code Equals}, or none (all parameters). */
    private synchronized ObjectNode describe(JsonNode req, String region) throws SsmError {
        List<String> names = null;
        for (JsonNode f : req.path("ParameterFilters")) {
            String key = f.path("Key").asText();
            String option = f.path("Option").asText("Equals");
            if (!key.equals("Name") || !option.equals("Equals")) {
                throw new SsmError(400, "InvalidFilterKey", "the simulator supports only the Name filter with Equals");
            }
            names = new ArrayList<>();
            for (JsonNode v : f.path("Values")) {
                names.add(v.asText());
            }
        }
        ObjectNode out = JSON.createObjectNode();
        ArrayNode list = out.putArray("Parameters");
        for (Param p : new TreeMap<>(params).values()) {
            if (names != null && !names.contains(p.name)) {
                continue;
            }
            ObjectNode o = JSON.createObjectNode();
            o.put("Name", p.name);
            o.put("ARN", arn(p, region));
            o.put("Type", p.type);
            if (p.keyId != null) {
                o.put("KeyId", p.keyId);
            }
            o.put("LastModifiedDate", p.modified);
            o.put("LastModifiedUser", "arn:aws:iam::" + ACCOUNT + ":user/simulator");
            if (!p.description.isEmpty()) {
                o.put("Description", p.description);
            }
            if (!p.allowedPattern.isEmpty()) {
                o.put("AllowedPattern", p.allowedPattern);
            }
            o.put("Version", p.version);
            o.put("Tier", p.tier);
            o.putArray("Policies");
            o.put("DataType", p.dataType);
            list.add(o);
        }
        return out;
    }

    private synchronized ObjectNode delete(JsonNode req) throws SsmError {
        String name = text(req, "Name");
        if (params.remove(name) == null) {
            throw new SsmError(400, "ParameterNotFound", "Parameter " + name + " not found.");
        }
        return JSON.createObjectNode();
    }

    private Param taggable(JsonNode req) throws SsmError {
        String type = text(req, "ResourceType");
        if (!type.equals("Parameter")) {
            throw new SsmError(400, "InvalidResourceType", "the simulator supports only Parameter resources");
        }
        String id = text(req, "ResourceId");
        Param p = params.get(id);
        if (p == null) {
            throw new SsmError(400, "InvalidResourceId", "The resource ID \"" + id + "\" is not valid.");
        }
        return p;
    }

    private synchronized ObjectNode addTags(JsonNode req) throws SsmError {
        Param p = taggable(req);
        for (JsonNode t : req.path("Tags")) {
            p.tags.put(t.path("Key").asText(), t.path("Value").asText());
        }
        return JSON.createObjectNode();
    }

    private synchronized ObjectNode listTags(JsonNode req) throws SsmError {
        Param p = taggable(req);
        ObjectNode out = JSON.createObjectNode();
        ArrayNode list = out.putArray("TagList");
        p.tags.forEach((k, v) -> list.addObject().put("Key", k).put("Value", v));
        return out;
    }

    private synchronized ObjectNode removeTags(JsonNode req) throws SsmError {
        Param p = taggable(req);
        for (JsonNode k : req.path("TagKeys")) {
            p.tags.remove(k.asText());
        }
        return JSON.createObjectNode();
    }

    private static ObjectNode error(String type, String message) {
        ObjectNode o = JSON.createObjectNode();
        o.put("__type", type);
        o.put("message", message);
        return o;
    }

    private static void send(HttpExchange ex, int status, JsonNode body) throws IOException {
        byte[] b = JSON.writeValueAsBytes(body);
        ex.getResponseHeaders().set("Content-Type", "application/x-amz-json-1.1");
        ex.getResponseHeaders()
                .set("X-Amzn-RequestId", java.util.UUID.randomUUID().toString());
        ex.sendResponseHeaders(status, b.length);
        ex.getResponseBody().write(b);
    }

    /** An SSM error response: its HTTP status, {@code __type} and message. */
    private static final class SsmError extends Exception {
        final int status;
        final String type;

        SsmError(int status, String type, String message) {
            super(message, null, false, false);
            this.status = status;
            this.type = type;
        }
    }
}
