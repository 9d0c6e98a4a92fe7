package dev.strata.stacks.config;

import dev.strata.addr.Provider;
import dev.strata.config.ConfigLoader;
import dev.strata.config.ModuleConfig;
import dev.strata.config.VariableConfig;
import dev.strata.hcl.Attribute;
import dev.strata.hcl.AttributeSchema;
import dev.strata.hcl.Block;
import dev.strata.hcl.BlockHeaderSchema;
import dev.strata.hcl.BodyContent;
import dev.strata.hcl.BodySchema;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Expression;
import dev.strata.hcl.Result;
import dev.strata.hcl.SourceRange;
import dev.strata.stacks.addr.ProviderConfigAddr;
import dev.strata.stacks.addr.StackPath;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Loads a stack configuration from a directory: its {@code .tfcomponent.hcl}/{@code .json} files
 * (and the deprecated {@code .tfstack} names), every embedded stack it calls and every component's
 * root module (through strata-config). File names in diagnostics are relative to the root stack's
 * directory. Loading reports syntax and structure problems; {@link StackValidator} does the static
 * validation of references and types.
 *
 * <pre>{@code
 * Result<StackConfig> stack = StackLoader.load(dir);
 * Diagnostics problems = stack.diagnostics().with(StackValidator.validate(stack.value()));
 * }</pre>
 */
public final class StackLoader {

    /**
     * Finds the directory of a non-local component or stack source (a registry or remote module),
     * for example where {@code strata stacks init} installed it; null when it is not available, with
     * errors when the resolver knows why (an install that failed), located at {@code range}, the
     * block's {@code source} expression.
     */
    @FunctionalInterface
    public interface SourceResolver {
        Result<Path> resolve(Path fromDir, String source, String version, SourceRange range);
    }

    /**
     * @param remoteSources where non-local sources are found when no enclosing source bundle
     *                      ({@code terraform-sources.json}) holds them; null for none
     */
    public record Options(SourceResolver remoteSources) {
        public static final Options DEFAULT = new Options(null);
    }

    static final BodySchema TOP = new BodySchema(
            List.of(AttributeSchema.optional("language")),
            List.of(
                    BlockHeaderSchema.of("required_providers"),
                    BlockHeaderSchema.of("variable", "name"),
                    BlockHeaderSchema.of("output", "name"),
                    BlockHeaderSchema.of("locals"),
                    BlockHeaderSchema.of("component", "name"),
                    BlockHeaderSchema.of("stack", "name"),
                    BlockHeaderSchema.of("provider", "type", "name"),
                    BlockHeaderSchema.of("removed")));

    private static final BodySchema VARIABLE = new BodySchema(
            List.of(
                    AttributeSchema.required("type"),
                    AttributeSchema.optional("default"),
                    AttributeSchema.optional("description"),
                    AttributeSchema.optional("sensitive"),
                    AttributeSchema.optional("ephemeral"),
                    AttributeSchema.optional("nullable")),
            List.of(BlockHeaderSchema.of("validation")));

    private static final BodySchema VALIDATION = new BodySchema(
            List.of(AttributeSchema.required("condition"), AttributeSchema.required("error_message")), List.of());

    private static final BodySchema OUTPUT = new BodySchema(
            List.of(
                    AttributeSchema.required("type"),
                    AttributeSchema.required("value"),
                    AttributeSchema.optional("description"),
                    AttributeSchema.optional("sensitive"),
                    AttributeSchema.optional("ephemeral")),
            List.of());

    private static final BodySchema COMPONENT = new BodySchema(
            List.of(
                    AttributeSchema.required("source"),
                    AttributeSchema.optional("version"),
                    AttributeSchema.optional("inputs"),
                    AttributeSchema.optional("providers"),
                    AttributeSchema.optional("for_each"),
                    AttributeSchema.optional("depends_on")),
            List.of());

