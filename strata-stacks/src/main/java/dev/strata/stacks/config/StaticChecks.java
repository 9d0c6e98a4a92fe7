package dev.strata.stacks.config;

import dev.strata.addr.Provider;
import dev.strata.config.ModuleConfig;
import dev.strata.config.RequiredProvider;
import dev.strata.config.ResourceConfig;
import dev.strata.config.VariableConfig;
import dev.strata.hcl.Attribute;
import dev.strata.hcl.Block;
import dev.strata.hcl.Body;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Expression;
import dev.strata.hcl.Result;
import dev.strata.hcl.SourceRange;
import dev.strata.hcl.Traversal;
import dev.strata.hcl.syntax.SyntaxBody;
import dev.strata.lang.types.Type;
import dev.strata.stacks.addr.ProviderConfigAddr;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The static walk over a stack's configuration objects (the validate phase): each object of each
 * stack in the tree is checked once, whatever its instances will be. It checks references against
 * what the stack declares, {@code depends_on} targets, component inputs and provider slots against
 * the component's module, {@code removed} targets, and finds reference cycles.
 */
final class StaticChecks {
    private final StackConfig root;
    private final Path rootDir;
    private final Diagnostics.Builder diags = Diagnostics.builder();
    private final DependencyGraph graph = new DependencyGraph();

    StaticChecks(StackConfig root) {
        this.root = root;
        this.rootDir = root.dir().toAbsolutePath().normalize();
    }

    Diagnostics run() {
        stack(root, "", null);
        for (List<String> cycle : graph.cycles()) {
            StringBuilder sb = new StringBuilder(
                    "The following items in your configuration form a circular dependency chain through their "
                            + "references:\n");
            for (String n : cycle) {
                sb.append("  - ").append(n).append('\n');
            }
            sb.append("\nTerraform uses references to decide a suitable order for performing operations, so "
                    + "configuration items may not refer to their own results either directly or indirectly.");
            diags.add(Diagnostic.error("Self-dependent items in configuration", sb.toString(), null));
        }
        return StackLoader.distinct(diags.build());
    }

    /**
     * The names one stack's expressions resolve in. {@code prefix} names the stack in graph nodes
     * ({@code stack.a.}); {@code inputsNode} is the parent's node for this stack's inputs (null at the
     * root), which {@code var.} references depend on.
     */
    private record Scope(StackConfig stack, String prefix, String inputsNode) {}

    private void stack(StackConfig s, String prefix, String inputsNode) {
        Scope scope = new Scope(s, prefix, inputsNode);
        for (StackVariable v : s.variables().values()) {
            if (v.defaultExpr() != null) {
                // a default is a constant: it is known before any other value of the stack
                for (Traversal t : v.defaultExpr().variables()) {
                    diags.error("Variables not allowed", "Variables may not be used here.", t.rootRange());
                }
            }
            for (ValidationRule r : v.validations()) {
                refs(r.condition(), scope, false, null);
                refs(r.errorMessage(), scope, false, null);
            }
        }
        for (StackLocal l : s.locals().values()) {
            refs(l.expr(), scope, false, prefix + "local." + l.name());
        }
        for (StackOutput o : s.outputs().values()) {
            refs(o.value(), scope, false, prefix + "output." + o.name());
        }
        for (ProviderBlock p : s.providers().values()) {
            String node = prefix + p.addr();
            refs(p.forEach(), scope, false, node);
            if (p.config() != null) {
                for (Expression e : bodyExpressions(p.config())) {
                    refs(e, scope, p.forEach() != null, node);
                }
            }
        }
        for (ComponentConfig c : s.components().values()) {
            component(c, scope);
        }
        for (EmbeddedStackConfig e : s.embeddedStacks().values()) {
            String inputs = prefix + "stack." + e.name() + " inputs";
            String outputs = prefix + "stack." + e.name() + " collected outputs";
            refs(e.forEach(), scope, false, inputs);
            refs(e.inputs(), scope, e.forEach() != null, inputs);
            dependsOn(e.dependsOn(), scope, inputs);
            graph.node(outputs);
            if (e.stack() != null) {
                String childPrefix = prefix + "stack." + e.name() + ".";
                for (String o : e.stack().outputs().keySet()) {
                    graph.edge(outputs, childPrefix + "output." + o);
                }
                stack(e.stack(), childPrefix, inputs);
                embeddedInputs(e);
            }
        }
        for (RemovedBlock r : s.removed()) {
            boolean each = r.forEach() != null;
            refs(r.forEach(), scope, false, null);
            for (RemovedTarget.Step step : r.from().stacks()) {
                refs(step.key(), scope, each, null);
            }
            refs(r.from().componentKey(), scope, each, null);
            refs(r.inputs(), scope, each, null);
            for (ProviderArgument pa : r.providerArgs().values()) {
                refs(pa.value(), scope, each, null);
            }
            if (r.module() != null && r.providers() != null) {
                providerSlots(r.from().toString(), r.module(), r.moduleDir(), r.providerArgs(), r.declRange(), scope);
            }
        }
    }

