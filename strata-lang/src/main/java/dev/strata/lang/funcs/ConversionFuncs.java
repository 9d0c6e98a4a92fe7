package dev.strata.lang.funcs;

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
import dev.strata.lang.value.Mark;
import dev.strata.lang.value.Quote;
import dev.strata.lang.value.Value;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** tobool, tonumber, tostring, tolist, toset, tomap; sensitive, nonsensitive, issensitive, ephemeralasnull. */
final class ConversionFuncs {
    private ConversionFuncs() {}

    static void register(Functions.Registry r) {
        r.add(to("tobool", Type.BOOL));
        r.add(to("tonumber", Type.NUMBER));
        r.add(to("tostring", Type.STRING));
        r.add(to("tolist", Type.list(Type.DYNAMIC)));
        r.add(to("toset", Type.set(Type.DYNAMIC)));
        r.add(to("tomap", Type.map(Type.DYNAMIC)));
        r.add(Function.builder("sensitive")
                .param(Dsl.raw("value", Type.DYNAMIC))
                .returns(a -> a.get(0).type())
                .impl((a, t) -> a.get(0).mark(Mark.SENSITIVE))
                .build());
        r.add(Function.builder("nonsensitive")
                .param(Dsl.raw("value", Type.DYNAMIC))
                .returns(a -> a.get(0).type())
                .impl((a, t) -> a.get(0).withoutMark(Mark.SENSITIVE))
                .build());
        r.add(Function.builder("issensitive")
                .param(Dsl.raw("value", Type.DYNAMIC))
                .returns(Type.BOOL)
                .impl((a, t) -> {
                    Value v = a.get(0);
                    if (v.isSensitive()) {
                        return Value.TRUE;
                    }
                    return v.isKnown() ? Value.FALSE : Value.unknown(Type.BOOL);
                })
                .build());
        r.add(Function.builder("ephemeralasnull")
                .param(Dsl.raw("value", Type.DYNAMIC))
                .returns(a -> a.get(0).type())
                .impl((a, t) -> ephemeralAsNull(a.get(0)))
                .build());
    }

    /** Replaces every ephemeral value, at any depth, with a null of its type. */
    private static Value ephemeralAsNull(Value v) {
        if (v.hasMark(Mark.EPHEMERAL)) {
            return Value.nullValue(v.type())
                    .withMarks(v.withoutMark(Mark.EPHEMERAL).marks());
        }
        if (!v.isKnown() || v.isNull() || !v.isIterable()) {
            return v;
        }
        Value result = switch (v.type()) {
            case ListType l -> Value.list(l.elem(), mapAll(v.elements()));
            case SetType s -> Value.set(s.elem(), mapAll(v.elements()));
            case TupleType u -> Value.tuple(mapAll(v.elements()));
            case MapType m -> Value.map(m.elem(), mapEntries(v.attributes()));
            case ObjectType o -> Value.object(mapEntries(v.attributes()));
            case PrimitiveType p -> v;
            case DynamicType d -> v;
        };
        return result.withMarks(v.marks());
    }

    private static List<Value> mapAll(List<Value> vs) {
        List<Value> out = new ArrayList<>();
        vs.forEach(e -> out.add(ephemeralAsNull(e)));
        return out;
    }

    private static Map<String, Value> mapEntries(Map<String, Value> m) {
        Map<String, Value> out = new LinkedHashMap<>();
        m.forEach((k, e) -> out.put(k, ephemeralAsNull(e)));
        return out;
    }

    private static Function to(String name, Type target) {
        return Function.builder(name)
                .param(new Param("v", Type.DYNAMIC, true, true, true))
                .returns(a -> {
                    Type from = a.get(0).type();
                    if (!Convert.canConvert(from, target)) {
                        throw FunctionError.arg(0, "cannot convert " + from.friendlyName() + " to " + describe(target));
                    }
                    return target;
                })
                .impl((a, t) -> convert(a.get(0), target))
                .build();
    }

    private static String describe(Type target) {
        Type e = target.elementType();
        if (e instanceof DynamicType) {
            return target.friendlyName().replace("dynamic", "any single type");
        }
        return target.friendlyName();
    }

    private static Value convert(Value v, Type target) {
        ConversionResult r = Convert.convert(v, target);
        if (r.isOk()) {
            return r.value();
        }
        Value raw = v.unmark();
        boolean sensitive = v.isSensitive();
        if (raw.type().equals(Type.STRING) && raw.isKnown() && !raw.isNull() && target.isPrimitive()) {
            if (sensitive) {
                throw FunctionError.arg(0, "cannot convert this sensitive string to " + target.friendlyName());
            }
            String q = Quote.quote(raw.asString());
            if (target.equals(Type.BOOL)) {
                throw FunctionError.argRevealing(
                        0, "cannot convert " + q + " to bool; only the strings \"true\" or \"false\" are allowed");
            }
            throw FunctionError.argRevealing(
                    0, "cannot convert " + q + " to number; given string must be a decimal representation of a number");
        }
        if (target.isPrimitive() || target.elementType() instanceof DynamicType) {
            throw FunctionError.arg(0, "cannot convert " + raw.type().friendlyName() + " to " + describe(target));
        }
        throw FunctionError.arg(0, ((ConversionResult.Failed) r).message());
    }
}