    private static final BodySchema STACK = new BodySchema(
            List.of(
                    AttributeSchema.required("source"),
                    AttributeSchema.optional("version"),
                    AttributeSchema.optional("inputs"),
                    AttributeSchema.optional("for_each"),
                    AttributeSchema.optional("depends_on")),
            List.of());

    private static final BodySchema PROVIDER =
            new BodySchema(List.of(AttributeSchema.optional("for_each")), List.of(BlockHeaderSchema.of("config")));

    private static final BodySchema REMOVED = new BodySchema(
            List.of(
                    AttributeSchema.required("from"),
                    AttributeSchema.required("source"),
                    AttributeSchema.optional("version"),
                    AttributeSchema.optional("providers"),
                    AttributeSchema.optional("inputs"),
                    AttributeSchema.optional("for_each")),
            List.of(BlockHeaderSchema.of("lifecycle")));

    private static final BodySchema REMOVED_LIFECYCLE =
            new BodySchema(List.of(AttributeSchema.required("destroy")), List.of());

    private static final int MAX_DEPTH = 32;

    private final Options options;
    private final Path rootDir;
    private final Optional<SourceBundle> bundle;
    private final Diagnostics.Builder diags = Diagnostics.builder();
    private final Decoding decoding = new Decoding(diags);
    private final Map<String, byte[]> sources = new TreeMap<>();
    private final Map<Path, Optional<ModuleConfig>> modules = new HashMap<>();
    private final List<Path> loading = new ArrayList<>();

    private StackLoader(Path rootDir, Options options) {
        this.rootDir = rootDir.toAbsolutePath().normalize();
        this.options = options;
        this.bundle = SourceBundle.enclosing(this.rootDir);
    }

    /** Loads the stack in {@code dir} with the default options. */
    public static Result<StackConfig> load(Path dir) {
        return load(dir, Options.DEFAULT);
    }

    public static Result<StackConfig> load(Path dir, Options options) {
        StackLoader l = new StackLoader(dir, options);
        if (StackFiles.stackFiles(l.rootDir).isEmpty()) {
            l.diags.error(
                    "No stack configuration files",
                    "The directory " + dir + " contains no .tfcomponent.hcl or .tfcomponent.json files. "
                            + "Run the command in the directory of the Stack, or write its component "
                            + "configuration first.",
                    null);
        }
        StackConfig root = l.stack(l.rootDir, StackPath.ROOT);
        return Result.of(root, distinct(l.diags.build()));
    }

    /**
     * Sorted, each problem once: a stack directory embedded (or removed) at several places is read
     * once per place, but its problems are the same.
     */
    static Diagnostics distinct(Diagnostics ds) {
        java.util.LinkedHashSet<Diagnostic> seen = new java.util.LinkedHashSet<>(ds.asList());
        return Diagnostics.of(new ArrayList<>(seen)).inPlaceOrder();
    }

