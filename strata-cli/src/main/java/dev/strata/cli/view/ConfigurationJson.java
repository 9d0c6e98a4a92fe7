package dev.strata.cli.view;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.strata.addr.InstanceKey;
import dev.strata.addr.LocalProviderConfig;
import dev.strata.addr.ModuleCallInstance;
import dev.strata.addr.ModuleCallInstanceOutput;
import dev.strata.addr.Provider;
import dev.strata.addr.Reference;
import dev.strata.addr.ResourceInstance;
import dev.strata.addr.ResourceMode;
import dev.strata.config.ConfigNode;
import dev.strata.config.ConfigTree;
import dev.strata.config.ModuleCallConfig;
import dev.strata.config.ModuleConfig;
import dev.strata.config.PassedProvider;
import dev.strata.config.Provisioner;
import dev.strata.config.RequiredProvider;
import dev.strata.config.ResourceConfig;
import dev.strata.engine.Schemas;
import dev.strata.hcl.Attribute;
import dev.strata.hcl.AttributeSchema;
import dev.strata.hcl.Block;
import dev.strata.hcl.BlockHeaderSchema;
import dev.strata.hcl.Body;
import dev.strata.hcl.BodySchema;
import dev.strata.hcl.Expression;
import dev.strata.hcl.Literal;
import dev.strata.hcl.Result;
import dev.strata.hcl.Traversal;
import dev.strata.hcl.Traverser;
import dev.strata.lang.eval.Evaluator;
import dev.strata.lang.types.ObjectType;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.ConversionResult;
import dev.strata.lang.value.Convert;
import dev.strata.lang.value.Value;
import dev.strata.provider.NestedBlock;
import dev.strata.provider.Schema;
import dev.strata.tfplugin.install.Constraints;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The {@code configuration} section of Terraform's JSON plan: every module's variables, outputs,
 * resources and module calls with each argument's expression as written, as a constant where it has
 * no references, else the references it makes ({@code var.x.y}, then {@code var.x}: every prefix down to
 * the object referred to, duplicates kept, as Terraform lists them), and the provider configurations
 * they use. Policy tools (OPA, Checkov, Infracost) read arguments from here.
 *
 * <p>Arguments are found with the provider's schema, as Terraform does: without one (a provider that
 * is not installed) a resource's {@code expressions} is empty. One deliberate difference: a sensitive
 * variable's default is left out, as every sensitive value is from Strata's output.
 */
final class ConfigurationJson {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private final ConfigTree tree;
    private final Schemas schemas;
    /** {@link #sourceKey} by a configuration's own key: every resource asks, and the answer walks up the tree. */
    private final Map<String, String> sourceKeys = new java.util.HashMap<>();

    private ConfigurationJson(ConfigTree tree, Schemas schemas) {
        this.tree = tree;
        this.schemas = schemas;
    }

    /** The section; {@code schemas} may be null, when no argument of a resource or provider is listed. */
    static ObjectNode of(ConfigTree tree, Schemas schemas) {
        ConfigurationJson c = new ConfigurationJson(tree, schemas);
        ObjectNode n = F.objectNode();
        n.set("provider_config", c.providerConfigs());
        n.set("root_module", c.module(tree.root()));
        return n;
    }

    // ---- provider configurations

