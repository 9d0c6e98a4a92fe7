package dev.strata.tfplugin.wire;

import dev.strata.lang.types.DynamicType;
import dev.strata.lang.types.ListType;
import dev.strata.lang.types.MapType;
import dev.strata.lang.types.ObjectType;
import dev.strata.lang.types.PrimitiveType;
import dev.strata.lang.types.SetType;
import dev.strata.lang.types.TupleType;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import dev.strata.provider.ValueJson;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.msgpack.core.ExtensionTypeHeader;
import org.msgpack.core.MessageBufferPacker;
import org.msgpack.core.MessageFormatException;
import org.msgpack.core.MessagePack;
import org.msgpack.core.MessagePacker;
import org.msgpack.core.MessageUnpacker;
import org.msgpack.value.ValueType;

/**
 * cty's msgpack encoding of values, the normal payload of a DynamicValue. The encoding is driven
 * by the schema type, not the value's own type: where the schema says {@code dynamic}, a value is
 * sent as a two-element array of its type in JSON and the value, so the receiver can recover it.
 *
 * <p>Marks do not cross the wire (sensitivity travels as separate attribute paths), so values are
 * encoded without them.
 */
public final class MsgpackValues {
    /** cty sends a wholly unknown value as this extension type, with one ignored payload byte. */
    static final byte UNKNOWN_EXT = 0;
    /** An unknown with refinements (not null, string prefix, number bounds, collection length). */
    static final byte REFINED_UNKNOWN_EXT = 12;

    private MsgpackValues() {}

    public static byte[] encode(Value value, Type schemaType) {
        try (MessageBufferPacker p = MessagePack.newDefaultBufferPacker()) {
            write(p, value.unmarkDeep(), schemaType);
            return p.toByteArray();
        } catch (IOException e) {
            throw new IllegalStateException("an in-memory packer does not fail", e);
        }
    }

    public static Value decode(byte[] bytes, Type schemaType) {
        try (MessageUnpacker u = MessagePack.newDefaultUnpacker(bytes)) {
            Value v = read(u, schemaType);
            if (u.hasNext()) {
                throw new WireFormatException("trailing bytes after msgpack value");
            }
            return v;
        } catch (IOException | MessageFormatException e) {
            throw new WireFormatException("malformed msgpack value: " + e.getMessage(), e);
        }
    }

    private static void write(MessagePacker p, Value v, Type ty) throws IOException {
        if (ty instanceof DynamicType && !(v.type() instanceof DynamicType)) {
            p.packArrayHeader(2);
            byte[] typeJson = TypeJson.toBytes(v.type());
            p.packBinaryHeader(typeJson.length);
            p.writePayload(typeJson);
            write(p, v, v.type());
            return;
        }
        if (!v.isKnown()) {
            p.packExtensionTypeHeader(UNKNOWN_EXT, 1);
            p.writePayload(new byte[] {0});
            return;
        }
        if (v.isNull()) {
            p.packNil();
            return;
        }
        switch (ty) {
            case PrimitiveType prim -> {
                switch (prim) {
                    case STRING -> p.packString(v.asString());
                    case BOOL -> p.packBoolean(v.asBool());
                    case NUMBER -> writeNumber(p, v);
                }
            }
            case ListType l -> writeSequence(p, v.elements(), l.elem());
            case SetType s -> writeSequence(p, v.elements(), s.elem());
            case MapType m -> {
                SortedMap<String, Value> entries = v.attributes();
                p.packMapHeader(entries.size());
                for (Map.Entry<String, Value> e : entries.entrySet()) {
                    p.packString(e.getKey());
                    write(p, e.getValue(), m.elem());
                }
            }
            case TupleType t -> {
                List<Value> elems = v.elements();
                if (elems.size() != t.elems().size()) {
                    throw new IllegalArgumentException("tuple value has " + elems.size() + " elements but the type has "
                            + t.elems().size());
                }
                p.packArrayHeader(elems.size());
                for (int i = 0; i < elems.size(); i++) {
                    write(p, elems.get(i), t.elems().get(i));
                }
            }
            case ObjectType o -> {
                SortedMap<String, Value> attrs = v.attributes();
                p.packMapHeader(o.attrs().size());
                for (Map.Entry<String, Type> a : o.attrs().entrySet()) {
                    p.packString(a.getKey());
                    Value av = attrs.get(a.getKey());
                    write(p, av == null ? Value.nullValue(a.getValue()) : av, a.getValue());
                }
            }
            case DynamicType d -> throw new IllegalStateException("handled above");
        }
    }

    private static void writeSequence(MessagePacker p, List<Value> elems, Type elemType) throws IOException {
        p.packArrayHeader(elems.size());
        for (Value e : elems) {
            write(p, e, elemType);
        }
    }