    private StackConfig stack(Path dir, StackPath path) {
        loading.add(dir);
        List<String> files = new ArrayList<>();
        TreeMap<String, byte[]> mine = new TreeMap<>();
        List<BodyContent> contents = new ArrayList<>();
        boolean deprecated = false;
        for (Path f : StackFiles.stackFiles(dir)) {
            String name = StackFiles.display(rootDir, f);
            byte[] bytes = StackFiles.read(f, name, diags);
            if (bytes == null) {
                continue;
            }
            deprecated |= StackFiles.isDeprecatedStackFile(f.getFileName().toString());
            files.add(name);
            mine.put(name, bytes);
            sources.put(name, bytes);
            BodyContent c = StackFiles.content(bytes, name, TOP, diags);
            if (c != null) {
                contents.add(c);
            }
        }
        if (deprecated) {
            diags.add(Diagnostic.warning(
                    "Deprecated filename usage",
                    "This configuration is using the deprecated .tfstack.hcl or .tfstack.json file extensions. "
                            + "This will not be supported in a future version of Terraform, please update your "
                            + "files to use the latest .tfcomponent.hcl or .tfcomponent.json file extensions.",
                    null));
        }

        String language = null;
        TreeMap<String, StackRequiredProvider> required = new TreeMap<>();
        for (BodyContent c : contents) {
            Attribute lang = c.attributes().get("language");
            if (lang != null) {
                language = languageOf(lang);
            }
            for (Block b : c.blocksOfType("required_providers")) {
                requiredProviders(b, required);
            }
        }
        TreeMap<String, StackVariable> variables = new TreeMap<>();
        TreeMap<String, StackOutput> outputs = new TreeMap<>();
        TreeMap<String, StackLocal> locals = new TreeMap<>();
        TreeMap<String, ComponentConfig> components = new TreeMap<>();
        TreeMap<String, EmbeddedStackConfig> stacks = new TreeMap<>();
        TreeMap<ProviderConfigAddr, ProviderBlock> providers = new TreeMap<>();
        List<RemovedBlock> removed = new ArrayList<>();
        for (BodyContent c : contents) {
            for (Block b : c.blocks()) {
                switch (b.type()) {
                    case "variable" -> variable(b, required, variables);
                    case "output" -> output(b, required, outputs);
                    case "locals" -> locals(b, locals);
                    case "component" -> component(dir, b, components);
                    case "stack" -> embeddedStack(dir, path, b, stacks);
                    case "provider" -> provider(b, required, providers);
                    case "removed" -> removed(dir, path, b, removed);
                    default -> {
                        // required_providers was read above
                    }
                }
            }
        }
        loading.removeLast();
        // what this stack's subtree read, for rendering its diagnostics on its own
        Map<String, byte[]> subtree = new TreeMap<>(mine);
        for (ComponentConfig cc : components.values()) {
            addModuleSources(cc.moduleDir(), subtree);
        }
        for (EmbeddedStackConfig e : stacks.values()) {
            if (e.stack() != null) {
                subtree.putAll(e.stack().sources());
            }
        }
        for (RemovedBlock r : removed) {
            addModuleSources(r.moduleDir(), subtree);
            if (r.stack() != null) {
                subtree.putAll(r.stack().sources());
            }
        }
        StackConfig result = new StackConfig(
                dir,
                path,
                files,
                language,
                required,
                variables,
                outputs,
                locals,
                components,
                stacks,
                providers,
                removed,
                subtree);
        // removed blocks are checked while loading: whether they may be run at all does not depend
        // on anything the runtime evaluates
        new RemovedChecks(result, diags).run();
        return result;
    }

    private void addModuleSources(Path moduleDir, Map<String, byte[]> into) {
        if (moduleDir == null) {
            return;
        }
        String prefix = StackFiles.prefix(rootDir, moduleDir);
        for (Map.Entry<String, byte[]> e : sources.entrySet()) {
            if (e.getKey().startsWith(prefix)
                    && (e.getKey().endsWith(".tf") || e.getKey().endsWith(".tf.json"))) {
                into.put(e.getKey(), e.getValue());
            }
        }
    }

    private String languageOf(Attribute a) {
        Optional<String> kw = a.expr().asKeyword();
        if (kw.isPresent() && kw.get().equals("TFStack2023")) {
            return kw.get();
        }
        diags.error(
                "Invalid language edition",
                "The only supported language edition for Stacks is TFStack2023.",
                a.expr().range());
        return null;
    }

