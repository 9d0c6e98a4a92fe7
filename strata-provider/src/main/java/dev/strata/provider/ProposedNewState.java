package dev.strata.provider;

import dev.strata.lang.value.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The engine's half of planning, with Terraform's rule ({@code objchange.ProposedNew}): the
 * proposed new state takes the configuration's value for every attribute the configuration sets,
 * and the prior state's value for computed attributes the configuration leaves null, so that a
 * value the provider decided earlier (an id, a generated password) is kept unless the provider
 * plans otherwise. Nested blocks are matched with their prior counterparts (by index for lists,
 * by key for maps, by their configurable content for sets) and merged the same way.
 */
public final class ProposedNewState {

    private ProposedNewState() {}

    /**
     * The proposed new state of an object with schema {@code schema}. {@code prior} is the null
     * object on create; a null {@code config} (destroy) proposes the null object.
     */
    public static Value of(Block schema, Value prior, Value config) {
        if (config.isNull()) {
            return config;
        }
        if (prior.isNull() || !prior.isKnown()) {
            prior = allNull(schema);
        }
        return proposed(schema, prior, config);
    }

    private static Value proposed(Block schema, Value prior, Value config) {
        if (config.isNull() || !config.isKnown()) {
            return config;
        }
        Map<String, Value> out = new TreeMap<>();
        Map<String, Value> cfg = config.attributes();
        Map<String, Value> pri = prior.isKnownAndNotNull() ? prior.attributes() : Map.of();
        schema.attributes().forEach((name, attr) -> {
            Value c = cfg.getOrDefault(name, Value.nullValue(attr.type()));
            Value p = pri.getOrDefault(name, Value.nullValue(attr.type()));
            out.put(name, attr.computed() && c.isKnown() && c.isNull() ? p : c);
        });
        schema.blockTypes().forEach((name, nb) -> {
            Value c = cfg.getOrDefault(name, Block.emptyNested(nb));
            Value p = pri.getOrDefault(name, Block.emptyNested(nb));
            out.put(name, nested(nb, p, c));
        });
        return Value.object(out).withMarks(config.marks());
    }

    private static Value nested(NestedBlock nb, Value prior, Value config) {
        Block b = nb.block();
        if (config.isNull() || !config.isKnown()) {
            return config;
        }
        return switch (nb.nesting()) {
            case SINGLE -> proposed(b, prior.isKnownAndNotNull() ? prior : allNull(b), config);
            case LIST -> {
                List<Value> priorEls = prior.isKnownAndNotNull() ? prior.elements() : List.of();
                List<Value> out = new ArrayList<>();
                List<Value> cfgEls = config.elements();
                for (int i = 0; i < cfgEls.size(); i++) {
                    Value p = i < priorEls.size() ? priorEls.get(i) : allNull(b);
                    out.add(proposed(b, p, cfgEls.get(i)));
                }
                yield Value.list(b.impliedType(), out).withMarks(config.marks());
            }
            case MAP -> {
                Map<String, Value> priorEls = prior.isKnownAndNotNull() ? prior.attributes() : Map.of();
                Map<String, Value> out = new TreeMap<>();
                config.attributes().forEach((k, v) -> out.put(k, proposed(b, priorEls.getOrDefault(k, allNull(b)), v)));
                yield Value.map(b.impliedType(), out).withMarks(config.marks());
            }
            case SET -> {
                List<Value> unused = new ArrayList<>(prior.isKnownAndNotNull() ? prior.elements() : List.of());
                List<Value> out = new ArrayList<>();
                for (Value c : config.elements()) {
                    Value match = allNull(b);
                    if (c.isWhollyKnown()) {
                        Value key = compareValue(b, c, true);
                        for (int i = 0; i < unused.size(); i++) {
                            if (compareValue(b, unused.get(i), false).equalsIgnoringMarks(key)) {
                                match = unused.remove(i);
                                break;
                            }
                        }
                    }
                    out.add(proposed(b, match, c));
                }
                yield Value.set(b.impliedType(), out).withMarks(config.marks());
            }
        };
    }

    /**
     * The part of a set element that identifies it across plans: computed attributes are left out
     * (they differ between config and prior by nature), optional+computed ones count only on the
     * config side, where a set value is a choice of the user.
     */
    private static Value compareValue(Block schema, Value v, boolean isConfig) {
        if (!v.isKnownAndNotNull()) {
            return v;
        }
        Map<String, Value> out = new TreeMap<>();
        Map<String, Value> attrs = v.attributes();
        schema.attributes().forEach((name, attr) -> {
            Value a = attrs.getOrDefault(name, Value.nullValue(attr.type()));
            boolean keep = !attr.computed() || (attr.optional() && isConfig);
            out.put(name, keep ? a : Value.nullValue(attr.type()));
        });
        schema.blockTypes().forEach((name, nb) -> {
            Value a = attrs.getOrDefault(name, Block.emptyNested(nb));
            out.put(name, compareNested(nb, a, isConfig));
        });
        return Value.object(out);
    }

    private static Value compareNested(NestedBlock nb, Value v, boolean isConfig) {
        if (!v.isKnownAndNotNull()) {
            return v;
        }
        Block b = nb.block();
        return switch (nb.nesting()) {
            case SINGLE -> compareValue(b, v, isConfig);
            case LIST ->
                Value.list(
                        b.impliedType(),
                        v.elements().stream()
                                .map(e -> compareValue(b, e, isConfig))
                                .toList());
            case SET ->
                Value.set(
                        b.impliedType(),
                        v.elements().stream()
                                .map(e -> compareValue(b, e, isConfig))
                                .toList());
            case MAP -> {
                Map<String, Value> m = new TreeMap<>();
                v.attributes().forEach((k, e) -> m.put(k, compareValue(b, e, isConfig)));
                yield Value.map(b.impliedType(), m);
            }
        };
    }

    /** An object of the block's type with every attribute and nested block null. */
    static Value allNull(Block schema) {
        Map<String, Value> m = new TreeMap<>();
        schema.attributes().forEach((name, a) -> m.put(name, Value.nullValue(a.type())));
        schema.blockTypes().forEach((name, nb) -> m.put(name, Value.nullValue(Block.nestedType(nb))));
        return Value.object(m);
    }
}
