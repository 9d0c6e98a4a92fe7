package dev.strata.lang.funcs;

import dev.strata.lang.types.Type;
import java.util.Objects;

/**
 * One parameter of a function. An argument is converted to {@code type} before the function
 * sees it. Unless allowed, a null argument is an error, an unknown argument makes the result
 * unknown without calling the implementation, and marks are removed from the argument (at every
 * depth) and put on the result.
 */
public record Param(String name, Type type, boolean allowNull, boolean allowUnknown, boolean allowMarked) {
  public Param {
    Objects.requireNonNull(name);
    Objects.requireNonNull(type);
  }

  public static Param of(String name, Type type) {
    return new Param(name, type, false, false, false);
  }

  public Param allowingNull() {
    return new Param(name, type, true, allowUnknown, allowMarked);
  }

  public Param allowingUnknown() {
    return new Param(name, type, allowNull, true, allowMarked);
  }

  public Param allowingMarked() {
    return new Param(name, type, allowNull, allowUnknown, true);
  }
}
