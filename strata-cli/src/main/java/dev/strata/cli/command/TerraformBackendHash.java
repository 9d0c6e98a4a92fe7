package dev.strata.cli.command;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.zip.CRC32;

/**
 * The {@code hash} Terraform records for a backend block in {@code .terraform/terraform.tfstate}, so that
 * a working directory initialized by Strata is not "changed" for Terraform. Terraform takes the CRC-32 of
 * the canonical text of the tuple (backend type, block decoded against the backend's schema): strings
 * Go-quoted, unset settings {@code ~}, an object's values in the order of its sorted attribute names, each
 * followed by {@code ;}, between {@code <} and {@code >}. The text form was checked against the hashes
 * Terraform 1.11 records (see TerraformBackendRecordTest).
 *
 * <p>Only backends whose schema is all strings and known here get a hash; for the others the text of
 * typed and nested settings would need Terraform's full schema, and the record is matched by its settings.
 */
final class TerraformBackendHash {
    private TerraformBackendHash() {}

    /** Every setting of the backend's schema in Terraform, sorted; all are optional strings. */
    private static final Map<String, List<String>> STRING_SCHEMAS = Map.of("local", List.of("path", "workspace_dir"));

    /** Terraform's hash of the block, or empty when Strata does not know the backend's schema. */
    static OptionalLong of(BackendSpec block) {
        List<String> schema = STRING_SCHEMAS.get(block.type());
        if (schema == null || !schema.containsAll(block.settings().keySet())) {
            return OptionalLong.empty();
        }
        StringBuilder text = new StringBuilder("<");
        quote(block.type(), text);
        text.append(";<");
        for (String name : schema) {
            String v = block.settings().get(name);
            if (v == null) {
                text.append('~');
            } else {
                quote(v, text);
            }
            text.append(';');
        }
        text.append(">;>");
        CRC32 crc = new CRC32();
        crc.update(text.toString().getBytes(StandardCharsets.UTF_8));
        return OptionalLong.of(crc.getValue());
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
