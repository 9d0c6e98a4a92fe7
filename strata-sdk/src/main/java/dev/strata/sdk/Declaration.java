package dev.strata.sdk;

/** Something a {@link Stack} declares: each belongs to exactly one stack and remembers where it was created. */
public sealed interface Declaration permits Resource, DataSource, ModuleCall, Variable, Local, Output, Provider {
    Stack stack();

    String name();

    Site site();
}
