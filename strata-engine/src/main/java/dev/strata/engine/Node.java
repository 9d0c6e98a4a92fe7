package dev.strata.engine;

import dev.strata.addr.AbsProviderConfig;
import dev.strata.addr.Module;
import dev.strata.addr.Resource;

/**
 * A vertex of the plan/apply graph: one configuration object of one module (all of that module's
 * instances are handled by the one vertex). Ordered by module, then kind, then name, so that walks
 * and renderings are deterministic.
 */
sealed interface Node extends Comparable<Node> {

    Module module();

    /** The address as users write it, for cycle messages and {@code strata graph}. */
    String display();

    int kindOrder();

    /**
     * The name Terraform gives this vertex in its cycle errors: a local, an output, a child module's
     * variable and a module call's expansion are "(expand)" vertices there, the end of a module is
     * "(close)", and resources, providers and root variables go by their addresses.
     */
    default String cycleName() {
        return display();
    }

    @Override
    default int compareTo(Node o) {
        int c = module().compareTo(o.module());
        if (c == 0) {
            c = Integer.compare(kindOrder(), o.kindOrder());
        }
        return c != 0 ? c : display().compareTo(o.display());
    }

    private static String in(Module m, String s) {
        return m.isRoot() ? s : m + "." + s;
    }

    record ProviderNode(AbsProviderConfig config) implements Node {
        public Module module() {
            return config.module();
        }

        public String display() {
            return config.toString();
        }

        public int kindOrder() {
            return 0;
        }
    }

    record VariableNode(Module module, String name) implements Node {
        public String display() {
            return in(module, "var." + name);
        }

        @Override
        public String cycleName() {
            return module.isRoot() ? display() : display() + " (expand)";
        }

        public int kindOrder() {
            return 1;
        }
    }

    /**
     * The {@code validation} rules of an input variable that the walk checks (a child module's; a root
     * variable's that refer to more than input variables), apart from the variable so that they may refer
     * to other objects of the module (Terraform 1.9+) that themselves use the variable.
     */
    record VariableValidationNode(Module module, String name) implements Node {
        public String display() {
            return in(module, "var." + name) + " (validation)";
        }

        public int kindOrder() {
            return 1;
        }
    }

    record LocalNode(Module module, String name) implements Node {
        public String display() {
            return in(module, "local." + name);
        }

        @Override
        public String cycleName() {
            return display() + " (expand)";
        }

        public int kindOrder() {
            return 2;
        }
    }

    record ModuleCallNode(Module module, String name) implements Node {
        public String display() {
            return in(module, "module." + name);
        }

        @Override
        public String cycleName() {
            return display() + " (expand)";
        }

        public int kindOrder() {
            return 3;
        }

        Module child() {
            return module.child(name);
        }
    }

    record ResourceNode(Module module, Resource resource) implements Node {
        public String display() {
            return in(module, resource.toString());
        }

        public int kindOrder() {
            return 4;
        }
    }

    /**
     * The destroy-first deletions of one resource in an apply ({@link DestroyOrder}): instances no longer
     * configured and the old objects of replacements without {@code create_before_destroy}.
     */
    record DestroyNode(Module module, Resource resource) implements Node {
        public String display() {
            return in(module, resource.toString()) + " (destroy)";
        }

        public int kindOrder() {
            return 4;
        }
    }

    record OutputNode(Module module, String name) implements Node {
        public String display() {
            return in(module, "output." + name);
        }

        @Override
        public String cycleName() {
            return display() + " (expand)";
        }

        public int kindOrder() {
            return 5;
        }
    }

    record CheckNode(Module module, String name) implements Node {
        public String display() {
            return in(module, "check." + name);
        }

        public int kindOrder() {
            return 6;
        }
    }

    /** The end of a module call: after every object of the module; what {@code module.a} as a whole waits for. */
    record ModuleCloseNode(Module module, String name) implements Node {
        public String display() {
            return in(module, "module." + name) + " (close)";
        }

        public int kindOrder() {
            return 7;
        }
    }
}