    /**
     * As cty does: an integer when the number is one, a float64 when that is exact, and otherwise
     * the decimal text, so no precision is lost on the wire.
     */
    private static void writeNumber(MessagePacker p, Value v) throws IOException {
        if (v.isInfinite() || v.equals(Value.NEGATIVE_ZERO)) {
            p.packDouble(v.asDouble());
            return;
        }
        BigDecimal n = v.asNumber();
        if (n.scale() <= 0 && n.toBigIntegerExact().bitLength() < 64) {
            p.packLong(n.longValueExact());
            return;
        }
        double d = n.doubleValue();
        if (!Double.isInfinite(d) && new BigDecimal(d).compareTo(n) == 0) {
            p.packDouble(d);
            return;
        }
        p.packString(n.toPlainString());
    }

    private static Value read(MessageUnpacker u, Type ty) throws IOException {
        ValueType next = u.getNextFormat().getValueType();
        if (next == ValueType.NIL) {
            u.unpackNil();
            return Value.nullValue(ty);
        }
        if (next == ValueType.EXTENSION) {
            ExtensionTypeHeader h = u.unpackExtensionTypeHeader();
            // A refined unknown is still unknown; the refinements only narrow what it may become.
            if (h.getType() != UNKNOWN_EXT && h.getType() != REFINED_UNKNOWN_EXT) {
                throw new WireFormatException("unexpected msgpack extension type " + h.getType());
            }
            u.readPayload(h.getLength());
            return Value.unknown(ty);
        }
        return switch (ty) {
            case DynamicType d -> {
                int n = u.unpackArrayHeader();
                if (n != 2) {
                    throw new WireFormatException(
                            "dynamic value must be a [type, value] pair, found " + n + " elements");
                }
                Type actual = TypeJson.parse(readBytesOrString(u));
                yield read(u, actual);
            }
            case PrimitiveType prim ->
                switch (prim) {
                    case STRING -> Value.string(u.unpackString());
                    case BOOL -> Value.bool(u.unpackBoolean());
                    case NUMBER -> readNumber(u, next);
                };
            case ListType l -> {
                List<Value> elems = readSequence(u, l.elem());
                yield Value.list(ValueJson.concreteElementType(l.elem(), elems), elems);
            }
            case SetType s -> {
                List<Value> elems = readSequence(u, s.elem());
                yield Value.set(ValueJson.concreteElementType(s.elem(), elems), elems);
            }
            case MapType m -> {
                int n = u.unpackMapHeader();
                Map<String, Value> entries = new LinkedHashMap<>();
                for (int i = 0; i < n; i++) {
                    String k = u.unpackString();
                    entries.put(k, read(u, m.elem()));
                }
                yield Value.map(ValueJson.concreteElementType(m.elem(), List.copyOf(entries.values())), entries);
            }
            case TupleType t -> {
                int n = u.unpackArrayHeader();
                if (n != t.elems().size()) {
                    throw new WireFormatException("tuple of " + t.elems().size() + " elements arrived with " + n);
                }
                List<Value> elems = new ArrayList<>(n);
                for (Type et : t.elems()) {
                    elems.add(read(u, et));
                }
                yield Value.tuple(elems);
            }
            case ObjectType o -> {
                int n = u.unpackMapHeader();
                Map<String, Value> attrs = new TreeMap<>();
                for (int i = 0; i < n; i++) {
                    String k = u.unpackString();
                    Type at = o.attrType(k);
                    if (at == null) {
                        throw new WireFormatException("unsupported attribute \"" + k + "\"");
                    }
                    attrs.put(k, read(u, at));
                }
                // cty fills attributes the sender left out with nulls.
                o.attrs().forEach((k, at) -> attrs.putIfAbsent(k, Value.nullValue(at)));
                yield Value.object(attrs);
            }
        };
    }

    private static List<Value> readSequence(MessageUnpacker u, Type elemType) throws IOException {
        int n = u.unpackArrayHeader();
        List<Value> elems = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            elems.add(read(u, elemType));
        }
        return elems;
    }

    private static byte[] readBytesOrString(MessageUnpacker u) throws IOException {
        ValueType t = u.getNextFormat().getValueType();
        if (t == ValueType.BINARY) {
            return u.readPayload(u.unpackBinaryHeader());
        }
        if (t == ValueType.STRING) {
            return u.unpackString().getBytes(StandardCharsets.UTF_8);
        }
        throw new WireFormatException("dynamic value's type must be bytes, found " + t);
    }

    private static Value readNumber(MessageUnpacker u, ValueType next) throws IOException {
        return switch (next) {
            case INTEGER -> Value.number(u.unpackBigInteger());
            case FLOAT -> Value.number(u.unpackDouble());
            case STRING -> {
                String s = u.unpackString();
                try {
                    yield Value.number(new BigDecimal(s));
                } catch (NumberFormatException e) {
                    throw new WireFormatException("number sent as text is not a number: " + s, e);
                }
            }
            default -> throw new WireFormatException("expected a number, found " + next);
        };
    }
}
