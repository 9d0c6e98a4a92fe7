package dev.strata.sdk;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** One synthesis of a stack: checks the program and writes Terraform's JSON syntax with sorted keys. */
final class Synthesizer {
    private static final String BAD_NAME = "A name must start with a letter or underscore and may contain only "
            + "letters, digits, underscores, and dashes.";
    private static final ObjectMapper JSON =
            new ObjectMapper().configure(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN.mappedFeature(), true);
    private static final DefaultPrettyPrinter PRETTY = new DefaultPrettyPrinter()
            .withObjectIndenter(new DefaultIndenter("  ", "\n"))
            .withArrayIndenter(new DefaultIndenter("  ", "\n"))
            .withSeparators(Separators.createDefaultInstance()
                    .withObjectFieldValueSpacing(Separators.Spacing.AFTER)
                    .withObjectEmptySeparator("")
                    .withArrayEmptySeparator(""));

    private final Stack stack;
    private final List<Problem> problems = new ArrayList<>();

    Synthesizer(Stack stack) {
        this.stack = stack;
    }

    Synthesis run() {
        TreeMap<String, JsonNode> top = new TreeMap<>();
        putIfAny(top, "variable", variables());
        putIfAny(top, "locals", locals());
        putIfAny(top, "provider", providers());
        putIfAny(top, "resource", resources());
        putIfAny(top, "data", dataSources());
        putIfAny(top, "module", modules());
        putIfAny(top, "output", outputs());
        putIfAny(top, "terraform", terraform());
        putIfAny(top, "moved", moved());
        putIfAny(top, "import", imports());
        putIfAny(top, "removed", removed());
        try {
            String json = JSON.writer(PRETTY).writeValueAsString(object(top)) + "\n";
            return new Synthesis(json, problems, SourceMap.of(stack, json));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    // ---- declarations ----

    private JsonNode variables() {
        TreeMap<String, JsonNode> out = new TreeMap<>();
        Map<String, Site> seen = new HashMap<>();
        for (Variable v : stack.variables) {
            if (!name("variable", v.name, v.site)) {
                continue;
            }
            if (Names.RESERVED_VARIABLE_NAMES.contains(v.name)) {
                problem(
                        "Invalid variable name",
                        "The variable name " + Names.quoted(v.name) + " is reserved due to "
                                + "its special meaning inside module blocks.",
                        v.site);
            }
            if (duplicate(
                    seen,
                    v.name,
                    v.site,
                    "Duplicate variable declaration",
                    "A variable named "
                            + Names.quoted(v.name)
                            + " was already declared at %s. Variable names must be unique within a "
                            + "module.")) {
                continue;
            }
            TreeMap<String, JsonNode> body = new TreeMap<>();
            if (v.type != null) {
                body.put("type", Render.NODES.textNode(v.type));
            }
            if (v.defaultValue != null) {
                List<Expr.Ref> refs = Exprs.refs(v.defaultValue.expr());
                JsonNode literal = Render.literalJson(v.defaultValue.expr());
                if (!refs.isEmpty()) {
                    problem(
                            "Variables not allowed",
                            "The default of variable " + Names.quoted(v.name) + " refers to "
                                    + refs.get(0).lineage().text()
                                    + "; a default must be a literal value, known before "
                                    + "anything else is evaluated.",
                            v.defaultValue.site());
                } else if (literal == null) {
                    problem(
                            "Invalid default value for variable",
                            "The default of variable " + Names.quoted(v.name)
                                    + " is an expression (" + Render.text(v.defaultValue.expr())
                                    + "); a default must be a "
                                    + "literal value.",
                            v.defaultValue.site());
                } else {
                    body.put("default", literal);
                }
            }
            if (v.description != null) {
                body.put("description", Render.NODES.textNode(v.description));
            }
            if (v.sensitive) {
                body.put("sensitive", Render.NODES.booleanNode(true));
            }
            if (v.nullable != null) {
                body.put("nullable", Render.NODES.booleanNode(v.nullable));
            }
            if (!v.validations.isEmpty()) {
                ArrayNode rules = Render.NODES.arrayNode();
                for (Variable.Validation rule : v.validations) {
                    checkRefs(rule.condition(), v);
                    rules.add(object(new TreeMap<>(Map.of(
                            "condition", Render.json(rule.condition().expr()),
                            "error_message", Render.json(rule.message().expr())))));
                }
                body.put("validation", rules);
            }
            out.put(v.name, object(body));
        }
        return object(out);
    }

    private JsonNode locals() {
        TreeMap<String, JsonNode> out = new TreeMap<>();
        Map<String, Site> seen = new HashMap<>();
        for (Local l : stack.locals) {
            if (!name("local value", l.name(), l.site())
                    || duplicate(
                            seen,
                            l.name(),
                            l.site(),
                            "Duplicate local value definition",
                            "A local value named " + Names.quoted(l.name())
                                    + " was already defined at %s. Local value names must be unique within a module.")) {
                continue;
            }
            checkRefs(l.value(), l);
            out.put(l.name(), Render.json(l.value().expr()));
        }
        return object(out);
    }

    private JsonNode providers() {
        TreeMap<String, List<Provider>> byName = new TreeMap<>();
        Map<String, Site> seen = new HashMap<>();
        for (Provider p : stack.providers) {
            if (!name("provider", p.name, p.site) || p.alias != null && !name("provider alias", p.alias, p.site)) {
                continue;
            }
            String detail = p.alias == null
                    ? "A default (non-aliased) provider configuration for " + Names.quoted(p.name) + " was already "
                            + "given at %s. If multiple configurations are required, set the \"alias\" argument for "
                            + "alternative configurations."
                    : "A provider configuration for " + Names.quoted(p.name) + " with alias " + Names.quoted(p.alias)
                            + " was already given at %s. Each configuration for the same provider must have a distinct alias.";
            if (duplicate(seen, p.reference(), p.site, "Duplicate provider configuration", detail)) {
                continue;
            }
            byName.computeIfAbsent(p.name, k -> new ArrayList<>()).add(p);
        }
        TreeMap<String, JsonNode> out = new TreeMap<>();
        byName.forEach((name, configs) -> {
            ArrayNode list = Render.NODES.arrayNode();
            configs.stream()
                    .sorted(Comparator.comparing((Provider p) -> p.alias == null ? "" : p.alias))
                    .forEach(p -> {
                        TreeMap<String, JsonNode> body = body(p, Names.PROVIDER_META, "provider", null);
                        if (p.alias != null) {
                            body.put("alias", Render.NODES.textNode(p.alias));
                        }
                        list.add(object(body));
                    });
            out.put(name, list);
        });
        return object(out);
    }

    private JsonNode resources() {
        TreeMap<String, TreeMap<String, JsonNode>> out = new TreeMap<>();
        Map<String, Site> seen = new HashMap<>();
        for (Resource r : stack.resources) {
            if (!name("resource type", r.type, r.site)
                    || !name("resource", r.name, r.site)
                    || duplicate(
                            seen,
                            r.root(),
                            r.site,
                            "Duplicate resource " + Names.quoted(r.type) + " configuration",
                            "A " + r.type + " resource named " + Names.quoted(r.name) + " was already "
                                    + "declared at %s. Resource names must be unique per type in each module.")) {
                continue;
            }
            TreeMap<String, JsonNode> body = body(r, Names.RESOURCE_META, "resource", r);
            repetition(r, body);
            dependsOn(r.dependsOn, r, body);
            provider(r.provider, r.providerSite, body);
            if (!r.lifecycle.isEmpty()) {
                body.put("lifecycle", lifecycle(r));
            }
            out.computeIfAbsent(r.type, k -> new TreeMap<>()).put(r.name, object(body));
        }
        return nested(out);
    }

    private JsonNode dataSources() {
        TreeMap<String, TreeMap<String, JsonNode>> out = new TreeMap<>();
        Map<String, Site> seen = new HashMap<>();
        for (DataSource d : stack.data) {
            if (!name("data source type", d.type, d.site)
                    || !name("data source", d.name, d.site)
                    || duplicate(
                            seen,
                            d.root(),
                            d.site,
                            "Duplicate data " + Names.quoted(d.type) + " configuration",
                            "A " + d.type + " data resource named " + Names.quoted(d.name)
                                    + " was already declared at %s. "
                                    + "Resource names must be unique per type in each module.")) {
                continue;
            }
            TreeMap<String, JsonNode> body = body(d, Names.DATA_META, "data", d);
            repetition(d, body);
            dependsOn(d.dependsOn, d, body);
            provider(d.provider, d.providerSite, body);
            out.computeIfAbsent(d.type, k -> new TreeMap<>()).put(d.name, object(body));
        }
        return nested(out);
    }

    private JsonNode modules() {
        TreeMap<String, JsonNode> out = new TreeMap<>();
        Map<String, Site> seen = new HashMap<>();
        for (ModuleCall m : stack.modules) {
            if (!name("module call", m.name, m.site)
                    || duplicate(
                            seen,
                            m.name,
                            m.site,
                            "Duplicate module call",
                            "A module call named " + Names.quoted(m.name)
                                    + " was already defined at %s. Module calls must "
                                    + "have unique names within a module.")) {
                continue;
            }
            TreeMap<String, JsonNode> body = body(m, Names.MODULE_META, "module", m);
            body.put("source", Render.NODES.textNode(m.source));
            if (m.version != null) {
                body.put("version", Render.NODES.textNode(m.version));
            }
            repetition(m, body);
            dependsOn(m.dependsOn, m, body);
            if (!m.providers.isEmpty()) {
                TreeMap<String, JsonNode> passed = new TreeMap<>();
                m.providers.forEach((local, p) -> {
                    foreign(p, m.site);
                    passed.put(local, Render.NODES.textNode(p.reference()));
                });
                body.put("providers", object(passed));
            }
            out.put(m.name, object(body));
        }
        return object(out);
    }

    private JsonNode outputs() {
        TreeMap<String, JsonNode> out = new TreeMap<>();
        Map<String, Site> seen = new HashMap<>();
        for (Output o : stack.outputs) {
            if (!name("output", o.name, o.site)
                    || duplicate(
                            seen,
                            o.name,
                            o.site,
                            "Duplicate output definition",
                            "An output named " + Names.quoted(o.name)
                                    + " was already defined at %s. Output names must be "
                                    + "unique within a module.")) {
                continue;
            }
            checkRefs(o.value, o);
            TreeMap<String, JsonNode> body = new TreeMap<>();
            body.put("value", Render.json(o.value.expr()));
            if (o.description != null) {
                body.put("description", Render.NODES.textNode(o.description));
            }
            if (o.sensitive) {
                body.put("sensitive", Render.NODES.booleanNode(true));
            }
            dependsOn(o.dependsOn, o, body);
            out.put(o.name, object(body));
        }
        return object(out);
    }

    private JsonNode terraform() {
        TreeMap<String, JsonNode> body = new TreeMap<>();
        if (stack.requiredVersion != null) {
            body.put("required_version", Render.NODES.textNode(stack.requiredVersion));
        }
        if (!stack.requiredProviders.isEmpty()) {
            TreeMap<String, JsonNode> req = new TreeMap<>();
            stack.requiredProviders.forEach((name, p) -> {
                TreeMap<String, JsonNode> r = new TreeMap<>();
                r.put("source", Render.NODES.textNode(p.source()));
                if (p.version() != null) {
                    r.put("version", Render.NODES.textNode(p.version()));
                }
                req.put(name, object(r));
            });
            body.put("required_providers", object(req));
        }
        return object(body);
    }

    // moved, import and removed keep program order: an array in JSON syntax, each entry its own block.
    private JsonNode moved() {
        ArrayNode out = Render.NODES.arrayNode();
        for (Stack.Moved m : stack.moved) {
            if (address(m.from()) & address(m.to())) {
                out.add(object(new TreeMap<>(Map.of(
                        "from", Render.NODES.textNode(m.from().text()), "to", Render.NODES.textNode(m.to().text())))));
            }
        }
        return out;
    }

    private JsonNode imports() {
        ArrayNode out = Render.NODES.arrayNode();
        for (Stack.Import i : stack.imports) {
            if (address(i.to())) {
                checkRefs(i.id(), null);
                out.add(object(new TreeMap<>(
                        Map.of("to", Render.NODES.textNode(i.to().text()), "id", Render.json(i.id().expr())))));
            }
        }
        return out;
    }

    private JsonNode removed() {
        ArrayNode out = Render.NODES.arrayNode();
        for (Stack.Removed r : stack.removed) {
            if (address(r.from())) {
                out.add(object(new TreeMap<>(Map.of(
                        "from",
                        Render.NODES.textNode(r.from().text()),
                        "lifecycle",
                        object(new TreeMap<>(Map.of("destroy", Render.NODES.booleanNode(r.destroy()))))))));
            }
        }
        return out;
    }

    // ---- parts ----

    private TreeMap<String, JsonNode> body(Body<?> b, Set<String> meta, String kind, Declaration where) {
        TreeMap<String, JsonNode> out = new TreeMap<>();
        b.args().forEach((name, arg) -> {
            if (!name("argument", name, arg.site())) {
                return;
            }
            if (meta.contains(name)) {
                problem(
                        "Reserved argument name in " + kind + " block",
                        Names.quoted(name) + " is a meta-argument of " + "a " + kind
                                + " block; set it with its own method rather than as an argument.",
                        arg.site());
                return;
            }
            checkRefs(arg.value(), where);
            out.put(name, Render.json(arg.value().expr()));
        });
        TreeMap<String, ArrayNode> blocks = new TreeMap<>();
        for (Block nested : b.blocks) {
            if (!name("block type", nested.type, nested.site)) {
                continue;
            }
            if (out.containsKey(nested.type)) {
                problem(
                        "Duplicate argument",
                        "The name " + Names.quoted(nested.type) + " is used both as an argument "
                                + "and as a nested block type.",
                        nested.site);
                continue;
            }
            blocks.computeIfAbsent(nested.type, k -> Render.NODES.arrayNode())
                    .add(object(body(nested, Set.of(), "nested", where)));
        }
        out.putAll(blocks);
        TreeMap<String, ArrayNode> dynamic = new TreeMap<>();
        for (Body.Dynamic d : b.dynamics) {
            if (!name("block type", d.type(), d.site()) || !name("iterator", d.iterator(), d.site())) {
                continue;
            }
            checkRefs(d.forEach(), where);
            TreeMap<String, JsonNode> one = new TreeMap<>();
            one.put("for_each", Render.json(d.forEach().expr()));
            if (!d.iterator().equals(d.type())) {
                one.put("iterator", Render.NODES.textNode(d.iterator()));
            }
            one.put("content", object(body(d.content(), Set.of(), "nested", where)));
            dynamic.computeIfAbsent(d.type(), k -> Render.NODES.arrayNode()).add(object(one));
        }
        if (!dynamic.isEmpty()) {
            if (out.containsKey("dynamic")) {
                problem(
                        "Duplicate argument",
                        "The name \"dynamic\" is used both as an argument and for dynamic blocks.",
                        b.dynamics.getFirst().site());
            } else {
                out.put("dynamic", object(dynamic));
            }
        }
        return out;
    }

    private void repetition(Instanced<?> d, TreeMap<String, JsonNode> body) {
        if (d.count != null && d.forEach != null) {
            problem(
                    "Invalid combination of \"count\" and \"for_each\"",
                    "The \"count\" and \"for_each\" "
                            + "meta-arguments are mutually-exclusive, only one should be used to be explicit about the number "
                            + "of resources to be created.",
                    d.forEach.site());
        }
        if (d.count != null) {
            checkRefs(d.count.value(), null);
            body.put("count", Render.json(d.count.value().expr()));
        }
        if (d.forEach != null) {
            checkRefs(d.forEach.value(), null);
            body.put("for_each", Render.json(d.forEach.value().expr()));
        }
    }

    private void dependsOn(List<Dependable> deps, Declaration where, TreeMap<String, JsonNode> body) {
        if (deps.isEmpty()) {
            return;
        }
        ArrayNode list = Render.NODES.arrayNode();
        deps.stream().map(d -> (Declaration) d).forEach(d -> {
            foreign(d, where.site());
            list.add(((Dependable) d).address().text());
        });
        body.put("depends_on", list);
    }

    private void provider(Provider p, Site site, TreeMap<String, JsonNode> body) {
        if (p != null) {
            foreign(p, site);
            body.put("provider", Render.NODES.textNode(p.reference()));
        }
    }

    private JsonNode lifecycle(Resource r) {
        Lifecycle l = r.lifecycle;
        TreeMap<String, JsonNode> out = new TreeMap<>();
        if (l.createBeforeDestroy != null) {
            out.put("create_before_destroy", Render.NODES.booleanNode(l.createBeforeDestroy));
        }
        if (l.preventDestroy != null) {
            out.put("prevent_destroy", Render.NODES.booleanNode(l.preventDestroy));
        }
        if (l.ignoreAll) {
            out.put("ignore_changes", Render.NODES.textNode("all"));
        } else if (!l.ignoreChanges.isEmpty()) {
            ArrayNode names = Render.NODES.arrayNode();
            l.ignoreChanges.forEach(names::add);
            out.put("ignore_changes", names);
        }
        if (!l.replaceTriggeredBy.isEmpty()) {
            ArrayNode refs = Render.NODES.arrayNode();
            for (Value v : l.replaceTriggeredBy) {
                // In JSON syntax these are bare references, not templates.
                if (v.expr() instanceof Expr.Ref ref && ref.lineage().origin() instanceof Resource) {
                    checkRefs(v, r);
                    refs.add(ref.lineage().text());
                } else {
                    problem(
                            "Invalid replace_triggered_by expression",
                            "Only resources, count.index, or each.key may " + "be used in replace_triggered_by.",
                            v.site());
                }
            }
            out.put("replace_triggered_by", refs);
        }
        return object(out);
    }

    // ---- checks ----

    /** Every reference in {@code v} must be of this stack, and count/each only inside their own declaration. */
    private void checkRefs(Value v, Declaration where) {
        for (Expr.Ref ref : Exprs.refs(v.expr())) {
            Lineage l = ref.lineage();
            if (l.origin() == null) {
                String var = l.root().identifier();
                if (!Names.isIdentifier(var)) {
                    problem(
                            "Invalid for expression variable",
                            "The name " + Names.quoted(var) + " is not valid for " + "a for expression's variable. "
                                    + BAD_NAME,
                            ref.site());
                }
                continue;
            }
            if (l.stack() != stack) {
                problem(
                        "Value from another stack",
                        "This value refers to " + l.text() + ", which belongs to another "
                                + "stack (" + l.stack()
                                + "). A stack can only refer to its own declarations; pass the value "
                                + "through an output and a variable instead.",
                        ref.site());
                continue;
            }
            String root = l.root().identifier();
            if (root.equals("count") || root.equals("each")) {
                repetitionRef(ref, root, where);
            }
        }
    }

    private void repetitionRef(Expr.Ref ref, String root, Declaration where) {
        Declaration owner = ref.lineage().origin();
        Instanced<?> repeated = switch (owner) {
            case Resource r -> r;
            case DataSource d -> d;
            case ModuleCall m -> m;
            case Variable v -> null;
            case Local l -> null;
            case Output o -> null;
            case Provider p -> null;
        };
        boolean set = repeated != null && (root.equals("count") ? repeated.count != null : repeated.forEach != null);
        if (!set) {
            problem(
                    root.equals("count")
                            ? "Reference to \"count\" in non-counted context"
                            : "Reference to \"each\" in context without for_each",
                    ref.lineage().text() + " belongs to " + owner + " (created at " + owner.site() + "), which has no "
                            + (root.equals("count") ? "\"count\"" : "\"for_each\"") + " argument.",
                    ref.site());
        } else if (owner != where) {
            problem(
                    "Misplaced " + ref.lineage().text(),
                    ref.lineage().text() + " belongs to " + owner + " (created at "
                            + owner.site() + ") but is used "
                            + (where == null ? "outside its arguments" : "in " + where)
                            + ". It only refers to the instance of the declaration it is written in.",
                    ref.site());
        }
    }

    private void foreign(Declaration d, Site usedAt) {
        if (d.stack() != stack) {
            problem(
                    "Value from another stack",
                    d + " belongs to another stack (" + d.stack() + "). A stack can only "
                            + "refer to its own declarations.",
                    usedAt);
        }
    }

    private boolean name(String kind, String name, Site site) {
        if (Names.isIdentifier(name)) {
            return true;
        }
        problem(
                "Invalid " + kind + " name",
                "The " + kind + " name " + Names.quoted(name == null ? "" : name) + " is not valid. " + BAD_NAME,
                site);
        return false;
    }

    private boolean address(Address a) {
        boolean ok = true;
        for (String n : a.names()) {
            ok &= name("address", n, a.site());
        }
        return ok;
    }

    private boolean duplicate(Map<String, Site> seen, String key, Site site, String summary, String detailFormat) {
        Site first = seen.putIfAbsent(key, site);
        if (first == null) {
            return false;
        }
        problem(summary, detailFormat.formatted(first), site);
        return true;
    }

    private void problem(String summary, String detail, Site site) {
        problems.add(new Problem(summary, detail, site));
    }

    // ---- JSON ----

    private static void putIfAny(TreeMap<String, JsonNode> top, String key, JsonNode node) {
        if (node.size() > 0) {
            top.put(key, node);
        }
    }

    private static ObjectNode object(Map<String, ? extends JsonNode> sorted) {
        ObjectNode n = Render.NODES.objectNode();
        new TreeMap<>(sorted).forEach(n::set);
        return n;
    }

    private static JsonNode nested(TreeMap<String, TreeMap<String, JsonNode>> byType) {
        TreeMap<String, JsonNode> out = new TreeMap<>();
        byType.forEach((type, byName) -> out.put(type, object(byName)));
        return object(out);
    }
}