    /**
     * One entry per provider configuration that is its own: a {@code provider} block, or (with no block) a
     * {@code required_providers} entry or a provider some resource uses. A module's configuration that
     * stands for one of its parent's (passed in, or inherited by name) has no entry: its resources name
     * the parent's key, as Terraform's do.
     */
    private ObjectNode providerConfigs() {
        Map<String, ObjectNode> entries = new TreeMap<>();
        for (ConfigNode n : tree.nodes()) {
            ModuleConfig mc = n.module();
            mc.providerConfigs().forEach((lpc, pc) -> {
                Provider fqn = mc.providerFor(lpc.localName());
                ObjectNode e = entry(n, lpc, fqn);
                if (lpc.alias() != null) {
                    e.put("alias", lpc.alias());
                }
                versionConstraint(mc, fqn).ifPresent(v -> e.put("version_constraint", v));
                Optional<dev.strata.provider.Block> schema = schemas == null ? Optional.empty() : schemas.provider(fqn);
                schema.ifPresent(s -> e.set("expressions", expressions(pc.config(), s)));
                entries.put(key(n, lpc), e);
            });
            List<LocalProviderConfig> implied = new ArrayList<>();
            mc.requiredProviders().values().forEach(rp -> {
                implied.add(LocalProviderConfig.of(rp.name()));
                implied.addAll(rp.configurationAliases());
            });
            mc.resources().values().forEach(rc -> implied.add(rc.providerConfig()));
            for (LocalProviderConfig lpc : implied) {
                String key = key(n, lpc);
                if (entries.containsKey(key) || !key.equals(sourceKey(n, lpc))) {
                    continue;
                }
                Provider fqn = mc.providerFor(lpc.localName());
                ObjectNode e = entry(n, lpc, fqn);
                versionConstraint(mc, fqn).ifPresent(v -> e.put("version_constraint", v));
                entries.put(key, e);
            }
        }
        ObjectNode out = F.objectNode();
        entries.forEach(out::set);
        return out;
    }

    private static ObjectNode entry(ConfigNode n, LocalProviderConfig lpc, Provider fqn) {
        ObjectNode e = F.objectNode();
        e.put("name", lpc.localName());
        e.put("full_name", fqn.toString());
        if (!n.isRoot()) {
            e.put("module_address", n.path().toString());
        }
        return e;
    }

    /** Every version constraint the module itself puts on the provider, normalized as in the lock file. */
    private static Optional<String> versionConstraint(ModuleConfig mc, Provider fqn) {
        List<String> constraints = new ArrayList<>();
        for (RequiredProvider rp : mc.requiredProviders().values()) {
            if (rp.source().equals(fqn) && rp.version() != null) {
                constraints.add(rp.version().source());
            }
        }
        return constraints.isEmpty() ? Optional.empty() : Constraints.normalize(constraints);
    }

    /** The key of a configuration in its own module: {@code aws.west}, {@code module.a.module.b:aws}. */
    private static String key(ConfigNode n, LocalProviderConfig lpc) {
        return n.isRoot() ? lpc.toString() : n.path() + ":" + lpc;
    }

    /**
     * The key of the entry a module's configuration resolves to: its own when the module has a block for it
     * (or is the root), else that of the configuration the parent passes or lends by name, followed up for
     * as long as the parent has one of its own for the same provider.
     */
    private String sourceKey(ConfigNode n, LocalProviderConfig lpc) {
        String own = key(n, lpc);
        String known = sourceKeys.get(own);
        if (known == null) {
            known = resolveSourceKey(n, lpc);
            sourceKeys.put(own, known);
        }
        return known;
    }

    private String resolveSourceKey(ConfigNode n, LocalProviderConfig lpc) {
        ModuleConfig mc = n.module();
        if (n.isRoot() || mc.providerConfigs().containsKey(lpc)) {
            return key(n, lpc);
        }
        Optional<ConfigNode> parent = tree.node(n.path().parent());
        if (parent.isEmpty()) {
            return key(n, lpc);
        }
        LocalProviderConfig inParent = lpc;
        for (PassedProvider pp : n.call().providers()) {
            if (pp.inChild().equals(lpc)) {
                inParent = pp.inParent().config();
            }
        }
        Provider fqn = mc.providerFor(lpc.localName());
        if (!hasConfiguration(parent.get(), inParent, fqn)) {
            return key(n, lpc);
        }
        return sourceKey(parent.get(), inParent);
    }