    private void requiredProviders(Block b, Map<String, StackRequiredProvider> into) {
        if (!b.labels().isEmpty()) {
            return;
        }
        Result<Map<String, Attribute>> attrs = b.body().justAttributes();
        diags.addAll(attrs.diagnostics());
        for (Attribute a : new TreeMap<>(attrs.value()).values()) {
            if (into.containsKey(a.name())) {
                diags.error(
                        "Duplicate required provider",
                        "The provider local name \"" + a.name() + "\" is already declared at "
                                + into.get(a.name()).declRange() + ".",
                        a.nameRange());
                continue;
            }
            Optional<List<Expression.KeyValue>> kvs = a.expr().asMap();
            if (kvs.isEmpty()) {
                diags.error(
                        "Invalid required_providers object",
                        "required_providers entries must be objects with a \"source\" attribute and an "
                                + "optional \"version\" attribute.",
                        a.expr().range());
                continue;
            }
            String source = null;
            String version = null;
            SourceRange sourceRange = null;
            for (Expression.KeyValue kv : kvs.get()) {
                String k = Decoding.keyName(kv.key());
                if ("source".equals(k)) {
                    source = decoding.constString(new Attribute(
                            k, kv.value(), kv.value().range(), kv.key().range()));
                    sourceRange = kv.value().range();
                } else if ("version".equals(k)) {
                    version = decoding.constString(new Attribute(
                            k, kv.value(), kv.value().range(), kv.key().range()));
                } else {
                    diags.error(
                            "Invalid required_providers object",
                            "required_providers objects can only contain \"version\" and \"source\" attributes.",
                            kv.key().range());
                }
            }
            Provider provider;
            if (source == null) {
                provider = builtin(a.name());
                if (provider == null) {
                    diags.error(
                            "Missing provider source address",
                            "The required provider \"" + a.name()
                                    + "\" must have a \"source\" attribute, such as \"hashicorp/" + a.name() + "\".",
                            a.expr().range());
                    continue;
                }
            } else {
                provider = parseProvider(source, sourceRange);
                if (provider == null) {
                    continue;
                }
            }
            into.put(a.name(), new StackRequiredProvider(a.name(), provider, version, a.range()));
        }
    }

    /** Built-in providers need no required_providers entry. */
    static Provider builtin(String localName) {
        return localName.equals("terraform") ? Provider.BUILTIN_TERRAFORM : null;
    }

    private Provider parseProvider(String source, SourceRange range) {
        String[] parts = source.toLowerCase(java.util.Locale.ROOT).split("/", -1);
        if (parts.length == 3 && parts[0].equals("terraform.io") && parts[1].equals("builtin")) {
            // stacks accept any built-in provider name; whether it exists is a runtime question
            return new Provider(parts[0], parts[1], parts[2]);
        }
        Result<Provider> p = Provider.parse(source, range);
        diags.addAll(p.diagnostics());
        return p.value();
    }

    static Provider providerFor(Map<String, StackRequiredProvider> required, String localName) {
        StackRequiredProvider rp = required.get(localName);
        return rp != null ? rp.source() : builtin(localName);
    }

    /** The declared type; without one, any type. */
    private StackType type(Attribute typeAttr, Map<String, StackRequiredProvider> required) {
        return typeAttr == null
                ? new StackType.Value(dev.strata.lang.value.TypeConstraint.of(dev.strata.lang.types.Type.DYNAMIC))
                : decoding.type(typeAttr, n -> providerFor(required, n));
    }

    /** The content of a block named by its first label, or null when the name is not valid. */
    private BodyContent named(Block b, String kind, BodySchema schema) {
        if (!decoding.validName(b.labels().getFirst(), kind, b.labelRanges().getFirst())) {
            return null;
        }
        Result<BodyContent> r = b.body().content(schema);
        diags.addAll(r.diagnostics());
        return r.value();
    }

