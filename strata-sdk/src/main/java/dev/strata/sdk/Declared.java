package dev.strata.sdk;

/** The stack, name and creation site of a declaration that has no arguments of its own. */
abstract sealed class Declared permits Variable, Output {
    final Stack stack;
    final String name;
    final Site site;

    Declared(Stack stack, String name, Site site) {
        this.stack = stack;
        this.name = name;
        this.site = site;
    }

    public Stack stack() {
        return stack;
    }

    public String name() {
        return name;
    }

    public Site site() {
        return site;
    }
}
