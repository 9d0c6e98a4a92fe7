package dev.strata.lang.funcs;

import dev.strata.lang.types.Type;

/** Short names for building parameters in the function tables. */
final class Dsl {
  private Dsl() {}

  static Param p(String name, Type type) {
    return Param.of(name, type);
  }

  /** A parameter that sees nulls, unknowns and marks itself, as the type functions do. */
  static Param raw(String name, Type type) {
    return new Param(name, type, true, true, true);
  }
}
