package dev.strata.sdk.gen;

import dev.strata.lang.types.DynamicType;
import dev.strata.lang.types.ListType;
import dev.strata.lang.types.MapType;
import dev.strata.lang.types.ObjectType;
import dev.strata.lang.types.PrimitiveType;
import dev.strata.lang.types.SetType;
import dev.strata.lang.types.TupleType;
import dev.strata.lang.types.Type;
import java.util.List;

/** Which SDK value types an attribute of a Terraform type is read as and may be set from. */
final class TypeMapping {
    private TypeMapping() {}

    private static final String SDK = "dev.strata.sdk.";
    private static final String VALUES = "java.util.List<? extends dev.strata.sdk.Value>";
    private static final String ENTRIES = "java.util.Map<java.lang.String, ? extends dev.strata.sdk.Value>";

    /** One setter overload: its parameter type and how it makes the SDK value from {@code value}. */
    record Setter(String parameter, String conversion) {}

    /** The value type a getter returns and the {@code AnyValue} view that produces it. */
    record Getter(String type, String view) {}

    static Getter getter(Type t) {
        return switch (t) {
            case PrimitiveType p when p == PrimitiveType.STRING -> new Getter(SDK + "StringValue", ".asString()");
            case PrimitiveType p when p == PrimitiveType.NUMBER -> new Getter(SDK + "NumberValue", ".asNumber()");
            case PrimitiveType p -> new Getter(SDK + "BoolValue", ".asBool()");
            case ListType l -> new Getter(SDK + "ListValue", ".asList()");
            case TupleType u -> new Getter(SDK + "ListValue", ".asList()");
            case SetType s -> new Getter(SDK + "SetValue", ".asSet()");
            case MapType m -> new Getter(SDK + "MapValue", ".asMap()");
            case ObjectType o -> new Getter(SDK + "ObjectValue", ".asObject()");
            case DynamicType d -> new Getter(SDK + "AnyValue", "");
        };
    }

    /**
     * The overloads, the value type first (it takes literals and lineage-carrying values alike).
     * Overloads whose parameters would erase to the same type are left out.
     */
    static List<Setter> setters(Type t) {
        String own = getter(t).type();
        Setter typed = new Setter(own, "value");
        return switch (t) {
            case PrimitiveType p
            when p == PrimitiveType.STRING -> List.of(typed, new Setter("java.lang.String", own + ".of(value)"));
            case PrimitiveType p
            when p == PrimitiveType.NUMBER ->
                List.of(
                        typed,
                        new Setter("long", own + ".of(value)"),
                        new Setter("double", own + ".of(java.math.BigDecimal.valueOf(value))"));
            case PrimitiveType p -> List.of(typed, new Setter("boolean", own + ".of(value)"));
            case ListType l
            when l.elem() == PrimitiveType.STRING ->
                List.of(
                        typed,
                        new Setter("java.lang.String...", own + ".ofStrings(value)"),
                        new Setter(VALUES, own + ".of(value)"));
            case ListType l -> List.of(typed, new Setter(VALUES, own + ".of(value)"));
            case TupleType u -> List.of(typed, new Setter(VALUES, own + ".of(value)"));
            case SetType s
            when s.elem() == PrimitiveType.STRING ->
                List.of(
                        typed,
                        new Setter("java.lang.String...", own + ".ofStrings(value)"),
                        new Setter(VALUES, own + ".of(value)"));
            case SetType s -> List.of(typed, new Setter(VALUES, own + ".of(value)"));
            case MapType m
            when m.elem() == PrimitiveType.STRING ->
                List.of(
                        typed,
                        new Setter("java.util.Map<java.lang.String, java.lang.String>", own + ".ofStrings(value)"));
            case MapType m -> List.of(typed, new Setter(ENTRIES, own + ".of(value)"));
            case ObjectType o -> List.of(typed, new Setter(ENTRIES, own + ".of(value)"));
            case DynamicType d -> List.of(new Setter(SDK + "Value", "value"));
        };
    }
}