    /** Whether a module mentions a configuration of the provider by that name at all. */
    private static boolean hasConfiguration(ConfigNode n, LocalProviderConfig lpc, Provider fqn) {
        ModuleConfig mc = n.module();
        if (!mc.providerFor(lpc.localName()).equals(fqn)) {
            return false;
        }
        if (mc.providerConfigs().containsKey(lpc)) {
            return true;
        }
        RequiredProvider rp = mc.requiredProviders().get(lpc.localName());
        if (rp != null && (lpc.alias() == null || rp.configurationAliases().contains(lpc))) {
            return true;
        }
        if (mc.resources().values().stream().anyMatch(rc -> rc.providerConfig().equals(lpc))) {
            return true;
        }
        return !n.isRoot()
                && n.call().providers().stream().anyMatch(pp -> pp.inChild().equals(lpc));
    }

    // ---- modules

    private ObjectNode module(ConfigNode node) {
        ObjectNode m = F.objectNode();
        ModuleConfig mc = node.module();
        if (!mc.outputs().isEmpty()) {
            ObjectNode outs = m.putObject("outputs");
            mc.outputs().forEach((name, o) -> {
                ObjectNode x = outs.putObject(name);
                if (o.sensitive()) {
                    x.put("sensitive", true);
                }
                x.set("expression", expression(o.value()));
                dependsOn(x, o.dependsOn());
                if (o.description() != null && !o.description().isEmpty()) {
                    x.put("description", o.description());
                }
            });
        }
        // As Terraform's: managed resources, then data sources, each by address; ephemeral ones left out.
        List<ResourceConfig> resources = new ArrayList<>();
        for (ResourceMode mode : List.of(ResourceMode.MANAGED, ResourceMode.DATA)) {
            mc.resources().values().stream()
                    .filter(rc -> rc.addr().mode() == mode)
                    .sorted(java.util.Comparator.comparing(rc -> rc.addr().toString()))
                    .forEach(resources::add);
        }
        if (!resources.isEmpty()) {
            ArrayNode rs = m.putArray("resources");
            resources.forEach(rc -> rs.add(resource(node, rc)));
        }
        if (!node.children().isEmpty()) {
            ObjectNode calls = m.putObject("module_calls");
            node.children().forEach((name, child) -> calls.set(name, moduleCall(child)));
        }
        if (!mc.variables().isEmpty()) {
            ObjectNode vs = m.putObject("variables");
            mc.variables().forEach((k, v) -> {
                ObjectNode x = vs.putObject(k);
                if (v.defaultValue() != null && !v.sensitive()) {
                    x.set("default", PlanJson.json(v.defaultValue()));
                }
                if (v.description() != null && !v.description().isEmpty()) {
                    x.put("description", v.description());
                }
                if (v.sensitive()) {
                    x.put("sensitive", true);
                }
            });
        }
        return m;
    }

    private ObjectNode resource(ConfigNode node, ResourceConfig rc) {
        ObjectNode r = F.objectNode();
        var addr = rc.addr();
        r.put("address", addr.toString());
        r.put("mode", addr.mode() == ResourceMode.DATA ? "data" : "managed");
        r.put("type", addr.type());
        r.put("name", addr.name());
        r.put("provider_config_key", sourceKey(node, rc.providerConfig()));
        if (!rc.provisioners().isEmpty()) {
            ArrayNode ps = r.putArray("provisioners");
            for (Provisioner p : rc.provisioners()) {
                ObjectNode x = ps.addObject();
                x.put("type", p.type());
                x.set("expressions", provisionerExpressions(p));
            }
        }
        Provider fqn = node.module().providerFor(rc.providerConfig().localName());
        Optional<Schema> schema = schemas == null ? Optional.empty() : schemas.resource(fqn, addr);
        // As Terraform's: no "expressions" for a resource that sets no argument.
        schema.map(s -> expressions(rc.config(), s.block()))
                .filter(e -> !e.isEmpty())
                .ifPresent(e -> r.set("expressions", e));
        r.put("schema_version", schema.map(Schema::version).orElse(0L));
        instancing(r, "count_expression", rc.count());
        instancing(r, "for_each_expression", rc.forEach());
        dependsOn(r, rc.dependsOn());
        return r;
    }

