package dev.strata.provider;

import dev.strata.addr.AttributePath;
import dev.strata.lang.types.DynamicType;
import dev.strata.lang.types.ListType;
import dev.strata.lang.types.MapType;
import dev.strata.lang.types.ObjectType;
import dev.strata.lang.types.PrimitiveType;
import dev.strata.lang.types.SetType;
import dev.strata.lang.types.TupleType;
import dev.strata.lang.value.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The protocol's consistency rules, which the engine enforces on every provider response
 * (Terraform's {@code objchange.AssertPlanValid} and {@code AssertObjectCompatible}): a plan may
 * only choose values where the configuration leaves a computed attribute null, and an apply may
 * only fill in what the plan left unknown. Each problem is a message naming the attribute; the
 * messages never contain values, which may be sensitive.
 */
public final class ObjectChecks {

    private ObjectChecks() {}

    /** Problems with a planned state for the given configuration; empty when the plan is valid. */
    public static List<String> checkPlanValid(Block schema, Value config, Value planned) {
        List<String> errs = new ArrayList<>();
        if (config.isNull()) {
            if (!planned.isNull()) {
                errs.add("planned an object for a resource that is being destroyed");
            }
            return errs;
        }
        if (planned.isNull()) {
            errs.add("planned no object although the configuration declares one");
            return errs;
        }
        checkBlock(schema, config, planned, AttributePath.ROOT, errs);
        return errs;
    }

    private static void checkBlock(Block schema, Value config, Value planned, AttributePath path, List<String> errs) {
        if (!config.isKnown()) {
            return;
        }
        if (!planned.isKnownAndNotNull()) {
            errs.add(where(path) + "planned value is " + (planned.isNull() ? "null" : "unknown")
                    + " for a block the configuration sets");
            return;
        }
        Map<String, Value> c = config.attributes();
        Map<String, Value> p = planned.attributes();
        schema.attributes().forEach((name, attr) -> {
            AttributePath ap = path.attr(name);
            Value cv = c.get(name);
            Value pv = p.get(name);
            if (pv == null) {
                errs.add(where(ap) + "planned object has no such attribute");
                return;
            }
            if (cv == null) {
                return;
            }
            if (!cv.isKnown()) {
                if (pv.isKnown()) {
                    errs.add(where(ap) + "planned a known value where the configuration's value is unknown");
                }
                return;
            }
            if (attr.computed() && cv.isNull()) {
                return;
            }
            if (attr.writeOnly()) {
                // A write-only value is the configuration's alone; the plan must not keep it.
                if (!pv.isNull()) {
                    errs.add(where(ap) + "planned a value for a write-only attribute");
                }
                return;
            }
            if (!cv.isWhollyKnown() && !pv.isWhollyKnown()) {
                return;
            }
            if (!cv.equalsIgnoringMarks(pv)) {
                errs.add(where(ap) + "planned value does not match the configuration's value");
            }
        });
        schema.blockTypes().forEach((name, nb) -> {
            AttributePath bp = path.attr(name);
            Value cv = c.get(name);
            Value pv = p.get(name);
            if (cv == null || pv == null || !cv.isKnown()) {
                return;
            }
            switch (nb.nesting()) {
                case SINGLE -> {
                    if (cv.isNull()) {
                        if (!pv.isNull()) {
                            errs.add(where(bp) + "planned a block the configuration does not have");
                        }
                    } else {
                        checkBlock(nb.block(), cv, pv, bp, errs);
                    }
                }
                case LIST -> {
                    if (!pv.isKnownAndNotNull() || pv.length() != cv.length()) {
                        errs.add(where(bp) + "planned a different number of blocks than configured");
                        return;
                    }
                    for (int i = 0; i < cv.length(); i++) {
                        checkBlock(
                                nb.block(), cv.elements().get(i), pv.elements().get(i), bp.index(i), errs);
                    }
                }
                case MAP -> {
                    if (!pv.isKnownAndNotNull()
                            || !pv.attributes().keySet().equals(cv.attributes().keySet())) {
                        errs.add(where(bp) + "planned different block keys than configured");
                        return;
                    }
                    cv.attributes()
                            .forEach((k, e) ->
                                    checkBlock(nb.block(), e, pv.attributes().get(k), bp.key(k), errs));
                }
                case SET -> {
                    if (cv.isWhollyKnown()
                            && pv.isKnownAndNotNull()
                            && pv.isWhollyKnown()
                            && pv.length() != cv.length()) {
                        errs.add(where(bp) + "planned a different number of blocks than configured");
                    }
                }
            }
        });
    }

    /**
     * Problems with an object returned by apply (or by a read of what was just created) compared
     * with what was planned: every known planned value must come back unchanged.
     */
    public static List<String> checkCompatible(Value planned, Value actual) {
        List<String> errs = new ArrayList<>();
        compatible(planned, actual, AttributePath.ROOT, errs);
        return errs;
    }

    private static void compatible(Value planned, Value actual, AttributePath path, List<String> errs) {
        if (!planned.isKnown()) {
            return;
        }
        if (planned.isNull() || actual.isNull() || !actual.isKnown()) {
            if (planned.isNull() != actual.isNull() || !actual.isKnown()) {
                errs.add(where(path) + "was " + describe(planned) + " in the plan, but now " + describe(actual));
            }
            return;
        }
        switch (planned.type()) {
            case ObjectType o -> {
                Map<String, Value> a = actual.attributes();
                planned.attributes().forEach((k, v) -> {
                    Value av = a.get(k);
                    if (av == null) {
                        errs.add(where(path.attr(k)) + "attribute is missing from the new object");
                    } else {
                        compatible(v, av, path.attr(k), errs);
                    }
                });
            }
            case MapType m -> {
                Map<String, Value> a = actual.attributes();
                if (!a.keySet().equals(planned.attributes().keySet())) {
                    errs.add(where(path) + "map keys differ from the plan");
                    return;
                }
                planned.attributes().forEach((k, v) -> compatible(v, a.get(k), path.key(k), errs));
            }
            case ListType l -> sequence(planned, actual, path, errs);
            case TupleType t -> sequence(planned, actual, path, errs);
            case SetType s -> {
                if (planned.isWhollyKnown() && !planned.equalsIgnoringMarks(actual)) {
                    errs.add(where(path) + "set elements differ from the plan");
                }
            }
            case PrimitiveType p -> primitive(planned, actual, path, errs);
            case DynamicType d -> primitive(planned, actual, path, errs);
        }
    }

    private static void primitive(Value planned, Value actual, AttributePath path, List<String> errs) {
        if (!planned.equalsIgnoringMarks(actual)) {
            errs.add(where(path) + "was " + describe(planned) + " in the plan, but now " + describe(actual));
        }
    }

    private static void sequence(Value planned, Value actual, AttributePath path, List<String> errs) {
        List<Value> p = planned.elements();
        List<Value> a = actual.elements();
        if (p.size() != a.size()) {
            errs.add(where(path) + "length was " + p.size() + " in the plan, but now " + a.size());
            return;
        }
        for (int i = 0; i < p.size(); i++) {
            compatible(p.get(i), a.get(i), path.index(i), errs);
        }
    }

    /** Paths of values that are still unknown in an object that must be wholly known. */
    public static List<AttributePath> unknownPaths(Value v) {
        List<AttributePath> out = new ArrayList<>();
        unknowns(v, AttributePath.ROOT, out);
        return out;
    }

    private static void unknowns(Value v, AttributePath path, List<AttributePath> out) {
        if (!v.isKnown()) {
            out.add(path);
            return;
        }
        if (v.isNull()) {
            return;
        }
        switch (v.type()) {
            case ObjectType o -> v.attributes().forEach((k, e) -> unknowns(e, path.attr(k), out));
            case MapType m -> v.attributes().forEach((k, e) -> unknowns(e, path.key(k), out));
            case ListType l -> indexed(v, path, out);
            case TupleType t -> indexed(v, path, out);
            case SetType s -> {
                if (!v.isWhollyKnown()) {
                    out.add(path);
                }
            }
            case PrimitiveType p -> {}
            case DynamicType d -> {}
        }
    }

    private static void indexed(Value v, AttributePath path, List<AttributePath> out) {
        List<Value> els = v.elements();
        for (int i = 0; i < els.size(); i++) {
            unknowns(els.get(i), path.index(i), out);
        }
    }

    private static String where(AttributePath p) {
        return p.isRoot() ? "" : "." + p + ": ";
    }

    // Describes a value's state without its content, which may be sensitive.
    private static String describe(Value v) {
        if (!v.isKnown()) {
            return "unknown";
        }
        return v.isNull() ? "null" : "a different value";
    }
}