    private void variable(Block b, Map<String, StackRequiredProvider> required, Map<String, StackVariable> into) {
        String name = b.labels().getFirst();
        BodyContent c = named(b, "variable", VARIABLE);
        if (c == null) {
            return;
        }
        Attribute typeAttr = c.attributes().get("type");
        StackType type = type(typeAttr, required);
        List<ValidationRule> rules = new ArrayList<>();
        for (Block v : c.blocksOfType("validation")) {
            Result<BodyContent> vr = v.body().content(VALIDATION);
            diags.addAll(vr.diagnostics());
            Attribute cond = vr.value().attributes().get("condition");
            Attribute msg = vr.value().attributes().get("error_message");
            if (cond != null && msg != null) {
                rules.add(new ValidationRule(cond.expr(), msg.expr(), v.defRange()));
            }
        }
        Attribute dflt = c.attributes().get("default");
        StackVariable v = new StackVariable(
                name,
                type,
                typeAttr == null ? null : typeAttr.expr(),
                dflt == null ? null : dflt.expr(),
                decoding.constString(c.attributes().get("description")),
                decoding.constBool(c.attributes().get("sensitive"), false),
                decoding.constBool(c.attributes().get("ephemeral"), false),
                decoding.constBool(c.attributes().get("nullable"), true),
                rules,
                b.defRange());
        StackVariable prev = into.putIfAbsent(name, v);
        if (prev != null) {
            diags.error(
                    "Duplicate input variable declaration",
                    "An input variable named \"" + name + "\" was already declared at " + prev.declRange() + ".",
                    b.defRange());
        }
    }

    private void output(Block b, Map<String, StackRequiredProvider> required, Map<String, StackOutput> into) {
        String name = b.labels().getFirst();
        BodyContent c = named(b, "output", OUTPUT);
        if (c == null) {
            return;
        }
        Attribute typeAttr = c.attributes().get("type");
        StackType type = type(typeAttr, required);
        Attribute value = c.attributes().get("value");
        StackOutput o = new StackOutput(
                name,
                type,
                value == null ? null : value.expr(),
                decoding.constString(c.attributes().get("description")),
                decoding.constBool(c.attributes().get("sensitive"), false),
                decoding.constBool(c.attributes().get("ephemeral"), false),
                b.defRange());
        StackOutput prev = into.putIfAbsent(name, o);
        if (prev != null) {
            diags.error(
                    "Duplicate output value declaration",
                    "An output value named \"" + name + "\" was already declared at " + prev.declRange() + ".",
                    b.defRange());
        }
    }

    private void locals(Block b, Map<String, StackLocal> into) {
        locals(b, into, diags, decoding);
    }

    static void locals(Block b, Map<String, StackLocal> into, Diagnostics.Builder diags, Decoding decoding) {
        Result<Map<String, Attribute>> attrs = b.body().justAttributes();
        diags.addAll(attrs.diagnostics());
        for (Attribute a : new TreeMap<>(attrs.value())
                .values().stream()
                        .sorted(java.util.Comparator.comparing(Attribute::range))
                        .toList()) {
            if (!decoding.validName(a.name(), "local value", a.nameRange())) {
                continue;
            }
            StackLocal prev = into.putIfAbsent(a.name(), new StackLocal(a.name(), a.expr(), a.range()));
            if (prev != null) {
                diags.error(
                        "Duplicate local value definition",
                        "A local value named \"" + a.name() + "\" was already defined at " + prev.declRange()
                                + ". Local value names must be unique within a stack.",
                        a.nameRange());
            }
        }
    }

    private void component(Path dir, Block b, Map<String, ComponentConfig> into) {
        String name = b.labels().getFirst();
        ComponentConfig prev = into.get(name);
        BodyContent c = namedContent(
                b, COMPONENT, "component", prev == null ? null : prev.declRange(), "Duplicate component declaration");
        if (c == null) {
            return;
        }
        Source src = source(c);
        Path moduleDir = src.text() == null ? null : resolve(dir, src, "component");
        ModuleConfig module = moduleDir == null ? null : module(moduleDir);
        Attribute providers = c.attributes().get("providers");
        into.put(
                name,
                new ComponentConfig(
                        name,
                        src.text(),
                        src.range(b),
                        src.versionExpr(),
                        exprOf(c, "inputs"),
                        providers == null ? null : providers.expr(),
                        decoding.providerArgs(providers),
                        exprOf(c, "for_each"),
                        decoding.traversalList(c.attributes().get("depends_on")),
                        moduleDir,
                        module,
                        b.defRange()));
    }