    private void component(ComponentConfig c, Scope scope) {
        String node = scope.prefix() + "component." + c.name();
        graph.node(node);
        boolean each = c.forEach() != null;
        refs(c.forEach(), scope, false, node);
        refs(c.inputs(), scope, each, node);
        if (c.providers() != null) {
            for (ProviderArgument pa : c.providerArgs().values()) {
                refs(pa.value(), scope, each, node);
            }
        }
        dependsOn(c.dependsOn(), scope, node);
        if (c.module() == null) {
            return;
        }
        componentInputs(c, scope);
        if (c.providers() != null || !requiredSlots(c.module()).isEmpty()) {
            providerSlots("component." + c.name(), c.module(), c.moduleDir(), c.providerArgs(), c.declRange(), scope);
        }
    }

    // ---- references ----------------------------------------------------------------------

    private void refs(Expression e, Scope scope, boolean eachAllowed, String fromNode) {
        if (e == null) {
            return;
        }
        for (Traversal t : e.variables()) {
            ref(t, scope, eachAllowed, fromNode);
        }
    }

    private void ref(Traversal t, Scope scope, boolean eachAllowed, String fromNode) {
        String root = t.rootName();
        StackConfig s = scope.stack();
        String p = scope.prefix();
        switch (root) {
            case "var" -> {
                String name = t.attrName(1);
                if (name == null) {
                    invalidRef(
                            t, "The \"var\" object cannot be used directly; refer to one variable, such as var.name.");
                } else if (!s.variables().containsKey(name)) {
                    diags.error(
                            "Reference to undeclared input variable",
                            "There is no variable \"" + name + "\" block declared in this stack.",
                            t.rangeTo(1));
                } else if (fromNode != null && scope.inputsNode() != null) {
                    graph.edge(fromNode, scope.inputsNode());
                }
            }
            case "local" -> {
                String name = t.attrName(1);
                if (name == null) {
                    invalidRef(
                            t,
                            "The \"local\" object cannot be used directly; refer to one local value, such as local.name.");
                } else if (!s.locals().containsKey(name)) {
                    diags.error(
                            "Reference to undeclared local value",
                            "There is no local value named \"" + name + "\" declared in this stack.",
                            t.rangeTo(1));
                } else if (fromNode != null) {
                    graph.edge(fromNode, p + "local." + name);
                }
            }
            case "component" -> {
                String name = t.attrName(1);
                if (name == null) {
                    invalidRef(
                            t,
                            "The \"component\" object cannot be used directly; refer to one component, such as component.name.");
                } else if (!s.components().containsKey(name)) {
                    diags.error(
                            "Reference to undeclared component",
                            "There is no component \"" + name + "\" block declared in this stack.",
                            t.rangeTo(1));
                } else if (fromNode != null) {
                    graph.edge(fromNode, p + "component." + name);
                }
            }
            case "stack" -> {
                String name = t.attrName(1);
                if (name == null) {
                    invalidRef(
                            t,
                            "The \"stack\" object cannot be used directly; refer to one embedded stack, such as stack.name.");
                } else if (!s.embeddedStacks().containsKey(name)) {
                    diags.error(
                            "Reference to undeclared embedded stack",
                            "There is no stack \"" + name + "\" block declared in this stack.",
                            t.rangeTo(1));
                } else if (fromNode != null) {
                    graph.edge(fromNode, p + "stack." + name + " collected outputs");
                }
            }
            case "provider" -> {
                String type = t.attrName(1);
                String name = t.attrName(2);
                if (type == null || name == null) {
                    invalidRef(t, "A provider configuration reference must have the form provider.TYPE.NAME.");
                } else if (!s.providers().containsKey(new ProviderConfigAddr(type, name))) {
                    diags.error(
                            "Reference to undeclared provider configuration",
                            "There is no provider \"" + type + "\" \"" + name + "\" block declared in this stack.",
                            t.rangeTo(2));
                } else if (fromNode != null) {
                    graph.edge(fromNode, p + "provider." + type + "." + name);
                }
            }
            case "each" -> {
                String what = t.attrName(1);
                if (!eachAllowed) {
                    diags.error(
                            "Invalid \"each\" reference",
                            "The \"each\" object can be used only in \"component\", \"stack\", \"provider\" and "
                                    + "\"removed\" blocks, and only when the \"for_each\" argument is set.",
                            t.rangeTo(0));
                } else if (!"key".equals(what) && !"value".equals(what)) {
                    invalidRef(t, "The \"each\" object has only the attributes \"key\" and \"value\".");
                }
            }
            default ->
                diags.error(
                        "Invalid reference",
                        "There is no object named \"" + root + "\" in a stack configuration. References must start "
                                + "with var, local, component, stack, provider or each.",
                        t.rangeTo(0));
        }
    }

