package dev.strata.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.strata.lang.value.Quote;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.OptionalLong;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.zip.CRC32;

/**
 * The {@code hash} Terraform records for a backend block in {@code .terraform/terraform.tfstate}, so that
 * a working directory initialized by Strata is not "changed" for Terraform. Terraform takes the CRC-32 of
 * the canonical text of the tuple (backend type, block decoded against the backend's schema): strings
 * Go-quoted, numbers in their shortest decimal form, booleans {@code T}/{@code F}, unset settings
 * {@code ~}, an object's values in the order of its sorted attribute names, each followed by {@code ;},
 * between {@code <} and {@code >}. The text form was checked against the hashes Terraform 1.11 records
 * (see TerraformBackendHashTest and TerraformBackendRecordTest).
 *
 * Sets are listed sorted between {@code [} and {@code ]}, maps as {@code {"key":value;}}.
 *
 * <p>The backends whose schema is known here get a hash ({@code local}, {@code http}, {@code pg},
 * {@code s3} with its nested {@code endpoints} and {@code assume_role}); for others the record is matched
 * by its settings.
 */
final class TerraformBackendHash {
    private static final ObjectMapper JSON = new ObjectMapper();

    private TerraformBackendHash() {}

    /** The type a backend setting has in Terraform's schema. */
    enum Kind {
        STRING,
        NUMBER,
        BOOL,
        /** A set of strings: canonical in sorted order, without duplicates. */
        STRING_SET,
        MAP_OF_STRING,
        /** A single nested object, whose attributes are in {@link #NESTED}. */
        OBJECT
    }

    private static final SortedMap<String, Kind> ENDPOINTS = strings("dynamodb", "iam", "s3", "sso", "sts");

    private static final SortedMap<String, Kind> ASSUME_ROLE = with(
            strings("duration", "external_id", "policy", "role_arn", "session_name", "source_identity"),
            Map.of("policy_arns", Kind.STRING_SET, "tags", Kind.MAP_OF_STRING, "transitive_tag_keys", Kind.STRING_SET));

    private static final SortedMap<String, Kind> WEB_IDENTITY = with(
            strings("duration", "policy", "role_arn", "session_name", "web_identity_token", "web_identity_token_file"),
            Map.of("policy_arns", Kind.STRING_SET));

    /**
     * Every setting of the backend's schema in Terraform 1.11, sorted by name; all are optional. The names
     * are those {@link BackendSettings} accepts (for http and s3 the lists strata-state keeps, which are
     * Terraform's whole schema), strings unless typed here; pg's typed settings are ones Terraform has and
     * Strata refuses, so they are only here.
     */
    private static final Map<String, SortedMap<String, Kind>> SCHEMAS = Map.of(
            "local",
            schema("local", Map.of()),
            "pg",
            schema(
                    "pg",
                    Map.of(
                            "skip_index_creation", Kind.BOOL,
                            "skip_schema_creation", Kind.BOOL,
                            "skip_table_creation", Kind.BOOL)),
            "http",
            schema(
                    "http",
                    Map.of(
                            "retry_max", Kind.NUMBER,
                            "retry_wait_max", Kind.NUMBER,
                            "retry_wait_min", Kind.NUMBER,
                            "skip_cert_verification", Kind.BOOL)),
            "s3",
            schema(
                    "s3",
                    Map.ofEntries(
                            Map.entry("allowed_account_ids", Kind.STRING_SET),
                            Map.entry("assume_role", Kind.OBJECT),
                            Map.entry("assume_role_with_web_identity", Kind.OBJECT),
                            Map.entry("encrypt", Kind.BOOL),
                            Map.entry("endpoints", Kind.OBJECT),
                            Map.entry("forbidden_account_ids", Kind.STRING_SET),
                            Map.entry("force_path_style", Kind.BOOL),
                            Map.entry("insecure", Kind.BOOL),
                            Map.entry("max_retries", Kind.NUMBER),
                            Map.entry("shared_config_files", Kind.STRING_SET),
                            Map.entry("shared_credentials_files", Kind.STRING_SET),
                            Map.entry("skip_credentials_validation", Kind.BOOL),
                            Map.entry("skip_metadata_api_check", Kind.BOOL),
                            Map.entry("skip_region_validation", Kind.BOOL),
                            Map.entry("skip_requesting_account_id", Kind.BOOL),
                            Map.entry("skip_s3_checksum", Kind.BOOL),
                            Map.entry("use_dualstack_endpoint", Kind.BOOL),
                            Map.entry("use_fips_endpoint", Kind.BOOL),
                            Map.entry("use_lockfile", Kind.BOOL),
                            Map.entry("use_path_style", Kind.BOOL))));