    private void embeddedStack(Path dir, StackPath path, Block b, Map<String, EmbeddedStackConfig> into) {
        String name = b.labels().getFirst();
        EmbeddedStackConfig prev = into.get(name);
        BodyContent c = namedContent(
                b, STACK, "stack", prev == null ? null : prev.declRange(), "Duplicate embedded stack call");
        if (c == null) {
            return;
        }
        Source src = source(c);
        StackConfig child = src.text() == null ? null : childStack(dir, path.child(name), src);
        into.put(
                name,
                new EmbeddedStackConfig(
                        name,
                        src.text(),
                        src.range(b),
                        src.versionExpr(),
                        exprOf(c, "inputs"),
                        exprOf(c, "for_each"),
                        decoding.traversalList(c.attributes().get("depends_on")),
                        child,
                        b.defRange()));
    }

    /**
     * The content of a {@code component} or {@code stack} block, or null when its name is not valid or was
     * declared before at {@code declared} (then with the error saying where).
     */
    private BodyContent namedContent(Block b, BodySchema schema, String kind, SourceRange declared, String duplicate) {
        BodyContent c = named(b, kind, schema);
        if (c == null) {
            return null;
        }
        if (declared != null) {
            String noun = kind.equals("stack") ? "An embedded stack" : "A " + kind;
            diags.error(
                    duplicate,
                    noun + " named \"" + b.labels().getFirst() + "\" was already declared at " + declared + ".",
                    b.defRange());
            return null;
        }
        return c;
    }

    /** The {@code source} and {@code version} of a block that calls a module or stack. */
    private record Source(Attribute attr, String text, Attribute version, String versionText) {
        /** Where diagnostics about the source point: its expression, or the block when it has none. */
        SourceRange range(Block b) {
            return attr == null ? b.defRange() : attr.expr().range();
        }

        Expression versionExpr() {
            return version == null ? null : version.expr();
        }
    }

    private Source source(BodyContent c) {
        Attribute src = c.attributes().get("source");
        String text = decoding.constString(src);
        Attribute version = c.attributes().get("version");
        return new Source(src, text, version, version == null ? null : decoding.constString(version));
    }

    private StackConfig childStack(Path dir, StackPath path, Source src) {
        SourceRange range = src.attr().expr().range();
        Path childDir = resolve(dir, src, "stack");
        if (childDir == null) {
            return null;
        }
        if (loading.contains(childDir)) {
            diags.error(
                    "Embedded stack cycle",
                    "The embedded stack source " + StackFiles.display(rootDir, childDir)
                            + " is already being loaded by a stack that calls this one. A stack cannot embed "
                            + "itself, directly or indirectly.",
                    range);
            return null;
        }
        if (loading.size() >= MAX_DEPTH) {
            diags.error(
                    "Embedded stacks too deep",
                    "Stacks are embedded more than " + MAX_DEPTH
                            + " levels deep here, which suggests a mistake in the stack sources.",
                    range);
            return null;
        }
        if (StackFiles.stackFiles(childDir).isEmpty()) {
            diags.error(
                    "Invalid embedded stack source",
                    "The directory " + StackFiles.display(rootDir, childDir)
                            + " contains no .tfcomponent.hcl or .tfcomponent.json files.",
                    range);
            return null;
        }
        return stack(childDir, path);
    }

