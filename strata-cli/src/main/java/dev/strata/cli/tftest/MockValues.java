package dev.strata.cli.tftest;

import dev.strata.lang.types.DynamicType;
import dev.strata.lang.types.ListType;
import dev.strata.lang.types.MapType;
import dev.strata.lang.types.ObjectType;
import dev.strata.lang.types.PrimitiveType;
import dev.strata.lang.types.SetType;
import dev.strata.lang.types.TupleType;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.ConversionResult;
import dev.strata.lang.value.Convert;
import dev.strata.lang.value.Value;
import dev.strata.provider.Attribute;
import dev.strata.provider.Block;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The values a mocked object gets for its computed attributes: the ones the test file gives (a
 * {@code mock_resource}'s defaults or an override's values), else generated ones as Terraform makes
 * them: eight random letters and digits for a string, zero, false, empty collections, and objects
 * generated attribute by attribute.
 */
final class MockValues {
    private static final String ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    private static final SecureRandom RANDOM = new SecureRandom();

    private MockValues() {}

    /**
     * {@code object} with every computed attribute that is null (or unknown) filled (and every
     * write-only one null): from {@code given}
     * when it names the attribute, generated otherwise; when {@code unknown}, such attributes become
     * unknown instead (a plan whose values only the apply will know).
     */
    static Value fill(Block block, Value object, Map<String, Value> given, boolean unknown) {
        if (object == null || object.isNull() || !object.isKnown()) {
            return object;
        }
        Map<String, Value> attrs = new TreeMap<>(object.attributes());
        for (var e : block.attributes().entrySet()) {
            Attribute a = e.getValue();
            Value current = attrs.get(e.getKey());
            if (a.writeOnly()) {
                // A write-only value is given to the provider but never planned or stored, mocked or not.
                attrs.put(e.getKey(), Value.nullValue(a.type()));
                continue;
            }
            if (!a.computed() || (current != null && current.isKnown() && !current.isNull())) {
                continue;
            }
            Value v;
            if (unknown) {
                v = Value.unknown(a.type());
            } else if (given.containsKey(e.getKey())) {
                v = convert(given.get(e.getKey()), a.type());
            } else {
                v = generate(a.type());
            }
            attrs.put(e.getKey(), v);
        }
        return Value.object(attrs);
    }

    private static Value convert(Value v, Type t) {
        ConversionResult c = Convert.convert(v, t);
        return c instanceof ConversionResult.Ok ok ? ok.value() : generate(t);
    }

    /** A value of type {@code t} as a mocked provider invents it. */
    static Value generate(Type t) {
        return switch (t) {
            case PrimitiveType p when p == PrimitiveType.STRING -> Value.string(randomString());
            case PrimitiveType p when p == PrimitiveType.NUMBER -> Value.number(0);
            case PrimitiveType p -> Value.bool(false);
            case ListType l -> Value.list(l.elem(), List.of());
            case SetType s -> Value.set(s.elem(), List.of());
            case MapType m -> Value.map(m.elem(), Map.of());
            case TupleType tt -> {
                List<Value> elems = new ArrayList<>();
                tt.elems().forEach(x -> elems.add(generate(x)));
                yield Value.tuple(elems);
            }
            case ObjectType o -> {
                Map<String, Value> attrs = new TreeMap<>();
                o.attrs().forEach((k, v) -> attrs.put(k, generate(v)));
                yield Value.object(attrs);
            }
            case DynamicType d -> Value.nullValue(Type.DYNAMIC);
        };
    }

    private static String randomString() {
        StringBuilder sb = new StringBuilder(8);
        for (int i = 0; i < 8; i++) {
            sb.append(ALPHABET.charAt(RANDOM.nextInt(ALPHABET.length())));
        }
        return sb.toString();
    }
}
