package dev.strata.hcl.json;

import dev.strata.hcl.SourcePos;
import dev.strata.hcl.SourceRange;
import java.math.BigDecimal;
import java.util.List;

/**
 * A parsed JSON value with the source range of every part. Unlike a general JSON model it keeps
 * properties in order, keeps duplicate names, and keeps numbers as their exact decimal text, as the
 * HCL JSON syntax requires.
 */
sealed interface JsonValue {
    SourceRange range();

    /** Where a diagnostic about the value as a whole should point: the opening token. */
    default SourceRange startRange() {
        return range();
    }

    /** A name a human would use for this kind of value in a message. */
    String kind();

    record JObject(List<Property> properties, SourceRange openRange, SourceRange range) implements JsonValue {
        public JObject {
            properties = List.copyOf(properties);
        }

        @Override
        public SourceRange startRange() {
            return openRange;
        }

        @Override
        public String kind() {
            return "object";
        }
    }

    /** {@code "name": value}; {@code name} holds the decoded name and where it is written. */
    record Property(JString name, JsonValue value) {
        public SourceRange range() {
            return SourceRange.between(name.range(), value.range());
        }
    }

    record JArray(List<JsonValue> elements, SourceRange openRange, SourceRange range) implements JsonValue {
        public JArray {
            elements = List.copyOf(elements);
        }

        @Override
        public SourceRange startRange() {
            return openRange;
        }

        @Override
        public String kind() {
            return "array";
        }
    }

    /**
     * A string: its decoded value, and a map from each byte offset of the value's UTF-8 encoding to
     * the source position that produced it, so positions found inside the value (by the template
     * parser) can be carried back into the file even where escapes changed the length.
     */
    record JString(String value, SourceRange range, OffsetMap offsets) implements JsonValue {
        @Override
        public String kind() {
            return "string";
        }
    }

    record JNumber(String text, BigDecimal value, SourceRange range) implements JsonValue {
        @Override
        public String kind() {
            return "number";
        }
    }

    record JBool(boolean value, SourceRange range) implements JsonValue {
        @Override
        public String kind() {
            return "bool";
        }
    }

    record JNull(SourceRange range) implements JsonValue {
        @Override
        public String kind() {
            return "null";
        }
    }

    /** Stands for a value that could not be parsed, so a partial tree can still be returned. */
    record JInvalid(SourceRange range) implements JsonValue {
        @Override
        public String kind() {
            return "invalid value";
        }
    }

    /**
     * Source positions of the decoded bytes of a string: entry {@code k} is where decoded byte
     * {@code k} came from; the last entry (index = decoded length) is the closing quote.
     */
    record OffsetMap(int line, int[] columns, int[] bytes) {
        public SourcePos at(int decodedOffset) {
            int k = Math.max(0, Math.min(decodedOffset, bytes.length - 1));
            return new SourcePos(line, columns[k], bytes[k]);
        }
    }
}