    private void provider(
            Block b, Map<String, StackRequiredProvider> required, Map<ProviderConfigAddr, ProviderBlock> into) {
        String type = b.labels().get(0);
        String name = b.labels().get(1);
        if (!decoding.validName(name, "provider configuration", b.labelRanges().get(1))) {
            return;
        }
        Result<BodyContent> r = b.body().content(PROVIDER);
        diags.addAll(r.diagnostics());
        BodyContent c = r.value();
        ProviderConfigAddr addr = new ProviderConfigAddr(type, name);
        if (into.containsKey(addr)) {
            diags.error(
                    "Duplicate provider configuration",
                    "A provider configuration named \"" + type + "\" \"" + name + "\" was already declared at "
                            + into.get(addr).declRange() + ".",
                    b.defRange());
            return;
        }
        Provider provider = providerFor(required, type);
        if (provider == null) {
            diags.error(
                    "Provider type not declared",
                    "This stack's required_providers has no entry for the local name \"" + type
                            + "\". Add one with the provider's source address, such as source = \"hashicorp/" + type
                            + "\".",
                    b.labelRanges().getFirst());
        }
        List<Block> configs = c.blocksOfType("config");
        if (configs.size() > 1) {
            diags.error(
                    "Duplicate config block",
                    "A provider block may contain only one config block; the first is at "
                            + configs.getFirst().defRange() + ".",
                    configs.get(1).defRange());
        }
        Block config = configs.isEmpty() ? null : configs.getFirst();
        into.put(
                addr,
                new ProviderBlock(
                        addr,
                        provider,
                        exprOf(c, "for_each"),
                        config == null ? null : config.body(),
                        config == null ? null : config.range(),
                        b.defRange()));
    }

    private void removed(Path dir, StackPath path, Block b, List<RemovedBlock> into) {
        Result<BodyContent> r = b.body().content(REMOVED);
        diags.addAll(r.diagnostics());
        BodyContent c = r.value();
        Attribute fromAttr = c.attributes().get("from");
        if (fromAttr == null) {
            return;
        }
        RemovedTarget from = RemovedTargets.parse(fromAttr.expr(), diags);
        if (from == null) {
            return;
        }
        boolean destroy = true;
        for (Block lc : c.blocksOfType("lifecycle")) {
            Result<BodyContent> lr = lc.body().content(REMOVED_LIFECYCLE);
            diags.addAll(lr.diagnostics());
            destroy = decoding.constBool(lr.value().attributes().get("destroy"), true);
        }
        Source src = source(c);
        Path moduleDir = null;
        ModuleConfig module = null;
        StackConfig stack = null;
        if (src.text() != null) {
            if (from.targetsStack()) {
                List<String> names = new ArrayList<>(path.names());
                from.stacks().forEach(s -> names.add(s.name()));
                Path stackDir = resolve(dir, src, "stack");
                // a removed stack whose source is a stack being loaded (its caller) is read when
                // the runtime needs it, not here, where it would recurse
                if (stackDir != null && !loading.contains(stackDir)) {
                    stack = childStack(dir, new StackPath(names), src);
                }
            } else {
                moduleDir = resolve(dir, src, "component");
                module = moduleDir == null ? null : module(moduleDir);
            }
        }
        Attribute providers = c.attributes().get("providers");
        into.add(new RemovedBlock(
                from,
                fromAttr.expr(),
                exprOf(c, "for_each"),
                src.text(),
                src.range(b),
                src.versionExpr(),
                providers == null ? null : providers.expr(),
                decoding.providerArgs(providers),
                destroy,
                moduleDir,
                module,
                stack,
                b.defRange(),
                exprOf(c, "inputs")));
    }

    private static Expression exprOf(BodyContent c, String name) {
        Attribute a = c.attributes().get(name);
        return a == null ? null : a.expr();
    }

    static boolean isLocalSource(String source) {
        return source.startsWith("./")
                || source.startsWith("../")
                || source.equals(".")
                || source.equals("..")
                || source.startsWith(".\\")
                || source.startsWith("..\\");
    }

    /** The directory of a block's {@code source} (which it has). */
    private Path resolve(Path fromDir, Source src, String what) {
        return resolve(
                fromDir, src.text(), src.versionText(), what, src.attr().expr().range());
    }

