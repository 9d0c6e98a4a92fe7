package dev.strata.state;

import dev.strata.hcl.Result;

/**
 * What a user may name on the command line of the state commands: a whole module instance, a resource
 * (all its instances) or one instance. Parsed by {@link #parse}.
 */
public sealed interface StateAddress {

    /** {@code module.a} or {@code module.a["x"].module.b}: everything in that module and below. */
    record Module(String path) implements StateAddress {
        public boolean contains(String module) {
            return module.equals(path) || module.startsWith(path + ".");
        }

        @Override
        public String toString() {
            return path;
        }
    }

    /** {@code aws_instance.web}: the resource, whatever its instances. */
    record Resource(ResourceAddr addr) implements StateAddress {
        @Override
        public String toString() {
            return addr.toString();
        }
    }

    /** {@code aws_instance.web[0]}: one instance. */
    record Instance(ResourceInstanceAddr addr) implements StateAddress {
        @Override
        public String toString() {
            return addr.toString();
        }
    }

    /** Parses an address as typed by a user; errors are diagnostics without a source range. */
    static Result<StateAddress> parse(String text) {
        return Addresses.parse(text);
    }
}