    private ObjectNode moduleCall(ConfigNode child) {
        ModuleCallConfig call = child.call();
        ObjectNode c = F.objectNode();
        c.put("source", call.source());
        // As Terraform's: the arguments that set one of the module's variables, by name.
        ObjectNode args = F.objectNode();
        new TreeMap<>(call.inputs()).forEach((name, a) -> {
            if (child.module().variables().containsKey(name)) {
                args.set(name, expression(a.expr()));
            }
        });
        if (!args.isEmpty()) {
            c.set("expressions", args);
        }
        instancing(c, "count_expression", call.count());
        instancing(c, "for_each_expression", call.forEach());
        c.set("module", module(child));
        if (call.version() != null && !call.version().source().isEmpty()) {
            c.put("version_constraint", call.version().source());
        }
        dependsOn(c, call.dependsOn());
        return c;
    }

    /** As Terraform's: left out when it has no constant and no reference (a function call of constants). */
    private static void instancing(ObjectNode o, String name, Expression e) {
        if (e != null) {
            ObjectNode x = expression(e);
            if (!x.isEmpty()) {
                o.set(name, x);
            }
        }
    }

    private static void dependsOn(ObjectNode o, List<Traversal> dependsOn) {
        if (dependsOn.isEmpty()) {
            return;
        }
        ArrayNode a = o.putArray("depends_on");
        for (Traversal t : dependsOn) {
            Reference r = Reference.parse(t).value();
            if (r != null) {
                a.add(r.subject().toString());
            }
        }
    }

    // ---- expressions

    /** A provisioner's arguments: its body holds only those its type takes (loading refused any other). */
    private static ObjectNode provisionerExpressions(Provisioner p) {
        ObjectNode out = F.objectNode();
        new TreeMap<>(p.config().justAttributes().value()).forEach((name, a) -> out.set(name, expression(a.expr())));
        return out;
    }

    /**
     * A body's arguments by the schema, as Terraform lists them: each attribute's expression; nested blocks
     * as one object (single nesting) or a list of objects; {@code dynamic} blocks left out; a list or set of
     * objects written as blocks (as older providers allow) as one expression over all of them.
     */
    static ObjectNode expressions(Body body, dev.strata.provider.Block schema) {
        List<AttributeSchema> attrs = new ArrayList<>();
        schema.attributes().keySet().forEach(name -> attrs.add(AttributeSchema.optional(name)));
        Result<Body.PartialContent> r = body.partialContent(new BodySchema(attrs, schema.blockHeaders()));
        Map<String, com.fasterxml.jackson.databind.JsonNode> out = new TreeMap<>();
        if (r.value() == null) {
            return F.objectNode();
        }
        r.value().content().attributes().forEach((name, a) -> out.put(name, expression(a.expr())));
        for (Block b : r.value().content().blocks()) {
            NestedBlock nb = schema.blockTypes().get(b.type());
            ObjectNode inner = expressions(b.body(), nb.block());
            switch (nb.nesting()) {
                case SINGLE -> out.put(b.type(), inner);
                case LIST, SET, MAP -> ((ArrayNode) out.computeIfAbsent(b.type(), k -> F.arrayNode())).add(inner);
            }
        }
        attributesWrittenAsBlocks(body, schema, out);
        ObjectNode o = F.objectNode();
        out.forEach(o::set);
        return o;
    }

    private static void attributesWrittenAsBlocks(
            Body body, dev.strata.provider.Block schema, Map<String, com.fasterxml.jackson.databind.JsonNode> out) {
        Map<String, ObjectType> candidates = new LinkedHashMap<>();
        schema.attributes().forEach((name, a) -> {
            ObjectType elem = a.blockElementType();
            if (elem != null && !out.containsKey(name)) {
                candidates.put(name, elem);
            }
        });
        if (candidates.isEmpty()) {
            return;
        }
        Result<Body.PartialContent> r = body.partialContent(new BodySchema(
                List.of(),
                candidates.keySet().stream().map(BlockHeaderSchema::of).toList()));
        if (r.value() == null) {
            return;
        }
        for (var c : candidates.entrySet()) {
            List<Block> written = r.value().content().blocksOfType(c.getKey());
            if (!written.isEmpty()) {
                out.put(
                        c.getKey(),
                        blocksAsAttribute(
                                written,
                                c.getValue(),
                                schema.attribute(c.getKey()).type()));
            }
        }
    }