    /** The directory a source means: local paths relative to the calling stack, others through the bundle. */
    private Path resolve(Path fromDir, String source, String version, String what, SourceRange range) {
        if (isLocalSource(source)) {
            Path d = fromDir.resolve(source.replace('\\', '/')).toAbsolutePath().normalize();
            if (!Files.isDirectory(d)) {
                diags.error(
                        "Invalid " + what + " source",
                        "The directory " + StackFiles.display(rootDir, d) + " does not exist or cannot be read.",
                        range);
                return null;
            }
            return d;
        }
        Optional<Path> found = bundle.flatMap(b -> b.locate(source, version));
        if (found.isEmpty() && options.remoteSources() != null) {
            Result<Path> resolved = options.remoteSources().resolve(fromDir, source, version, range);
            diags.addAll(resolved.diagnostics());
            if (resolved.hasErrors()) {
                // The resolver said why (an install that failed): "not installed" would only repeat it.
                return null;
            }
            found = Optional.ofNullable(resolved.value());
        }
        if (found.isEmpty()) {
            diags.error(
                    "Source not installed",
                    "The " + what + " source \"" + source + "\""
                            + (version == null ? "" : " (version \"" + version + "\")")
                            + " is not available locally. Run \"strata stacks init\" to install it, or use a "
                            + "local path starting with \"./\" or \"../\".",
                    range);
            return null;
        }
        return found.get().toAbsolutePath().normalize();
    }

    /** A component's root module, read once per directory; its diagnostics are reported once. */
    private ModuleConfig module(Path dir) {
        Optional<ModuleConfig> cached = modules.get(dir);
        if (cached != null) {
            return cached.orElse(null);
        }
        String prefix = StackFiles.prefix(rootDir, dir);
        for (Path f : moduleFiles(dir)) {
            try {
                sources.put(prefix + f.getFileName(), Files.readAllBytes(f));
            } catch (IOException e) {
                // ConfigLoader reports the unreadable file with its reason
            }
        }
        Result<ModuleConfig> m = ConfigLoader.loadModule(dir, ConfigLoader.Options.DEFAULT);
        Diagnostics ds = ConstVariables.rewrite(m.diagnostics(), m.value());
        diags.addAll(StackFiles.relocate(ds, prefix));
        modules.put(dir, Optional.ofNullable(m.value()));
        return m.value();
    }

    private static List<Path> moduleFiles(Path dir) {
        try (var s = Files.list(dir)) {
            return s.filter(Files::isRegularFile)
                    .filter(p -> {
                        String n = p.getFileName().toString();
                        return (n.endsWith(".tf") || n.endsWith(".tf.json")) && !n.startsWith(".");
                    })
                    .sorted()
                    .toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    /**
     * Terraform 1.14's {@code const} variables are evaluated while loading, which a component's module
     * cannot do: the module decoder's "Unsupported argument" for {@code const} becomes the Stacks
     * error at the variable.
     */
    static final class ConstVariables {
        private ConstVariables() {}

        static Diagnostics rewrite(Diagnostics ds, ModuleConfig m) {
            Diagnostics.Builder out = Diagnostics.builder();
            LinkedHashMap<String, SourceRange> reported = new LinkedHashMap<>();
            for (Diagnostic d : ds) {
                if (m != null
                        && d.summary().equals("Unsupported argument")
                        && d.detail().startsWith("An argument named \"const\" is not expected here.")
                        && d.subject() != null) {
                    VariableConfig v = enclosing(m, d.subject());
                    if (v != null && !reported.containsKey(v.name())) {
                        reported.put(v.name(), v.declRange());
                        out.add(Diagnostic.error(
                                "Const variable not supported in stacks",
                                "Variables with const = true are not supported in modules used as stack "
                                        + "components. Const variables are evaluated during configuration loading, "
                                        + "which is not supported in the stacks runtime.",
                                v.declRange()));
                        continue;
                    }
                }
                out.add(d);
            }
            return out.build();
        }

        private static VariableConfig enclosing(ModuleConfig m, SourceRange at) {
            VariableConfig best = null;
            for (VariableConfig v : m.variables().values()) {
                SourceRange r = v.declRange();
                if (r.filename().equals(at.filename())
                        && r.start().byteOffset() <= at.start().byteOffset()
                        && (best == null
                                || r.start().byteOffset()
                                        > best.declRange().start().byteOffset())) {
                    best = v;
                }
            }
            return best;
        }
    }
}
