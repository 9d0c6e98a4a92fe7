package dev.strata.lang.funcs;

import java.util.Map;
import java.util.TreeMap;

/** Builds the table of Terraform's built-in functions. */
public final class Functions {
  private Functions() {}

  /**
   * All built-in functions except those listed in {@link FunctionTable#PENDING_EVALUATOR}, bound
   * to {@code ctx} for the file system, the clock and random UUIDs.
   */
  public static FunctionTable builtins(FunctionContext ctx) {
    Map<String, Function> m = new TreeMap<>();
    Registry r = f -> {
      if (m.put(f.name(), f) != null) {
        throw new IllegalStateException("function registered twice: " + f.name());
      }
    };
    NumericFuncs.register(r);
    StringFuncs.register(r);
    CollectionFuncs.register(r);
    SetFuncs.register(r);
    EncodingFuncs.register(r);
    FilesystemFuncs.register(r, ctx);
    DateTimeFuncs.register(r, ctx);
    CryptoFuncs.register(r, ctx);
    NetFuncs.register(r);
    ConversionFuncs.register(r);
    return new FunctionTable(m);
  }

  /** Where the per-area classes put their functions. */
  @FunctionalInterface
  interface Registry {
    void add(Function f);
  }
}
