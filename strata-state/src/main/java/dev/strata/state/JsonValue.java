package dev.strata.state;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * An immutable JSON value, the way the state file holds data that only a provider schema can give
 * meaning to: resource attributes, output values and types, identities, unknown fields. Terraform keeps
 * these as raw JSON bytes and decodes them with the schema later; this tree is the typed equivalent,
 * so the engine can walk it with an exhaustive switch, and the codec can write it back unchanged.
 *
 * <p>Numbers keep their source text (Terraform's numbers are arbitrary precision, and rewriting
 * {@code 12345678901234567890.125} as a double would silently change a resource attribute). Objects keep
 * their key order, as Terraform's raw JSON does.
 */
public sealed interface JsonValue {

    NullValue NULL = new NullValue();
    BoolValue TRUE = new BoolValue(true);
    BoolValue FALSE = new BoolValue(false);
    ObjectValue EMPTY_OBJECT = new ObjectValue(Map.of());
    ArrayValue EMPTY_ARRAY = new ArrayValue(List.of());

    record NullValue() implements JsonValue {}

    record BoolValue(boolean value) implements JsonValue {}

    /** A number as written in the source, e.g. {@code 3}, {@code 1.5e20}; validated to be JSON number syntax. */
    record NumberValue(String text) implements JsonValue {
        public NumberValue {
            Objects.requireNonNull(text, "text");
            if (!isJsonNumber(text)) {
                throw new IllegalArgumentException("not a JSON number: " + text);
            }
        }

        public static NumberValue of(long n) {
            return new NumberValue(Long.toString(n));
        }

        /** JSON's number grammar, by hand: a regex per number is measurable on 100 MB states. */
        static boolean isJsonNumber(String s) {
            int i = 0;
            int n = s.length();
            if (i < n && s.charAt(i) == '-') {
                i++;
            }
            if (i >= n) {
                return false;
            }
            if (s.charAt(i) == '0') {
                i++;
            } else if (s.charAt(i) >= '1' && s.charAt(i) <= '9') {
                while (i < n && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
                    i++;
                }
            } else {
                return false;
            }
            if (i < n && s.charAt(i) == '.') {
                int start = ++i;
                while (i < n && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
                    i++;
                }
                if (i == start) {
                    return false;
                }
            }
            if (i < n && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
                i++;
                if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
                    i++;
                }
                int start = i;
                while (i < n && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
                    i++;
                }
                if (i == start) {
                    return false;
                }
            }
            return i == n;
        }

        public BigDecimal decimal() {
            return new BigDecimal(text);
        }

        /** Whether the number is a whole number that fits a long, as instance keys must be. */
        public boolean isLong() {
            try {
                decimal().longValueExact();
                return true;
            } catch (ArithmeticException e) {
                return false;
            }
        }
    }

    record StringValue(String value) implements JsonValue {
        public StringValue {
            Objects.requireNonNull(value, "value");
        }
    }

    record ArrayValue(List<JsonValue> items) implements JsonValue {
        public ArrayValue {
            items = List.copyOf(items);
        }
    }

    /** An object; iteration follows the source's key order. */
    record ObjectValue(Map<String, JsonValue> members) implements JsonValue {
        public ObjectValue {
            // Immutable, in source order, in exact-size arrays (JsonMembers): a map the reader made is not copied.
            members = JsonMembers.copyOf(members);
        }

        public JsonValue get(String key) {
            return members.get(key);
        }

        public boolean isEmpty() {
            return members.isEmpty();
        }
    }

    static StringValue of(String s) {
        return new StringValue(s);
    }

    /** Parses one JSON document; errors carry line and column. */
    static dev.strata.hcl.Result<JsonValue> parse(String json, String filename) {
        return JsonReader.parseDocument(json.getBytes(java.nio.charset.StandardCharsets.UTF_8), filename);
    }

    /** Compact JSON text, escaped as Go's encoding/json does (so it is byte-identical to Terraform's). */
    default String toCompactJson() {
        GoJsonWriter w = new GoJsonWriter(64);
        w.compact(this);
        return w.toString();
    }

    /** Indented JSON text (two spaces), as {@code json.MarshalIndent} writes it. */
    default String toIndentedJson() {
        GoJsonWriter w = new GoJsonWriter(64);
        w.indented(this, 0);
        return w.toString();
    }
}
