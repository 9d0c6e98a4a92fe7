package dev.strata.lang.funcs;

import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * An immutable table of functions by name. Every function can also be looked up with the
 * {@code core::} prefix, as in Terraform.
 */
public final class FunctionTable {
  /**
   * Built-ins that are not functions of values: they take their arguments unevaluated, so the
   * evaluator implements them itself (dev.strata.lang.eval.Evaluator).
   */
  public static final SortedSet<String> SPECIAL_FORMS =
      Collections.unmodifiableSortedSet(new TreeSet<>(java.util.List.of("can", "try")));

  private final SortedMap<String, Function> functions;

  FunctionTable(Map<String, Function> functions) {
    this.functions = Collections.unmodifiableSortedMap(new TreeMap<>(functions));
  }

  public Optional<Function> lookup(String name) {
    String n = name.startsWith("core::") ? name.substring("core::".length()) : name;
    return Optional.ofNullable(functions.get(n));
  }

  public SortedSet<String> names() {
    return Collections.unmodifiableSortedSet(new TreeSet<>(functions.keySet()));
  }

  /** A table with {@code f} added, replacing any function of the same name. */
  public FunctionTable with(Function f) {
    TreeMap<String, Function> m = new TreeMap<>(functions);
    m.put(f.name(), f);
    return new FunctionTable(m);
  }

  /** A table without the named function, e.g. {@code plantimestamp} in the console. */
  public FunctionTable without(String name) {
    TreeMap<String, Function> m = new TreeMap<>(functions);
    m.remove(name);
    return new FunctionTable(m);
  }
}