    private void invalidRef(Traversal t, String detail) {
        diags.error("Invalid reference", detail, t.range());
    }

    /** Every expression in a body not decoded against a schema (a provider's config block). */
    private static List<Expression> bodyExpressions(Body body) {
        List<Expression> out = new ArrayList<>();
        if (body instanceof SyntaxBody sb) {
            for (Attribute a : sb.attributes()) {
                out.add(a.expr());
            }
            for (Block b : sb.blocks()) {
                out.addAll(bodyExpressions(b.body()));
            }
        } else {
            Result<Map<String, Attribute>> attrs = body.justAttributes();
            for (Attribute a : attrs.value().values()) {
                out.add(a.expr());
            }
        }
        return out;
    }

    // ---- depends_on ----------------------------------------------------------------------

    private void dependsOn(List<Traversal> targets, Scope scope, String fromNode) {
        StackConfig s = scope.stack();
        for (Traversal t : targets) {
            String root = t.rootName();
            String name = t.attrName(1);
            if (!("component".equals(root) || "stack".equals(root)) || name == null) {
                diags.error(
                        "Invalid depends_on target",
                        "The depends_on argument must refer to an embedded stack or component, but this reference "
                                + "refers to \"" + t + "\".",
                        t.range());
                continue;
            }
            boolean exists = root.equals("component")
                    ? s.components().containsKey(name)
                    : s.embeddedStacks().containsKey(name);
            if (!exists) {
                diags.error(
                        "Invalid depends_on target",
                        "The depends_on reference \"" + root + "." + name + "\" does not exist.",
                        t.range());
                continue;
            }
            if (t.steps().size() > 2) {
                diags.add(Diagnostic.warning(
                        "Non-valid depends_on target",
                        "The depends_on argument should refer directly to an embedded stack or component in "
                                + "configuration, but this reference is too deep.\n\nTerraform Stacks has simplified "
                                + "the reference to the nearest valid target, \"" + root + "." + name
                                + "\". To remove this warning, update the configuration to the same target.",
                        t.rangeTo(1)));
            }
            graph.edge(
                    fromNode, scope.prefix() + root + "." + name + (root.equals("stack") ? " collected outputs" : ""));
        }
    }

    // ---- component inputs and providers ---------------------------------------------------

    private String moduleFile(Path moduleDir, SourceRange r) {
        return r == null ? null : StackFiles.prefix(rootDir, moduleDir) + r.filename();
    }

    /**
     * The inputs object against the module's variables, as far as it is written statically: every
     * required variable must be set, and a provider configuration cannot be a variable's value.
     */
    private void componentInputs(ComponentConfig c, Scope scope) {
        ModuleConfig m = c.module();
        SourceRange where = c.inputs() == null ? c.declRange() : c.inputs().range();
        List<Expression.KeyValue> items;
        if (c.inputs() == null) {
            items = List.of();
        } else {
            Optional<List<Expression.KeyValue>> kvs = c.inputs().asMap();
            if (kvs.isEmpty()) {
                return;
            }
            items = kvs.get();
        }
        Map<String, Expression> given = new TreeMap<>();
        for (Expression.KeyValue kv : items) {
            String k = Decoding.keyName(kv.key());
            if (k != null) {
                given.put(k, kv.value());
            }
        }
        for (VariableConfig v : m.variables().values()) {
            if (v.required() && !given.containsKey(v.name())) {
                diags.error(
                        "Invalid inputs for component",
                        "Invalid input variable definition object: attribute \"" + v.name() + "\" is required.",
                        where);
                return;
            }
        }
        for (Map.Entry<String, Expression> e : given.entrySet()) {
            VariableConfig v = m.variables().get(e.getKey());
            if (v == null || v.type() == null || v.type().type() == Type.DYNAMIC) {
                continue;
            }
            Provider p = providerValue(e.getValue(), scope);
            if (p != null) {
                diags.error(
                        "Invalid inputs for component",
                        "Invalid input variable definition object: attribute \"" + e.getKey() + "\": "
                                + v.type().type().friendlyName() + " required, but have configuration for "
                                + p.forDisplay() + " provider.",
                        where);
                return;
            }
        }
    }

