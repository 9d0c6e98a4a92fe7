package dev.strata.engine;

import dev.strata.lang.value.Value;

/** A root module output's planned change; values keep their sensitive marks. */
public record OutputChange(String name, Action action, Value before, Value after, boolean sensitive) {}