    private static ObjectNode blocksAsAttribute(List<Block> written, ObjectType elem, Type type) {
        List<String> refs = new ArrayList<>();
        List<Value> objects = new ArrayList<>();
        boolean constant = true;
        for (Block b : written) {
            Map<String, Value> attrs = new TreeMap<>();
            elem.attrs().forEach((attr, t) -> attrs.put(attr, Value.nullValue(t)));
            Result<Map<String, Attribute>> args = b.body().justAttributes();
            for (Attribute a : args.value().values()) {
                refs.addAll(references(a.expr()));
                Value v = constant(a.expr());
                constant &= v != null;
                if (v != null) {
                    attrs.put(a.name(), v);
                }
            }
            objects.add(Value.object(attrs));
        }
        ObjectNode e = F.objectNode();
        if (constant) {
            ConversionResult c = Convert.convert(Value.tuple(objects), type);
            if (c.isOk()) {
                e.set("constant_value", PlanJson.json(c.value()));
            }
        }
        if (!refs.isEmpty()) {
            ArrayNode a = e.putArray("references");
            refs.forEach(a::add);
        }
        return e;
    }

    /**
     * One expression as Terraform describes it: {@code constant_value} when it evaluates without any
     * context (no references, no function calls) to a wholly known value, and {@code references} when it
     * makes any.
     */
    static ObjectNode expression(Expression e) {
        ObjectNode o = F.objectNode();
        Value v = constant(e);
        if (v != null) {
            o.set("constant_value", PlanJson.json(v));
        }
        List<String> refs = references(e);
        if (!refs.isEmpty()) {
            ArrayNode a = o.putArray("references");
            refs.forEach(a::add);
        }
        return o;
    }

    private static Value constant(Expression e) {
        Result<Value> r = Evaluator.constant(e);
        return r.hasErrors() || r.value() == null || !r.value().isWhollyKnown() ? null : r.value();
    }

    /**
     * Each reference with every prefix of its remaining steps down to its subject, then, for an instance of
     * a resource or module call (or a module call's output), the resource or call itself.
     */
    static List<String> references(Expression e) {
        List<String> out = new ArrayList<>();
        for (Traversal t : e.variables()) {
            Reference r = Reference.parse(t).value();
            if (r == null) {
                continue;
            }
            String subject = r.subject().toString();
            List<Traverser> rest = r.remaining();
            for (int n = rest.size(); n > 0; n--) {
                StringBuilder sb = new StringBuilder(subject);
                for (Traverser step : rest.subList(0, n)) {
                    step(sb, step);
                }
                out.add(sb.toString());
            }
            out.add(subject);
            switch (r.subject()) {
                case ResourceInstance ri
                when !Objects.equals(ri.key(), InstanceKey.NONE) ->
                    out.add(ri.resource().toString());
                case ModuleCallInstance mci
                when !Objects.equals(mci.key(), InstanceKey.NONE) ->
                    out.add(mci.call().toString());
                case ModuleCallInstanceOutput out2 -> out.add(out2.call().toString());
                default -> {}
            }
        }
        return out;
    }

    private static void step(StringBuilder sb, Traverser step) {
        switch (step) {
            case Traverser.Attr a -> sb.append('.').append(a.name());
            case Traverser.Index i -> sb.append('[').append(key(i.key())).append(']');
            case Traverser.Splat s -> sb.append("[*]");
            case Traverser.Root root -> sb.append(root.name());
        }
    }

    private static String key(Literal l) {
        return switch (l) {
            case Literal.StringLit s -> dev.strata.hcl.GoQuote.quote(s.value());
            case Literal.NumberLit n -> n.value().stripTrailingZeros().toPlainString();
            case Literal.BoolLit b -> Boolean.toString(b.value());
            case Literal.NullLit n -> "null";
        };
    }
}
