package dev.strata.lang.value;

import dev.strata.lang.types.Type;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;

/**
 * The total order used for set elements: strings by Unicode code point (which is UTF-8 byte
 * order), numbers by value, {@code false} before {@code true}; values of different types by
 * their type expression; then nulls, then unknowns; collections element by element. The
 * order of non-primitive elements is not Terraform's (cty orders those by hash), but it is
 * deterministic.
 */
public final class ValueOrder implements Comparator<Value> {
  public static final ValueOrder INSTANCE = new ValueOrder();

  private ValueOrder() {}

  /** Compares strings by code point, the byte order of their UTF-8 encodings. */
  public static int compareStrings(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      int ca = a.codePointAt(i);
      int cb = b.codePointAt(j);
      if (ca != cb) {
        return Integer.compare(ca, cb);
      }
      i += Character.charCount(ca);
      j += Character.charCount(cb);
    }
    return Boolean.compare(i < a.length(), j < b.length());
  }

  @Override
  public int compare(Value a, Value b) {
    Type ta = a.type();
    Type tb = b.type();
    if (!ta.equals(tb)) {
      return ta.typeExpr().compareTo(tb.typeExpr());
    }
    int byState = Integer.compare(state(a), state(b));
    if (byState != 0 || state(a) != 0) {
      return byState != 0 ? byState : Integer.compare(a.marks().hashCode(), b.marks().hashCode());
    }
    int c = comparePayload(a, b);
    return c != 0 ? c : compareMarks(a, b);
  }

  private static int compareMarks(Value a, Value b) {
    return a.marks().toString().compareTo(b.marks().toString());
  }

  private static int state(Value v) {
    return !v.isKnown() ? 2 : v.isNull() ? 1 : 0;
  }

  private int comparePayload(Value a, Value b) {
    return switch (a.type()) {
      case dev.strata.lang.types.PrimitiveType p -> switch (p) {
        case STRING -> compareStrings(a.asString(), b.asString());
        case NUMBER -> compareNumbers(a, b);
        case BOOL -> Boolean.compare(a.asBool(), b.asBool());
      };
      case dev.strata.lang.types.ListType l -> compareLists(a.elements(), b.elements());
      case dev.strata.lang.types.SetType s -> compareLists(a.elements(), b.elements());
      case dev.strata.lang.types.TupleType t -> compareLists(a.elements(), b.elements());
      case dev.strata.lang.types.MapType m -> compareMaps(a.attributes(), b.attributes());
      case dev.strata.lang.types.ObjectType o -> compareMaps(a.attributes(), b.attributes());
      case dev.strata.lang.types.DynamicType d -> 0;
    };
  }

  private int compareLists(List<Value> a, List<Value> b) {
    for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
      int c = compare(a.get(i), b.get(i));
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(a.size(), b.size());
  }

  private int compareMaps(SortedMap<String, Value> a, SortedMap<String, Value> b) {
    Iterator<Map.Entry<String, Value>> ia = a.entrySet().iterator();
    Iterator<Map.Entry<String, Value>> ib = b.entrySet().iterator();
    while (ia.hasNext() && ib.hasNext()) {
      Map.Entry<String, Value> ea = ia.next();
      Map.Entry<String, Value> eb = ib.next();
      int c = compareStrings(ea.getKey(), eb.getKey());
      if (c == 0) {
        c = compare(ea.getValue(), eb.getValue());
      }
      if (c != 0) {
        return c;
      }
    }
    return Boolean.compare(ia.hasNext(), ib.hasNext());
  }

  /** By value, with -Inf below and +Inf above every finite number, and -0 equal to 0. */
  static int compareNumbers(Value a, Value b) {
    int ra = rank(a);
    int rb = rank(b);
    if (ra != 0 || rb != 0) {
      return Integer.compare(ra, rb);
    }
    int c = a.asNumber().compareTo(b.asNumber());
    // Keep -0 and 0 apart so that the order stays consistent with equals.
    return c != 0 ? c : Boolean.compare(!a.numberText().equals("-0"), !b.numberText().equals("-0"));
  }

  private static int rank(Value v) {
    if (!v.isInfinite()) {
      return 0;
    }
    return v.asDouble() > 0 ? 1 : -1;
  }
}