    /** The provider of a provider configuration a plain reference stands for, or null. */
    private static Provider providerValue(Expression e, Scope scope) {
        Result<Optional<Traversal>> t = e.asTraversal();
        if (t.hasErrors() || t.value().isEmpty()) {
            return null;
        }
        Traversal tr = t.value().get();
        String root = tr.rootName();
        if ("provider".equals(root)) {
            String type = tr.attrName(1);
            String name = tr.attrName(2);
            if (type == null || name == null) {
                return null;
            }
            ProviderBlock pb = scope.stack().providers().get(new ProviderConfigAddr(type, name));
            return pb == null ? null : pb.provider();
        }
        if ("var".equals(root)) {
            StackVariable v = scope.stack().variables().get(tr.attrName(1));
            if (v != null && v.type() instanceof StackType.ProviderConfig pc) {
                return pc.provider();
            }
        }
        return null;
    }

    /** A module's provider configuration slots: local names and {@code configuration_aliases}, in order. */
    private static SortedMap<String, Slot> requiredSlots(ModuleConfig m) {
        SortedMap<String, Slot> slots = new TreeMap<>();
        for (RequiredProvider rp : m.requiredProviders().values()) {
            slots.put(rp.name(), new Slot(rp.name(), rp.source(), true));
            for (var alias : rp.configurationAliases()) {
                String key = alias.toString();
                slots.put(key, new Slot(key, rp.source(), true));
            }
        }
        // resources of providers the module never declared imply hashicorp/<name>, as in Terraform
        for (ResourceConfig r : m.resources().values()) {
            String local = r.providerConfig().localName();
            if (!slots.containsKey(local) && !isBuiltInLocal(local)) {
                slots.put(local, new Slot(local, m.providerFor(local), false));
            }
        }
        return slots;
    }

    private static boolean isBuiltInLocal(String local) {
        return local.equals("terraform");
    }

    /** One provider configuration a module needs; {@code declared}: in its required_providers. */
    private record Slot(String name, Provider provider, boolean declared) {}

    private void providerSlots(
            String what,
            ModuleConfig m,
            Path moduleDir,
            SortedMap<String, ProviderArgument> given,
            SourceRange declRange,
            Scope scope) {
        SortedMap<String, Slot> slots = requiredSlots(m);
        for (Slot slot : slots.values()) {
            ProviderArgument pa = given.get(slot.name());
            if (pa == null) {
                if (slot.provider().isBuiltIn()) {
                    continue;
                }
                diags.error(
                        "Missing required provider configuration",
                        "The root module for " + what + " requires a provider configuration named \"" + slot.name()
                                + "\" for provider \"" + slot.provider().forDisplay()
                                + "\", which is not assigned in the block's \"providers\" argument.",
                        declRange);
                continue;
            }
            Provider actual = providerValue(pa.value(), scope);
            if (actual != null && !actual.equals(slot.provider())) {
                String detail = "The provider configuration slot \"" + slot.name()
                        + "\" requires a configuration for provider \"" + slot.provider()
                        + "\", not for provider \"" + actual + "\".";
                if (!slot.declared()) {
                    detail += "\n\nThe module does not declare a source address for \"" + slot.name()
                            + "\" in its required_providers block, so Terraform assumed \""
                            + slot.provider().forDisplay()
                            + "\" for backward-compatibility with older versions of Terraform";
                }
                diags.error("Invalid provider configuration", detail, pa.value().range());
            }
        }
    }

    /** Embedded stack inputs against the child's variables, as far as they are written statically. */
    private void embeddedInputs(EmbeddedStackConfig e) {
        if (e.inputs() == null) {
            for (StackVariable v : e.stack().variables().values()) {
                if (v.required()) {
                    diags.error(
                            "Missing required input variable",
                            "The embedded stack \"" + e.name() + "\" requires a value for its input variable \""
                                    + v.name() + "\"; set it in the inputs argument.",
                            e.declRange());
                }
            }
            return;
        }
        Optional<List<Expression.KeyValue>> kvs = e.inputs().asMap();
        if (kvs.isEmpty()) {
            return;
        }
        TreeSet<String> keys = new TreeSet<>();
        for (Expression.KeyValue kv : kvs.get()) {
            String k = Decoding.keyName(kv.key());
            if (k == null) {
                continue;
            }
            keys.add(k);
            if (!e.stack().variables().containsKey(k)) {
                diags.error(
                        "Unsupported input variable",
                        "The embedded stack \"" + e.name() + "\" has no input variable named \"" + k + "\".",
                        kv.key().range());
            }
        }
        for (StackVariable v : e.stack().variables().values()) {
            if (v.required() && !keys.contains(v.name())) {
                diags.error(
                        "Missing required input variable",
                        "The embedded stack \"" + e.name() + "\" requires a value for its input variable \"" + v.name()
                                + "\"; set it in the inputs argument.",
                        e.inputs().range());
            }
        }
    }
}
