package dev.strata.cli.command;

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
 * <p>Only backends whose schema is flat and known here get a hash ({@code local}, {@code http}); for the
 * others the text of nested settings would need Terraform's full schema, and the record is matched by its
 * settings.
 */
final class TerraformBackendHash {
    private TerraformBackendHash() {}

    /** The type a flat backend setting has in Terraform's schema. */
    enum Kind {
        STRING,
        NUMBER,
        BOOL
    }

    /** Every setting of the backend's schema in Terraform, sorted by name; all are optional. */
    private static final Map<String, SortedMap<String, Kind>> SCHEMAS = Map.of(
            "local",
            new TreeMap<>(Map.of("path", Kind.STRING, "workspace_dir", Kind.STRING)),
            "http",
            new TreeMap<>(Map.ofEntries(
                    Map.entry("address", Kind.STRING),
                    Map.entry("client_ca_certificate_pem", Kind.STRING),
                    Map.entry("client_certificate_pem", Kind.STRING),
                    Map.entry("client_private_key_pem", Kind.STRING),
                    Map.entry("lock_address", Kind.STRING),
                    Map.entry("lock_method", Kind.STRING),
                    Map.entry("password", Kind.STRING),
                    Map.entry("retry_max", Kind.NUMBER),
                    Map.entry("retry_wait_max", Kind.NUMBER),
                    Map.entry("retry_wait_min", Kind.NUMBER),
                    Map.entry("skip_cert_verification", Kind.BOOL),
                    Map.entry("unlock_address", Kind.STRING),
                    Map.entry("unlock_method", Kind.STRING),
                    Map.entry("update_method", Kind.STRING),
                    Map.entry("username", Kind.STRING))));

    /** The kind of a setting where Strata knows the backend's schema; null otherwise. */
    static Kind kind(String type, String setting) {
        SortedMap<String, Kind> schema = SCHEMAS.get(type);
        return schema == null ? null : schema.get(setting);
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
            } else if (!append(e.getValue(), v, text)) {
                // Terraform would not have accepted the block: there is no hash to match.
                return OptionalLong.empty();
            }
            text.append(';');
        }
        text.append(">;>");
        CRC32 crc = new CRC32();
        crc.update(text.toString().getBytes(StandardCharsets.UTF_8));
        return OptionalLong.of(crc.getValue());
    }

    private static boolean append(Kind kind, String v, StringBuilder text) {
        switch (kind) {
            case STRING -> quote(v, text);
            case BOOL -> {
                if (!v.equals("true") && !v.equals("false")) {
                    return false;
                }
                text.append(v.equals("true") ? 'T' : 'F');
            }
            case NUMBER -> {
                String n = number(v);
                if (n == null) {
                    return false;
                }
                text.append(n);
            }
        }
        return true;
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
        out.append('"');
        s.codePoints().forEach(c -> {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\t' -> out.append("\\t");
                case '\r' -> out.append("\\r");
                case 0x07 -> out.append("\\a");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                case 0x0B -> out.append("\\v");
                default -> {
                    if (c < 0x20 || c == 0x7F) {
                        out.append(String.format("\\x%02x", c));
                    } else if (Character.isISOControl(c) || !printable(c)) {
                        out.append(c <= 0xFFFF ? String.format("\\u%04x", c) : String.format("\\U%08x", c));
                    } else {
                        out.appendCodePoint(c);
                    }
                }
            }
        });
        out.append('"');
    }

    private static boolean printable(int c) {
        int t = Character.getType(c);
        return t != Character.UNASSIGNED
                && t != Character.SURROGATE
                && t != Character.PRIVATE_USE
                && t != Character.FORMAT
                && t != Character.LINE_SEPARATOR
                && t != Character.PARAGRAPH_SEPARATOR
                && (t != Character.SPACE_SEPARATOR || c == ' ');
    }
}