    /** The attributes of the nested objects, by {@code type.setting}. */
    private static final Map<String, SortedMap<String, Kind>> NESTED = Map.of(
            "s3.endpoints", ENDPOINTS,
            "s3.assume_role", ASSUME_ROLE,
            "s3.assume_role_with_web_identity", WEB_IDENTITY);

    private static SortedMap<String, Kind> strings(String... names) {
        SortedMap<String, Kind> out = new TreeMap<>();
        for (String n : names) {
            out.put(n, Kind.STRING);
        }
        return java.util.Collections.unmodifiableSortedMap(out);
    }

    private static SortedMap<String, Kind> with(SortedMap<String, Kind> strings, Map<String, Kind> others) {
        SortedMap<String, Kind> out = new TreeMap<>(strings);
        out.putAll(others);
        return java.util.Collections.unmodifiableSortedMap(out);
    }

    /** The settings BackendSettings accepts for the type as strings, and the typed ones over them. */
    private static SortedMap<String, Kind> schema(String type, Map<String, Kind> typed) {
        return with(strings(BackendSettings.allowed(type).toArray(String[]::new)), typed);
    }

    /** The kind of a setting where Strata knows the backend's schema; null otherwise. */
    static Kind kind(String type, String setting) {
        SortedMap<String, Kind> schema = SCHEMAS.get(type);
        return schema == null ? null : schema.get(setting);
    }

    /** Every setting of the backend's schema in Terraform (sorted), or none when Strata does not know it. */
    static java.util.Set<String> settings(String type) {
        SortedMap<String, Kind> schema = SCHEMAS.get(type);
        return schema == null ? java.util.Set.of() : schema.keySet();
    }

    /** Terraform's hash of the block, or empty when Strata does not know the backend's schema. */
    static OptionalLong of(BackendSpec block) {
        SortedMap<String, Kind> schema = SCHEMAS.get(block.type());
        if (schema == null || !schema.keySet().containsAll(block.settings().keySet())) {
            return OptionalLong.empty();
        }
        StringBuilder text = new StringBuilder("<");
        quote(block.type(), text);
        text.append(";<");
        for (Map.Entry<String, Kind> e : schema.entrySet()) {
            String v = block.settings().get(e.getKey());
            if (v == null) {
                text.append('~');
            } else {
                JsonNode typed = typed(block.type(), e.getKey(), v);
                if (typed == null) {
                    // Terraform would not have accepted the block: there is no hash to match.
                    return OptionalLong.empty();
                }
                canonical(e.getValue(), NESTED.get(block.type() + "." + e.getKey()), typed, text);
            }
            text.append(';');
        }
        text.append(">;>");
        CRC32 crc = new CRC32();
        crc.update(text.toString().getBytes(StandardCharsets.UTF_8));
        return OptionalLong.of(crc.getValue());
    }

    /**
     * The setting as Terraform records it in {@code config}, typed by the schema: numbers and booleans as
     * JSON numbers and booleans, sets sorted, nested objects with every attribute (unset ones null). Null
     * when the setting is unknown or its text does not fit the type (Terraform would refuse it).
     */
    static JsonNode typed(String type, String setting, String v) {
        Kind kind = kind(type, setting);
        return kind == null ? null : typed(kind, NESTED.get(type + "." + setting), v);
    }

