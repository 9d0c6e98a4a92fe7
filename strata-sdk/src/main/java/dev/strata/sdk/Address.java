package dev.strata.sdk;

import java.util.ArrayList;
import java.util.List;

/**
 * The address of a resource or module call, as {@code moved}, {@code import} and {@code removed}
 * blocks and {@code depends_on} name them: {@code aws_vpc.main}, {@code module.vpc},
 * {@code module.vpc.aws_subnet.a[0]}. Addresses of objects no longer declared (the old side of a
 * move) are built with {@link #resource} and {@link #module}.
 */
public record Address(String text, List<String> names, Site site) {
    public Address {
        names = List.copyOf(names);
    }

    public static Address resource(String type, String name) {
        return new Address(type + "." + name, List.of(type, name), Site.capture());
    }

    public static Address data(String type, String name) {
        return new Address("data." + type + "." + name, List.of(type, name), Site.capture());
    }

    public static Address module(String name) {
        return new Address("module." + name, List.of(name), Site.capture());
    }

    /** A resource inside this module address. */
    public Address resourceIn(String type, String name) {
        return extend("." + type + "." + name, type, name);
    }

    /** A module call inside this module address. */
    public Address moduleIn(String name) {
        return extend(".module." + name, name);
    }

    public Address index(long index) {
        return extend("[" + index + "]");
    }

    public Address key(String key) {
        return extend("[" + Render.quote(key, false) + "]");
    }

    private Address extend(String suffix, String... moreNames) {
        List<String> n = new ArrayList<>(names);
        n.addAll(List.of(moreNames));
        return new Address(text + suffix, n, Site.capture());
    }

    @Override
    public String toString() {
        return text;
    }
}