    private static JsonNode typed(Kind kind, SortedMap<String, Kind> nested, String v) {
        return switch (kind) {
            case STRING -> TextNode.valueOf(v);
            case BOOL -> v.equals("true") || v.equals("false") ? BooleanNode.valueOf(v.equals("true")) : null;
            case NUMBER -> {
                String n = number(v);
                yield n == null ? null : DecimalNode.valueOf(new java.math.BigDecimal(n));
            }
            case STRING_SET -> {
                JsonNode n = parse(v);
                if (n == null || !n.isArray()) {
                    yield null;
                }
                java.util.TreeSet<String> sorted = new java.util.TreeSet<>(TerraformBackendHash::compareUtf8);
                for (JsonNode e : n) {
                    String s = primitiveText(e);
                    if (s == null) {
                        yield null;
                    }
                    sorted.add(s);
                }
                ArrayNode out = JSON.createArrayNode();
                sorted.forEach(out::add);
                yield out;
            }
            case MAP_OF_STRING -> {
                JsonNode n = parse(v);
                if (n == null || !n.isObject()) {
                    yield null;
                }
                ObjectNode out = JSON.createObjectNode();
                for (String k : sortedNames(n)) {
                    String s = primitiveText(n.get(k));
                    if (s == null) {
                        yield null;
                    }
                    out.put(k, s);
                }
                yield out;
            }
            case OBJECT -> {
                JsonNode n = parse(v);
                if (n == null || !n.isObject() || nested == null) {
                    yield null;
                }
                for (String k : sortedNames(n)) {
                    if (!nested.containsKey(k)) {
                        yield null;
                    }
                }
                ObjectNode out = JSON.createObjectNode();
                for (Map.Entry<String, Kind> a : nested.entrySet()) {
                    JsonNode member = n.get(a.getKey());
                    if (member == null || member.isNull()) {
                        out.putNull(a.getKey());
                        continue;
                    }
                    JsonNode t = typed(a.getValue(), null, member.isTextual() ? member.asText() : member.toString());
                    if (t == null) {
                        yield null;
                    }
                    out.set(a.getKey(), t);
                }
                yield out;
            }
        };
    }

    /** cty's canonical text of a typed setting, the text Terraform's hash is taken of. */
    private static void canonical(Kind kind, SortedMap<String, Kind> nested, JsonNode v, StringBuilder text) {
        if (v.isNull()) {
            text.append('~');
            return;
        }
        switch (kind) {
            case STRING -> quote(v.asText(), text);
            case BOOL -> text.append(v.asBoolean() ? 'T' : 'F');
            case NUMBER -> text.append(number(v.decimalValue().toPlainString()));
            case STRING_SET -> {
                text.append('[');
                v.forEach(e -> {
                    quote(e.asText(), text);
                    text.append(';');
                });
                text.append(']');
            }
            case MAP_OF_STRING -> {
                text.append('{');
                for (String k : sortedNames(v)) {
                    quote(k, text);
                    text.append(':');
                    quote(v.get(k).asText(), text);
                    text.append(';');
                }
                text.append('}');
            }
            case OBJECT -> {
                text.append('<');
                for (Map.Entry<String, Kind> a : nested.entrySet()) {
                    canonical(a.getValue(), null, v.get(a.getKey()), text);
                    text.append(';');
                }
                text.append('>');
            }
        }
    }

    private static JsonNode parse(String v) {
        try {
            return JSON.readTree(v);
        } catch (java.io.IOException e) {
            return null;
        }
    }

    /** A string, number or bool member as the string Terraform converts it to; null for anything else. */
    private static String primitiveText(JsonNode e) {
        if (e == null || !(e.isTextual() || e.isNumber() || e.isBoolean())) {
            return null;
        }
        return e.isNumber() ? number(e.asText()) : e.asText();
    }

    private static java.util.List<String> sortedNames(JsonNode n) {
        java.util.List<String> names = new java.util.ArrayList<>();
        n.fieldNames().forEachRemaining(names::add);
        names.sort(TerraformBackendHash::compareUtf8);
        return names;
    }

    /** Go orders strings by their UTF-8 bytes (cty sets and map keys); Java's compareTo by UTF-16 units. */
    private static int compareUtf8(String a, String b) {
        return java.util.Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
    }

    /** A number's shortest decimal text, as Terraform writes a number setting (null when not a number). */
    static String number(String v) {
        try {
            java.math.BigDecimal d = new java.math.BigDecimal(v.strip());
            return d.signum() == 0 ? "0" : d.stripTrailingZeros().toPlainString();
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** Go's {@code %q} of a string: printable characters as they are, the others escaped. */
    static void quote(String s, StringBuilder out) {
        out.append(Quote.quote(s));
    }
}
