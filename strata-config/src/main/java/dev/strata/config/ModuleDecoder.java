package dev.strata.config;

import dev.strata.addr.Addrs;
import dev.strata.addr.LocalProviderConfig;
import dev.strata.addr.Provider;
import dev.strata.addr.Resource;
import dev.strata.addr.ResourceMode;
import dev.strata.addr.Targetable;
import dev.strata.addr.VersionConstraint;
import dev.strata.hcl.Attribute;
import dev.strata.hcl.AttributeSchema;
import dev.strata.hcl.Block;
import dev.strata.hcl.BlockHeaderSchema;
import dev.strata.hcl.Body;
import dev.strata.hcl.BodyContent;
import dev.strata.hcl.BodySchema;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Expression;
import dev.strata.hcl.HclFile;
import dev.strata.hcl.Result;
import dev.strata.hcl.SourceRange;
import dev.strata.hcl.Traversal;
import dev.strata.hcl.Traverser;
import dev.strata.hcl.syntax.Expr;
import dev.strata.hcl.syntax.NativeSyntax;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.ConversionResult;
import dev.strata.lang.value.TypeConstraint;
import dev.strata.lang.value.Value;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Decodes one module's parsed files into a {@link ModuleConfig}: top-level blocks against their
 * schemas, override files merged into the primary files' blocks, duplicate declarations reported at
 * the second declaration with the first one's location.
 */
final class ModuleDecoder {
    private static final Pattern IDENT = Pattern.compile("[A-Za-z_][A-Za-z0-9_-]*");

    static final BodySchema TOP = new BodySchema(
            List.of(),
            List.of(
                    BlockHeaderSchema.of("terraform"),
                    BlockHeaderSchema.of("provider", "name"),
                    BlockHeaderSchema.of("variable", "name"),
                    BlockHeaderSchema.of("locals"),
                    BlockHeaderSchema.of("output", "name"),
                    BlockHeaderSchema.of("module", "name"),
                    BlockHeaderSchema.of("resource", "type", "name"),
                    BlockHeaderSchema.of("data", "type", "name"),
                    BlockHeaderSchema.of("ephemeral", "type", "name"),
                    BlockHeaderSchema.of("moved"),
                    BlockHeaderSchema.of("import"),
                    BlockHeaderSchema.of("removed"),
                    BlockHeaderSchema.of("check", "name"),
                    BlockHeaderSchema.of("action", "type", "name")));

    private static final BodySchema TERRAFORM = new BodySchema(
            List.of(
                    AttributeSchema.optional("required_version"),
                    AttributeSchema.optional("experiments"),
                    AttributeSchema.optional("language")),
            List.of(
                    BlockHeaderSchema.of("required_providers"),
                    BlockHeaderSchema.of("backend", "type"),
                    BlockHeaderSchema.of("cloud"),
                    BlockHeaderSchema.of("encryption"),
                    BlockHeaderSchema.of("provider_meta", "provider")));

    private static final BodySchema VARIABLE = new BodySchema(
            List.of(
                    AttributeSchema.optional("description"), AttributeSchema.optional("default"),
                    AttributeSchema.optional("type"), AttributeSchema.optional("sensitive"),
                    AttributeSchema.optional("nullable"), AttributeSchema.optional("ephemeral")),
            List.of(BlockHeaderSchema.of("validation")));

    private static final BodySchema RULE = new BodySchema(
            List.of(AttributeSchema.required("condition"), AttributeSchema.required("error_message")), List.of());

    private static final BodySchema OUTPUT = new BodySchema(
            List.of(
                    AttributeSchema.required("value"),
                    AttributeSchema.optional("description"),
                    AttributeSchema.optional("sensitive"),
                    AttributeSchema.optional("ephemeral"),
                    AttributeSchema.optional("depends_on")),
            List.of(BlockHeaderSchema.of("precondition")));

    private static final BodySchema RESOURCE = new BodySchema(
            List.of(
                    AttributeSchema.optional("count"), AttributeSchema.optional("for_each"),
                    AttributeSchema.optional("provider"), AttributeSchema.optional("depends_on")),
            List.of(
                    BlockHeaderSchema.of("lifecycle"), BlockHeaderSchema.of("connection"),
                    BlockHeaderSchema.of("provisioner", "type"), BlockHeaderSchema.of("_")));

    private static final BodySchema LIFECYCLE = new BodySchema(
            List.of(
                    AttributeSchema.optional("create_before_destroy"), AttributeSchema.optional("prevent_destroy"),
                    AttributeSchema.optional("ignore_changes"), AttributeSchema.optional("replace_triggered_by")),
            List.of(
                    BlockHeaderSchema.of("precondition"),
                    BlockHeaderSchema.of("postcondition"),
                    BlockHeaderSchema.of("action_trigger")));

    // Provisioner and connection blocks are not meta-arguments here: they stay in the body, for the
    // provider's schema to refuse.
    private static final BodySchema EPHEMERAL = new BodySchema(
            RESOURCE.attributes(), List.of(BlockHeaderSchema.of("lifecycle"), BlockHeaderSchema.of("_")));

    private static final BodySchema DATA_LIFECYCLE = new BodySchema(
            List.of(), List.of(BlockHeaderSchema.of("precondition"), BlockHeaderSchema.of("postcondition")));

    private static final BodySchema MODULE = new BodySchema(
            List.of(
                    AttributeSchema.required("source"), AttributeSchema.optional("version"),
                    AttributeSchema.optional("count"), AttributeSchema.optional("for_each"),
                    AttributeSchema.optional("providers"), AttributeSchema.optional("depends_on")),
            List.of(
                    BlockHeaderSchema.of("lifecycle"),
                    BlockHeaderSchema.of("locals"),
                    BlockHeaderSchema.of("provider")));

    private static final BodySchema PROVIDER = new BodySchema(
            List.of(
                    AttributeSchema.optional("alias"),
                    AttributeSchema.optional("version"),
                    AttributeSchema.optional("for_each")),
            List.of());

    private static final BodySchema EMPTY = new BodySchema(List.of(), List.of());

    private static final BodySchema MOVED =
            new BodySchema(List.of(AttributeSchema.required("from"), AttributeSchema.required("to")), List.of());

    private static final BodySchema IMPORT = new BodySchema(
            List.of(
                    AttributeSchema.required("to"),
                    AttributeSchema.required("id"),
                    AttributeSchema.optional("for_each"),
                    AttributeSchema.optional("provider")),
            List.of());

    private static final BodySchema REMOVED = new BodySchema(
            List.of(AttributeSchema.required("from")),
            List.of(
                    BlockHeaderSchema.of("lifecycle"),
                    BlockHeaderSchema.of("provisioner", "type"),
                    BlockHeaderSchema.of("connection")));

    private static final BodySchema REMOVED_LIFECYCLE =
            new BodySchema(List.of(AttributeSchema.required("destroy")), List.of());

    private static final BodySchema CHECK = new BodySchema(
            List.of(), List.of(BlockHeaderSchema.of("data", "type", "name"), BlockHeaderSchema.of("assert")));

    private final Diagnostics.Builder diags = Diagnostics.builder();

    /** A parsed file and whether it is an override file. */
    record SourceFile(HclFile file, boolean override) {}

    static boolean isOverrideFile(String name) {
        String stem =
                name.endsWith(".tf.json") ? name.substring(0, name.length() - 8) : name.substring(0, name.length() - 3);
        return stem.equals("override") || stem.endsWith("_override");
    }

    Result<ModuleConfig> decode(Path dir, List<SourceFile> files) {
        List<Block> primary = new ArrayList<>();
        List<Block> overrides = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (SourceFile f : files) {
            names.add(f.file().filename());
            Result<BodyContent> c = f.file().body().content(TOP);
            diags.addAll(c.diagnostics());
            (f.override() ? overrides : primary).addAll(c.value().blocks());
        }
        List<Block> merged = applyOverrides(primary, overrides);

        Builder b = new Builder();
        ActionDecoder actions = new ActionDecoder(diags, this::providerRef);
        for (Block blk : merged) {
            switch (blk.type()) {
                case "terraform" -> terraform(blk, b, false);
                case "provider" -> provider(blk, b);
                case "variable" -> variable(blk, b);
                case "locals" -> locals(blk, b);
                case "output" -> output(blk, b);
                case "module" -> module(blk, b);
                case "resource" -> resource(blk, ResourceMode.MANAGED, b.resources, true);
                case "data" -> resource(blk, ResourceMode.DATA, b.resources, true);
                case "ephemeral" -> resource(blk, ResourceMode.EPHEMERAL, b.resources, true);
                case "moved" -> moved(blk, b);
                case "import" -> importBlock(blk, b);
                case "removed" -> removed(blk, b);
                case "check" -> check(blk, b);
                case "action" -> actions.declare(blk, b.actions);
                default -> throw new IllegalStateException("block type outside the schema: " + blk.type());
            }
        }
        // Override files' terraform and locals blocks merge item by item, after the primary ones.
        for (Block blk : overrides) {
            if (blk.type().equals("terraform")) {
                terraform(blk, b, true);
            } else if (blk.type().equals("locals")) {
                overrideLocals(blk, b);
            }
        }
        actions.checkTriggers(b.resources.values(), b.actions);
        ModuleConfig m = new ModuleConfig(
                dir,
                names,
                b.requiredVersions,
                b.requiredProviders,
                b.backend,
                b.providers,
                b.variables,
                b.locals,
                b.outputs,
                b.resources,
                b.modules,
                b.moved,
                b.imports,
                b.removed,
                b.checks,
                b.encryption,
                b.providerMetas,
                b.actions);
        return Result.of(m, diags.build());
    }

    private static final class Builder {
        List<VersionConstraint> requiredVersions = new ArrayList<>();
        TreeMap<String, RequiredProvider> requiredProviders = new TreeMap<>();
        Backend backend;
        EncryptionConfig encryption;
        TreeMap<String, ProviderMetaConfig> providerMetas = new TreeMap<>();
        TreeMap<LocalProviderConfig, ProviderConfig> providers = new TreeMap<>();
        TreeMap<String, VariableConfig> variables = new TreeMap<>();
        TreeMap<String, LocalConfig> locals = new TreeMap<>();
        TreeMap<String, OutputConfig> outputs = new TreeMap<>();
        TreeMap<Resource, ResourceConfig> resources = new TreeMap<>();
        TreeMap<String, ModuleCallConfig> modules = new TreeMap<>();
        List<MovedConfig> moved = new ArrayList<>();
        List<ImportConfig> imports = new ArrayList<>();
        List<RemovedConfig> removed = new ArrayList<>();
        TreeMap<String, CheckConfig> checks = new TreeMap<>();
        TreeMap<String, ActionConfig> actions = new TreeMap<>();
    }

    // ---- overrides -----------------------------------------------------------------------------

    private List<Block> applyOverrides(List<Block> primary, List<Block> overrides) {
        List<Block> out = new ArrayList<>(primary);
        for (Block ov : overrides) {
            switch (ov.type()) {
                case "terraform", "locals" -> {
                    continue;
                }
                case "moved" -> {
                    diags.error(
                            "Cannot override 'moved' blocks",
                            "Records of moved objects can appear only in " + "normal files, not in override files.",
                            ov.defRange());
                    continue;
                }
                case "import" -> {
                    diags.error(
                            "Cannot override 'import' blocks",
                            "Import blocks can appear only in normal files, " + "not in override files.",
                            ov.defRange());
                    continue;
                }
                case "check" -> {
                    diags.error(
                            "Can't override check blocks",
                            "Override files cannot override check blocks.",
                            ov.defRange());
                    continue;
                }
                case "removed" -> {
                    // Terraform accepts removed blocks in override files; they are records like any other.
                    out.add(ov);
                    continue;
                }
                default -> checkOverride(ov);
            }
            int idx = -1;
            for (int i = 0; i < out.size(); i++) {
                Block base = out.get(i);
                if (base.type().equals(ov.type()) && base.labels().equals(ov.labels())) {
                    idx = i;
                    break;
                }
            }
            if (ov.type().equals("provider")) {
                idx = findProvider(out, ov);
            }
            if (idx < 0) {
                diags.add(missingBase(ov));
                continue;
            }
            Block base = out.get(idx);
            boolean resource = ov.type().equals("resource")
                    || ov.type().equals("data")
                    || ov.type().equals("ephemeral");
            MergedBody merged = new MergedBody(
                    base.body(), ov.body(), resource ? Set.of("lifecycle") : Set.of(), true, ov.defRange());
            out.set(
                    idx,
                    new Block(
                            base.type(),
                            base.labels(),
                            merged,
                            base.typeRange(),
                            base.labelRanges(),
                            base.defRange(),
                            base.range()));
        }
        return out;
    }

    private static final BodySchema OVERRIDE_PROBE = new BodySchema(
            List.of(AttributeSchema.optional("depends_on")),
            List.of(
                    BlockHeaderSchema.of("lifecycle"),
                    BlockHeaderSchema.of("precondition"),
                    BlockHeaderSchema.of("validation")));

    private static final BodySchema CONDITIONS = new BodySchema(
            List.of(), List.of(BlockHeaderSchema.of("precondition"), BlockHeaderSchema.of("postcondition")));

    /**
     * What an override block may not change, as Terraform reports it: {@code depends_on} (resources,
     * data sources, outputs, module calls), conditions ({@code precondition}/{@code postcondition},
     * also inside {@code lifecycle}) and variable {@code validation} blocks.
     */
    private void checkOverride(Block ov) {
        Result<Body.PartialContent> r = ov.body().partialContent(OVERRIDE_PROBE);
        BodyContent c = r.value().content();
        Attribute deps = c.attributes().get("depends_on");
        if (deps != null && List.of("resource", "data", "output", "module").contains(ov.type())) {
            List<Expression> items = deps.expr().asList().orElse(List.of());
            if (!items.isEmpty()) {
                diags.error(
                        "Unsupported override",
                        "The depends_on argument may not be overridden.",
                        items.getFirst().range());
            }
        }
        List<Block> conditions = new ArrayList<>();
        switch (ov.type()) {
            case "resource", "data" -> {
                for (Block lc : c.blocksOfType("lifecycle")) {
                    conditions.addAll(lc.body()
                            .partialContent(CONDITIONS)
                            .value()
                            .content()
                            .blocks());
                }
            }
            case "output" -> conditions.addAll(c.blocksOfType("precondition"));
            case "variable" -> conditions.addAll(c.blocksOfType("validation"));
            default -> {}
        }
        for (Block b : conditions) {
            diags.error(
                    "Can't override " + b.type() + " blocks",
                    "Override files cannot override \"" + b.type() + "\" blocks.",
                    b.defRange());
        }
    }

    /** Provider blocks match by name and alias, so the alias must be read before decoding. */
    private int findProvider(List<Block> blocks, Block ov) {
        String alias = aliasOf(ov);
        for (int i = 0; i < blocks.size(); i++) {
            Block b = blocks.get(i);
            if (b.type().equals("provider")
                    && b.labels().equals(ov.labels())
                    && java.util.Objects.equals(aliasOf(b), alias)) {
                return i;
            }
        }
        return -1;
    }

    private static String aliasOf(Block b) {
        Result<Body.PartialContent> c = b.body().partialContent(PROVIDER);
        Attribute a = c.value().content().attributes().get("alias");
        if (a == null) {
            return null;
        }
        return a.expr().asKeyword().orElseGet(() -> {
            Result<Value> v = Constants.evaluate(a.expr());
            return !v.hasErrors() && v.value().isKnownAndNotNull() && v.value().type() == Type.STRING
                    ? v.value().asString()
                    : null;
        });
    }

    private static Diagnostic missingBase(Block ov) {
        String name = String.join(".", ov.labels());
        String[] what = switch (ov.type()) {
            case "variable" ->
                new String[] {
                    "Missing base variable declaration to override",
                    "There is no variable named \"" + name + "\". An override file can only override a variable "
                            + "that was already declared in a primary configuration file."
                };
            case "output" ->
                new String[] {
                    "Missing base output definition to override",
                    "There is no output named \"" + name + "\". An override file can only override an output that "
                            + "was already defined in a primary configuration file."
                };
            case "module" ->
                new String[] {
                    "Missing module call to override",
                    "There is no module call named \"" + name + "\". An override file can only override a module "
                            + "call that was defined in a primary configuration file."
                };
            case "resource" ->
                new String[] {
                    "Missing resource to override",
                    "There is no " + ov.labels().getFirst() + " resource named \""
                            + ov.labels().getLast() + "\". An "
                            + "override file can only override a resource block defined in a primary configuration "
                            + "file."
                };
            case "data" ->
                new String[] {
                    "Missing data resource to override",
                    "There is no " + ov.labels().getFirst() + " data resource named \""
                            + ov.labels().getLast()
                            + "\". An override file can only override a data block defined in a primary "
                            + "configuration file."
                };
            case "provider" ->
                new String[] {
                    "Missing base provider configuration for override",
                    "There is no " + name + " provider configuration with the alias \"" + aliasOf(ov) + "\". An "
                            + "override file can only override an aliased provider configuration that was already "
                            + "defined in a primary configuration file."
                };
            default ->
                new String[] {
                    "Unsupported override",
                    "Blocks of type \"" + ov.type() + "\" cannot be overridden; move it to a primary configuration "
                            + "file instead."
                };
        };
        return Diagnostic.error(what[0], what[1], ov.defRange());
    }

    // ---- terraform -----------------------------------------------------------------------------

    private void terraform(Block blk, Builder b, boolean override) {
        Result<BodyContent> r = blk.body().content(TERRAFORM);
        diags.addAll(r.diagnostics());
        BodyContent c = r.value();
        Attribute rv = c.attributes().get("required_version");
        if (rv != null) {
            String s = constString(rv);
            if (s != null) {
                Result<VersionConstraint> vc =
                        VersionConstraint.parse(s, rv.expr().range());
                diags.addAll(vc.diagnostics());
                if (vc.value() != null) {
                    if (override) {
                        b.requiredVersions.clear();
                    }
                    b.requiredVersions.add(vc.value());
                }
            }
        }
        Attribute exp = c.attributes().get("experiments");
        if (exp != null) {
            diags.add(Diagnostic.error(
                    "Experiments are not supported",
                    "Strata does not implement Terraform's language experiments. Remove the \"experiments\" "
                            + "argument; the features it enables are not available.",
                    exp.nameRange()));
        }
        Attribute lang = c.attributes().get("language");
        if (lang != null) {
            diags.add(Diagnostic.error(
                    "Unsupported argument",
                    "An argument named \"language\" is not expected "
                            + "here: Terraform reserves it for a future language edition.",
                    lang.nameRange()));
        }
        for (Block inner : c.blocks()) {
            switch (inner.type()) {
                case "required_providers" -> requiredProviders(inner, b);
                case "backend" -> {
                    if (b.backend != null && !override) {
                        diags.add(Diagnostic.error(
                                "Duplicate backend configuration",
                                "A module may have only one "
                                        + "backend configuration. The backend was previously configured at "
                                        + b.backend.declRange() + ".",
                                inner.defRange()));
                    } else {
                        b.backend = new Backend(inner.labels().getFirst(), inner.body(), inner.defRange());
                    }
                }
                case "cloud" ->
                    diags.add(Diagnostic.error(
                            "HCP Terraform is not supported",
                            "Strata cannot use HCP Terraform or Terraform Enterprise (the \"cloud\" block). Use a "
                                    + "\"backend\" block instead, or remove this block.",
                            inner.defRange()));
                case "encryption" -> {
                    if (b.encryption != null && !override) {
                        diags.add(Diagnostic.error(
                                "Duplicate encryption configuration",
                                "A module may have only one " + "encryption block. It was previously configured at "
                                        + b.encryption.declRange() + ".",
                                inner.defRange()));
                    } else {
                        b.encryption = new EncryptionConfig(inner.body(), inner.defRange());
                    }
                }
                case "provider_meta" -> {
                    String name = inner.labels().getFirst();
                    ProviderMetaConfig prev = b.providerMetas.get(name);
                    if (prev != null && !override) {
                        diags.add(Diagnostic.error(
                                "Duplicate provider_meta block",
                                "A provider_meta block for provider \""
                                        + name + "\" was already declared at " + prev.declRange()
                                        + ". Providers may only have "
                                        + "one provider_meta block per module.",
                                inner.defRange()));
                    } else {
                        b.providerMetas.put(
                                name,
                                new ProviderMetaConfig(
                                        name, inner.body(), inner.labelRanges().getFirst(), inner.defRange()));
                    }
                }
                default -> throw new IllegalStateException(inner.type());
            }
        }
    }

    private void requiredProviders(Block blk, Builder b) {
        Result<Map<String, Attribute>> r = blk.body().justAttributes();
        diags.addAll(r.diagnostics());
        for (Attribute a : r.value().values()) {
            Provider source = null;
            VersionConstraint version = null;
            List<LocalProviderConfig> aliases = new ArrayList<>();
            Optional<List<Expression.KeyValue>> obj = a.expr().asMap();
            if (obj.isEmpty()) {
                // Terraform 0.12 form: name = "version constraint".
                String s = constString(a);
                if (s != null) {
                    version = VersionConstraint.parse(s, a.expr().range()).value();
                }
            } else {
                for (Expression.KeyValue kv : obj.get()) {
                    String key = objectKey(kv.key());
                    if (key == null) {
                        continue;
                    }
                    switch (key) {
                        case "source" -> {
                            String s = constStringOf(kv.value());
                            if (s != null) {
                                Result<Provider> p =
                                        Provider.parse(s, kv.value().range());
                                diags.addAll(p.diagnostics());
                                source = p.value();
                            }
                        }
                        case "version" -> {
                            String s = constStringOf(kv.value());
                            if (s != null) {
                                Result<VersionConstraint> vc =
                                        VersionConstraint.parse(s, kv.value().range());
                                diags.addAll(vc.diagnostics());
                                version = vc.value();
                            }
                        }
                        case "configuration_aliases" -> {
                            for (Expression e : kv.value().asList().orElse(List.of())) {
                                Result<Optional<Traversal>> t = e.asTraversal();
                                diags.addAll(t.diagnostics());
                                t.value().ifPresent(tr -> {
                                    if (tr.steps().size() == 2 && tr.steps().get(1) instanceof Traverser.Attr al) {
                                        aliases.add(new LocalProviderConfig(tr.rootName(), al.name()));
                                    } else if (tr.steps().size() == 1) {
                                        // A bare name asks the caller for the default configuration, which
                                        // every module may receive anyway: valid, nothing to record.
                                    } else {
                                        diags.error(
                                                "Invalid configuration_aliases value",
                                                "Each entry must be a " + "provider name and alias, such as aws.west.",
                                                tr.range());
                                    }
                                });
                            }
                        }
                        default ->
                            diags.error(
                                    "Invalid required_providers object",
                                    "required_providers objects "
                                            + "can only contain \"version\", \"source\" and \"configuration_aliases\" "
                                            + "attributes. To configure a provider, use a \"provider\" block.",
                                    kv.key().range());
                    }
                }
            }
            if (!IDENT.matcher(a.name()).matches()) {
                diags.error(
                        "Invalid provider local name",
                        "\"" + a.name() + "\" is not a valid provider local name.",
                        a.nameRange());
            }
            if (source == null) {
                source = Provider.implied(a.name());
            }
            b.requiredProviders.put(a.name(), new RequiredProvider(a.name(), source, version, aliases, a.range()));
        }
    }

    // ---- provider ------------------------------------------------------------------------------

    private void provider(Block blk, Builder b) {
        Result<Body.PartialContent> r = blk.body().partialContent(PROVIDER);
        diags.addAll(r.diagnostics());
        BodyContent c = r.value().content();
        String name = blk.labels().getFirst();
        if (!IDENT.matcher(name).matches()) {
            diags.error(
                    "Invalid provider local name",
                    "\"" + name + "\" is not a valid provider local name.",
                    blk.labelRanges().getFirst());
        }
        String alias = null;
        Attribute a = c.attributes().get("alias");
        if (a != null) {
            alias = a.expr().asKeyword().orElseGet(() -> constString(a));
            if (alias != null && !IDENT.matcher(alias).matches()) {
                diags.error(
                        "Invalid provider configuration alias",
                        "An alias must be a valid name. A name must "
                                + "start with a letter or underscore and may contain only letters, digits, underscores, and "
                                + "dashes.",
                        a.expr().range());
            }
        }
        Attribute v = c.attributes().get("version");
        if (v != null) {
            diags.add(Diagnostic.warning(
                    "Version constraints inside provider configuration blocks are deprecated",
                    "Terraform 0.13 and earlier allowed provider version constraints inside the provider "
                            + "configuration block, but that is now deprecated and will be removed in a future "
                            + "version of Terraform. To silence this warning, move the provider version constraint "
                            + "into the required_providers block.",
                    v.expr().range()));
        }
        Attribute fe = c.attributes().get("for_each");
        if (fe != null && alias == null) {
            diags.error(
                    "Invalid for_each on provider",
                    "A provider configuration with for_each must also have an "
                            + "alias, so that resources select one of its instances as " + name + ".ALIAS[KEY].",
                    fe.nameRange());
        }
        // As Terraform: empty when the rest of the body has nothing in it (any argument or block is an error
        // against an empty schema) and there is no version.
        boolean empty = v == null && !r.value().remain().content(EMPTY).hasErrors();
        ProviderConfig p = new ProviderConfig(
                name,
                alias,
                fe == null ? null : fe.expr(),
                r.value().remain(),
                blk.defRange(),
                blk.labelRanges().getFirst(),
                empty);
        ProviderConfig prev = b.providers.get(p.addr());
        if (prev != null) {
            diags.error(
                    "Duplicate provider configuration",
                    alias == null
                            ? "A default (non-aliased) provider configuration for \"" + name
                                    + "\" was already given at "
                                    + prev.declRange() + ". If multiple configurations are required, set the \"alias\" "
                                    + "argument for alternative configurations."
                            : "A provider configuration for \"" + name + "\" with alias \"" + alias
                                    + "\" was already given "
                                    + "at " + prev.declRange()
                                    + ". Each configuration for the same provider must have a "
                                    + "distinct alias.",
                    blk.defRange());
            return;
        }
        b.providers.put(p.addr(), p);
    }

    // ---- variable ------------------------------------------------------------------------------

    private void variable(Block blk, Builder b) {
        String name = blk.labels().getFirst();
        SourceRange nameRange = blk.labelRanges().getFirst();
        if (!IDENT.matcher(name).matches()) {
            diags.error(
                    "Invalid variable name",
                    "A name must start with a letter or underscore and may contain only "
                            + "letters, digits, underscores, and dashes.",
                    nameRange);
        }
        if (RESERVED_VARIABLES.contains(name)) {
            diags.error(
                    "Invalid variable name",
                    "The variable name \"" + name + "\" is reserved due to its special "
                            + "meaning inside module blocks.",
                    nameRange);
        }
        Result<BodyContent> r = blk.body().content(VARIABLE);
        diags.addAll(r.diagnostics());
        BodyContent c = r.value();
        TypeConstraint type = TypeConstraint.of(Type.DYNAMIC);
        boolean typeDeclared = false;
        Attribute t = c.attributes().get("type");
        if (t != null) {
            Result<TypeConstraint> tc = TypeExprs.parse(t.expr());
            diags.addAll(tc.diagnostics());
            type = tc.value();
            typeDeclared = !tc.hasErrors();
        }
        boolean nullable = constBool(c.attributes().get("nullable"), true);
        Value dflt = null;
        Expression dfltExpr = null;
        Attribute d = c.attributes().get("default");
        if (d != null) {
            dfltExpr = d.expr();
            Result<Value> v = Constants.evaluate(d.expr());
            diags.addAll(v.diagnostics());
            dflt = v.value();
            if (!v.hasErrors()) {
                ConversionResult cr = type.convert(v.value());
                switch (cr) {
                    case ConversionResult.Ok ok -> dflt = ok.value();
                    case ConversionResult.Failed f -> {
                        // After an override, Terraform reports at the override block and says which side changed.
                        String baseFile = blk.defRange().filename();
                        if (blk.body() instanceof MergedBody mb
                                && mb.overrideDefRange() != null
                                && !d.expr().range().filename().equals(baseFile)) {
                            diags.error(
                                    "Invalid default value for variable",
                                    "The overridden default value for this "
                                            + "variable is not compatible with the variable's type constraint: "
                                            + f.message()
                                            + ".",
                                    mb.overrideDefRange());
                        } else if (blk.body() instanceof MergedBody mb
                                && mb.overrideDefRange() != null
                                && t != null
                                && !t.expr().range().filename().equals(baseFile)) {
                            diags.error(
                                    "Invalid default value for variable",
                                    "Overriding this variable's type "
                                            + "constraint has made its default value invalid: " + f.message() + ".",
                                    mb.overrideDefRange());
                        } else {
                            diags.error(
                                    "Invalid default value for variable",
                                    "This default value is not compatible " + "with the variable's type constraint: "
                                            + f.message() + ".",
                                    d.expr().range());
                        }
                        dflt = Value.unknown(type.type());
                    }
                }
                if (dflt.isNull() && !nullable) {
                    diags.error(
                            "Invalid default value for variable",
                            "A null default value is not valid when " + "nullable=false.",
                            d.expr().range());
                }
            }
        }
        List<CheckRule> validations = new ArrayList<>();
        for (Block vb : c.blocksOfType("validation")) {
            validations.add(rule(vb));
        }
        VariableConfig vc = new VariableConfig(
                name,
                constString(c.attributes().get("description")),
                type,
                typeDeclared,
                dflt,
                dfltExpr,
                constBool(c.attributes().get("sensitive"), false),
                nullable,
                constBool(c.attributes().get("ephemeral"), false),
                validations,
                blk.defRange());
        VariableConfig prev = b.variables.putIfAbsent(name, vc);
        if (prev != null) {
            diags.error(
                    "Duplicate variable declaration",
                    "A variable named \"" + name + "\" was already declared at " + prev.declRange()
                            + ". Variable names must be unique within a module.",
                    blk.defRange());
        }
    }

    private static final java.util.Set<String> RESERVED_VARIABLES = java.util.Set.of(
            "source", "version", "providers", "count", "for_each", "lifecycle", "depends_on", "locals");

    private CheckRule rule(Block blk) {
        Result<BodyContent> r = blk.body().content(RULE);
        diags.addAll(r.diagnostics());
        Attribute cond = r.value().attributes().get("condition");
        Attribute msg = r.value().attributes().get("error_message");
        return new CheckRule(cond == null ? null : cond.expr(), msg == null ? null : msg.expr(), blk.defRange());
    }

    /**
     * A precondition, postcondition or assert block, added to {@code into} unless its condition refers to
     * nothing: as Terraform, that is an error ("Invalid precondition expression"), since it checks nothing.
     */
    private void condition(Block blk, List<CheckRule> into) {
        CheckRule rule = rule(blk);
        if (rule.condition() != null && rule.condition().variables().isEmpty()) {
            diags.error(
                    "Invalid " + blk.type() + " expression",
                    "The condition expression must refer to at least one object from elsewhere in the "
                            + "configuration, or else its result would not be checking anything.",
                    rule.condition().range());
            return;
        }
        into.add(rule);
    }

    // ---- locals / output -----------------------------------------------------------------------

    private void locals(Block blk, Builder b) {
        Result<Map<String, Attribute>> r = blk.body().justAttributes();
        diags.addAll(r.diagnostics());
        List<Attribute> attrs = new ArrayList<>(r.value().values());
        attrs.sort(java.util.Comparator.comparing(Attribute::range));
        for (Attribute a : attrs) {
            if (!IDENT.matcher(a.name()).matches()) {
                diags.error(
                        "Invalid local value name",
                        "A name must start with a letter or underscore and may "
                                + "contain only letters, digits, underscores, and dashes.",
                        a.nameRange());
            }
            LocalConfig prev = b.locals.putIfAbsent(a.name(), new LocalConfig(a.name(), a.expr(), a.range()));
            if (prev != null) {
                diags.error(
                        "Duplicate local value definition",
                        "A local value named \"" + a.name() + "\" was already " + "defined at " + prev.declRange()
                                + ". Local value names must be unique within a module.",
                        a.range());
            }
        }
    }

    private void overrideLocals(Block blk, Builder b) {
        Result<Map<String, Attribute>> r = blk.body().justAttributes();
        diags.addAll(r.diagnostics());
        for (Attribute a : r.value().values()) {
            if (!b.locals.containsKey(a.name())) {
                diags.error(
                        "Missing base local value definition to override",
                        "There is no local value named \""
                                + a.name()
                                + "\". An override file can only override a local value that was already defined "
                                + "in a primary configuration file.",
                        a.range());
                continue;
            }
            b.locals.put(a.name(), new LocalConfig(a.name(), a.expr(), a.range()));
        }
    }

    private void output(Block blk, Builder b) {
        String name = blk.labels().getFirst();
        if (!IDENT.matcher(name).matches()) {
            diags.error(
                    "Invalid output name",
                    "A name must start with a letter or underscore and may contain only "
                            + "letters, digits, underscores, and dashes.",
                    blk.labelRanges().getFirst());
        }
        Result<BodyContent> r = blk.body().content(OUTPUT);
        diags.addAll(r.diagnostics());
        BodyContent c = r.value();
        Attribute v = c.attributes().get("value");
        List<CheckRule> pre = new ArrayList<>();
        for (Block p : c.blocksOfType("precondition")) {
            condition(p, pre);
        }
        OutputConfig o = new OutputConfig(
                name,
                v == null ? null : v.expr(),
                constString(c.attributes().get("description")),
                constBool(c.attributes().get("sensitive"), false),
                constBool(c.attributes().get("ephemeral"), false),
                dependsOn(c.attributes().get("depends_on")),
                pre,
                blk.defRange());
        OutputConfig prev = b.outputs.putIfAbsent(name, o);
        if (prev != null) {
            diags.error(
                    "Duplicate output definition",
                    "An output named \"" + name + "\" was already defined at " + prev.declRange()
                            + ". Output names must be unique within a module.",
                    blk.defRange());
        }
    }

    // ---- resource / data -----------------------------------------------------------------------

    private ResourceConfig resource(Block blk, ResourceMode mode, Map<Resource, ResourceConfig> into, boolean report) {
        String type = blk.labels().getFirst();
        String name = blk.labels().get(1);
        if (!IDENT.matcher(type).matches()) {
            diags.error(
                    "Invalid resource type name",
                    "A name must start with a letter or underscore and may "
                            + "contain only letters, digits, underscores, and dashes.",
                    blk.labelRanges().getFirst());
        }
        if (!IDENT.matcher(name).matches()) {
            diags.error(
                    "Invalid resource name",
                    "A name must start with a letter or underscore and may contain only "
                            + "letters, digits, underscores, and dashes.",
                    blk.labelRanges().get(1));
        }
        Result<Body.PartialContent> r =
                blk.body().partialContent(mode == ResourceMode.EPHEMERAL ? EPHEMERAL : RESOURCE);
        diags.addAll(r.diagnostics());
        BodyContent c = r.value().content();
        Attribute count = c.attributes().get("count");
        Attribute forEach = c.attributes().get("for_each");
        if (count != null && forEach != null) {
            diags.error(
                    "Invalid combination of \"count\" and \"for_each\"",
                    "The \"count\" and \"for_each\" "
                            + "meta-arguments are mutually-exclusive, only one should be used to be explicit about the "
                            + "number of resources to be created.",
                    forEach.nameRange());
        }
        ProviderRef provider = null;
        Attribute p = c.attributes().get("provider");
        if (p != null) {
            provider = providerRef(p.expr());
        }
        Lifecycle lifecycle = Lifecycle.NONE;
        List<Provisioner> provisioners = new ArrayList<>();
        Provisioner.Connection connection = null;
        for (Block inner : c.blocks()) {
            switch (inner.type()) {
                case "lifecycle" ->
                    lifecycle = switch (mode) {
                        case MANAGED -> lifecycle(inner);
                        case DATA -> dataLifecycle(inner);
                        case EPHEMERAL -> ephemeralLifecycle(inner);
                    };
                case "provisioner" -> {
                    Provisioner pv = mode == ResourceMode.MANAGED ? provisioner(inner) : null;
                    if (pv != null) {
                        provisioners.add(pv);
                    }
                }
                case "connection" -> connection = connection(inner, connection, "resource");
                case "_" ->
                    diags.error(
                            "Unsupported block type",
                            "Blocks of type \"_\" are reserved for use in a " + "future version of Terraform.",
                            inner.typeRange());
                default -> throw new IllegalStateException(inner.type());
            }
        }
        if (mode == ResourceMode.DATA) {
            for (Block inner : c.blocksOfType("provisioner")) {
                diags.error("Unsupported block type", "Data resources do not have provisioners.", inner.typeRange());
            }
        }
        Resource addr = new Resource(mode, type, name);
        ResourceConfig rc = new ResourceConfig(
                addr,
                count == null ? null : count.expr(),
                forEach == null ? null : forEach.expr(),
                dependsOn(c.attributes().get("depends_on")),
                provider,
                lifecycle,
                r.value().remain(),
                blk.defRange(),
                blk.labelRanges().getFirst(),
                provisioners,
                connection);
        if (report) {
            ResourceConfig prev = into.putIfAbsent(addr, rc);
            if (prev != null) {
                String kind = switch (mode) {
                    case MANAGED -> "resource";
                    case DATA -> "data";
                    case EPHEMERAL -> "ephemeral";
                };
                String noun = switch (mode) {
                    case MANAGED -> " resource";
                    case DATA -> " data resource";
                    case EPHEMERAL -> " ephemeral resource";
                };
                diags.error(
                        mode == ResourceMode.MANAGED
                                ? "Duplicate resource \"" + type + "\" configuration"
                                : "Duplicate " + kind + " \"" + type + "\" configuration",
                        "A " + type + noun + " named \""
                                + name + "\" was already declared at " + prev.declRange() + ". Resource names must "
                                + "be unique per type in each module.",
                        blk.defRange());
            }
        }
        return rc;
    }

    private static final BodySchema PROVISIONER = new BodySchema(
            List.of(AttributeSchema.optional("when"), AttributeSchema.optional("on_failure")),
            List.of(BlockHeaderSchema.of("connection"), BlockHeaderSchema.of("_")));

    /** The arguments of each built-in provisioner type (Terraform has no other provisioners since 0.15). */
    private static final Map<String, BodySchema> PROVISIONER_TYPES = Map.of(
            "local-exec",
                    new BodySchema(
                            List.of(
                                    AttributeSchema.required("command"),
                                    AttributeSchema.optional("interpreter"),
                                    AttributeSchema.optional("working_dir"),
                                    AttributeSchema.optional("environment"),
                                    AttributeSchema.optional("quiet")),
                            List.of()),
            "file",
                    new BodySchema(
                            List.of(
                                    AttributeSchema.optional("source"),
                                    AttributeSchema.optional("content"),
                                    AttributeSchema.required("destination")),
                            List.of()),
            "remote-exec",
                    new BodySchema(
                            List.of(
                                    AttributeSchema.optional("inline"),
                                    AttributeSchema.optional("script"),
                                    AttributeSchema.optional("scripts")),
                            List.of()));

    /** The arguments of a {@code connection} block, as Terraform's SSH and WinRM communicators take them. */
    private static final BodySchema CONNECTION = new BodySchema(
            java.util.stream.Stream.of(
                            "type",
                            "user",
                            "password",
                            "host",
                            "port",
                            "timeout",
                            "script_path",
                            "private_key",
                            "certificate",
                            "host_key",
                            "target_platform",
                            "agent",
                            "agent_identity",
                            "bastion_host",
                            "bastion_host_key",
                            "bastion_port",
                            "bastion_user",
                            "bastion_password",
                            "bastion_private_key",
                            "bastion_certificate",
                            "proxy_scheme",
                            "proxy_host",
                            "proxy_port",
                            "proxy_user_name",
                            "proxy_user_password",
                            "https",
                            "insecure",
                            "use_ntlm",
                            "cacert")
                    .map(AttributeSchema::optional)
                    .toList(),
            List.of());

    /** The {@code connection} block {@code blk} of a {@code holder}, or the one it had ({@code had}) when it has two. */
    private Provisioner.Connection connection(Block blk, Provisioner.Connection had, String holder) {
        if (had == null) {
            return connection(blk);
        }
        diags.error(
                "Duplicate connection block",
                "This " + holder + " already has a connection block at " + had.declRange() + ".",
                blk.defRange());
        return had;
    }

    private Provisioner.Connection connection(Block blk) {
        Result<BodyContent> r = blk.body().content(CONNECTION);
        diags.addAll(r.diagnostics());
        return new Provisioner.Connection(blk.body(), blk.defRange());
    }

    /**
     * What the argument {@code name} of {@code c} selects by naming one of the {@code keywords} (a bare word,
     * like {@code when = destroy}); {@code absent} when it is unset, or after reporting any other expression.
     */
    private <T> T keyword(BodyContent c, String name, TreeMap<String, T> keywords, T absent) {
        Attribute a = c.attributes().get(name);
        if (a == null) {
            return absent;
        }
        T selected = a.expr().asKeyword().map(keywords::get).orElse(null);
        if (selected == null) {
            diags.error(
                    "Invalid \"" + name + "\" keyword",
                    "The \"" + name + "\" argument requires one of the following keywords: "
                            + String.join(" or ", keywords.keySet()) + ".",
                    a.expr().range());
            return absent;
        }
        return selected;
    }

    private Provisioner provisioner(Block blk) {
        String type = blk.labels().getFirst();
        Result<Body.PartialContent> r = blk.body().partialContent(PROVISIONER);
        diags.addAll(r.diagnostics());
        BodyContent c = r.value().content();
        BodySchema schema = PROVISIONER_TYPES.get(type);
        if (schema == null) {
            diags.error(
                    "Missing required provisioner plugin",
                    "This configuration requires provisioner plugin \"" + type + "\", which isn't available. "
                            + "Strata runs the built-in provisioners \"local-exec\", \"file\" and "
                            + "\"remote-exec\".",
                    blk.labelRanges().getFirst());
            return null;
        }
        Result<BodyContent> args = r.value().remain().content(schema);
        diags.addAll(args.diagnostics());
        Map<String, Attribute> a = args.value().attributes();
        switch (type) {
            case "file" -> {
                if (a.containsKey("source") && a.containsKey("content")) {
                    diags.error("Cannot set both 'source' and 'content'", null, blk.defRange());
                } else if (!a.containsKey("source") && !a.containsKey("content")) {
                    diags.error("Must provide one of 'source' or 'content'", null, blk.defRange());
                }
            }
            case "remote-exec" -> {
                long set = java.util.stream.Stream.of("inline", "script", "scripts")
                        .filter(a::containsKey)
                        .count();
                if (set != 1) {
                    diags.error(
                            "Invalid remote-exec provisioner configuration",
                            "Only one of \"inline\", \"script\", or \"scripts\" must be set",
                            blk.defRange());
                }
            }
            default -> {}
        }
        Provisioner.When when = keyword(
                c,
                "when",
                new TreeMap<>(Map.of("create", Provisioner.When.CREATE, "destroy", Provisioner.When.DESTROY)),
                Provisioner.When.CREATE);
        Provisioner.OnFailure onFailure = keyword(
                c,
                "on_failure",
                new TreeMap<>(Map.of("fail", Provisioner.OnFailure.FAIL, "continue", Provisioner.OnFailure.CONTINUE)),
                Provisioner.OnFailure.FAIL);
        Provisioner.Connection connection = null;
        for (Block inner : c.blocks()) {
            if (inner.type().equals("_")) {
                diags.error(
                        "Unsupported block type",
                        "Blocks of type \"_\" are reserved for use in a future version of Terraform.",
                        inner.typeRange());
            } else {
                connection = connection(inner, connection, "provisioner");
            }
        }
        return new Provisioner(
                type,
                when,
                onFailure,
                r.value().remain(),
                connection,
                blk.defRange(),
                blk.labelRanges().getFirst());
    }

    private Lifecycle lifecycle(Block blk) {
        Result<BodyContent> r = blk.body().content(LIFECYCLE);
        diags.addAll(r.diagnostics());
        BodyContent c = r.value();
        boolean all = false;
        List<Traversal> ignore = new ArrayList<>();
        Attribute ic = c.attributes().get("ignore_changes");
        if (ic != null) {
            if (ic.expr().asKeyword().filter("all"::equals).isPresent()) {
                all = true;
            } else {
                Optional<List<Expression>> list = ic.expr().asList();
                if (list.isEmpty()) {
                    diags.error("Invalid expression", "A static list expression is required.", listRange(ic.expr()));
                } else {
                    for (Expression e : list.get()) {
                        Traversal t = staticReference(e);
                        if (t != null) {
                            ignore.add(t);
                        }
                    }
                }
            }
        }
        List<Expression> triggers = new ArrayList<>();
        Attribute rt = c.attributes().get("replace_triggered_by");
        if (rt != null) {
            Optional<List<Expression>> list = rt.expr().asList();
            if (list.isEmpty()) {
                diags.error("Invalid expression", "A static list expression is required.", listRange(rt.expr()));
            } else {
                triggers.addAll(list.get());
            }
        }
        List<CheckRule> pre = new ArrayList<>();
        List<CheckRule> post = new ArrayList<>();
        List<ActionTrigger> actionTriggers = new ArrayList<>();
        for (Block x : c.blocks()) {
            switch (x.type()) {
                case "precondition" -> condition(x, pre);
                case "postcondition" -> condition(x, post);
                default -> actionTriggers.add(ActionDecoder.trigger(x, diags));
            }
        }
        return new Lifecycle(
                constBool(c.attributes().get("create_before_destroy"), false),
                constBool(c.attributes().get("prevent_destroy"), false),
                all,
                ignore,
                triggers,
                pre,
                post,
                actionTriggers);
    }

    private Lifecycle dataLifecycle(Block blk) {
        Result<BodyContent> r = blk.body().content(DATA_LIFECYCLE);
        diags.addAll(r.diagnostics());
        List<CheckRule> pre = new ArrayList<>();
        List<CheckRule> post = new ArrayList<>();
        for (Block x : r.value().blocks()) {
            condition(x, x.type().equals("precondition") ? pre : post);
        }
        return new Lifecycle(false, false, false, List.of(), List.of(), pre, post, List.of());
    }

    /** Conditions only, as for data resources; the managed-only arguments get Terraform's own error. */
    private Lifecycle ephemeralLifecycle(Block blk) {
        Result<BodyContent> r = blk.body().content(LIFECYCLE);
        diags.addAll(r.diagnostics());
        for (Attribute a : new TreeMap<>(r.value().attributes()).values()) {
            diags.error(
                    "Invalid ephemeral resource lifecycle argument",
                    "The lifecycle argument \"" + a.name() + "\" is defined only for managed resources "
                            + "(\"resource\" blocks), and is not valid for ephemeral resources.",
                    a.nameRange());
        }
        List<CheckRule> pre = new ArrayList<>();
        List<CheckRule> post = new ArrayList<>();
        for (Block x : r.value().blocks()) {
            condition(x, x.type().equals("precondition") ? pre : post);
        }
        return new Lifecycle(false, false, false, List.of(), List.of(), pre, post, List.of());
    }

    // ---- module --------------------------------------------------------------------------------

    private void module(Block blk, Builder b) {
        String name = blk.labels().getFirst();
        if (!IDENT.matcher(name).matches()) {
            diags.error(
                    "Invalid module instance name",
                    "A name must start with a letter or underscore and may "
                            + "contain only letters, digits, underscores, and dashes.",
                    blk.labelRanges().getFirst());
        }
        Result<Body.PartialContent> r = blk.body().partialContent(MODULE);
        diags.addAll(r.diagnostics());
        BodyContent c = r.value().content();
        for (Block x : c.blocks()) {
            diags.error(
                    "Reserved block type name in module block",
                    "The block type name \"" + x.type() + "\" is "
                            + "reserved for use by Terraform in a future version.",
                    x.typeRange());
        }
        Attribute src = c.attributes().get("source");
        String source = src == null ? "" : constString(src);
        if (source == null) {
            source = "";
        }
        VersionConstraint version = null;
        Attribute v = c.attributes().get("version");
        if (v != null) {
            String s = constString(v);
            if (s != null) {
                Result<VersionConstraint> vc =
                        VersionConstraint.parse(s, v.expr().range());
                diags.addAll(vc.diagnostics());
                version = vc.value();
            }
        }
        Attribute count = c.attributes().get("count");
        Attribute forEach = c.attributes().get("for_each");
        if (count != null && forEach != null) {
            diags.error(
                    "Invalid combination of \"count\" and \"for_each\"",
                    "The \"count\" and \"for_each\" "
                            + "meta-arguments are mutually-exclusive, only one should be used to be explicit about the "
                            + "number of module instances to be created.",
                    forEach.nameRange());
        }
        List<PassedProvider> passed = new ArrayList<>();
        Attribute providers = c.attributes().get("providers");
        if (providers != null) {
            Optional<List<Expression.KeyValue>> m = providers.expr().asMap();
            if (m.isEmpty()) {
                diags.error(
                        "Invalid providers argument",
                        "The providers argument must be a map from provider "
                                + "names in the child module to provider configurations in this module, such as "
                                + "{ aws = aws.west }.",
                        providers.expr().range());
            } else {
                for (Expression.KeyValue kv : m.get()) {
                    Result<Optional<Traversal>> k = kv.key().asTraversal();
                    ProviderRef inParent = providerRef(kv.value());
                    if (k.hasErrors() || k.value().isEmpty()) {
                        diags.error(
                                "Invalid provider configuration reference",
                                "The key must be a provider "
                                        + "name, optionally with an alias, such as aws or aws.west.",
                                kv.key().range());
                        continue;
                    }
                    Traversal kt = k.value().get();
                    String alias = kt.attrName(1);
                    if (inParent != null) {
                        passed.add(new PassedProvider(
                                new LocalProviderConfig(kt.rootName(), alias), inParent, kt.rootRange()));
                    }
                }
            }
        }
        Map<String, Attribute> inputs = new LinkedHashMap<>();
        Result<Map<String, Attribute>> rest = r.value().remain().justAttributes();
        diags.addAll(rest.diagnostics());
        inputs.putAll(rest.value());
        ModuleCallConfig mc = new ModuleCallConfig(
                name,
                source,
                src == null ? blk.defRange() : src.expr().range(),
                version,
                count == null ? null : count.expr(),
                forEach == null ? null : forEach.expr(),
                dependsOn(c.attributes().get("depends_on")),
                passed,
                inputs,
                blk.defRange(),
                blk.body().missingItemRange());
        ModuleCallConfig prev = b.modules.putIfAbsent(name, mc);
        if (prev != null) {
            diags.error(
                    "Duplicate module call",
                    "A module call named \"" + name + "\" was already defined at " + prev.declRange()
                            + ". Module calls must have unique names within a module.",
                    blk.defRange());
        }
    }

    // ---- moved / import / removed / check ------------------------------------------------------

    private void moved(Block blk, Builder b) {
        Result<BodyContent> r = blk.body().content(MOVED);
        diags.addAll(r.diagnostics());
        Attribute from = r.value().attributes().get("from");
        Attribute to = r.value().attributes().get("to");
        Targetable f = from == null ? null : target(from.expr());
        Targetable t = to == null ? null : target(to.expr());
        if (f != null && t != null) {
            if (f.getClass() != t.getClass()
                    && !(f instanceof dev.strata.addr.AbsResource && t instanceof dev.strata.addr.AbsResourceInstance)
                    && !(t instanceof dev.strata.addr.AbsResource
                            && f instanceof dev.strata.addr.AbsResourceInstance)) {
                diags.error(
                        "Invalid \"moved\" addresses",
                        "The \"from\" and \"to\" addresses must both refer to " + "resources or both refer to modules.",
                        blk.defRange());
            }
            b.moved.add(new MovedConfig(f, t, from.expr().range(), to.expr().range(), blk.defRange()));
        }
    }

    private Targetable target(Expression e) {
        Result<Optional<Traversal>> t = e.asTraversal();
        diags.addAll(t.diagnostics());
        if (t.hasErrors() || t.value().isEmpty()) {
            if (!t.hasErrors()) {
                diags.error(
                        "Invalid address",
                        "An address such as aws_instance.web or module.net is required here.",
                        e.range());
            }
            return null;
        }
        Result<Targetable> a = Addrs.parseTarget(t.value().get());
        diags.addAll(a.diagnostics());
        return a.value();
    }

    private void importBlock(Block blk, Builder b) {
        Result<BodyContent> r = blk.body().content(IMPORT);
        diags.addAll(r.diagnostics());
        Map<String, Attribute> a = r.value().attributes();
        if (!a.containsKey("to") || !a.containsKey("id")) {
            return;
        }
        Attribute p = a.get("provider");
        Attribute fe = a.get("for_each");
        b.imports.add(new ImportConfig(
                a.get("to").expr(),
                a.get("id").expr(),
                fe == null ? null : fe.expr(),
                p == null ? null : providerRef(p.expr()),
                blk.defRange()));
    }

    private void removed(Block blk, Builder b) {
        Result<BodyContent> r = blk.body().content(REMOVED);
        diags.addAll(r.diagnostics());
        Attribute from = r.value().attributes().get("from");
        boolean destroy = true;
        List<Provisioner> provisioners = new ArrayList<>();
        List<Block> provisionerBlocks = new ArrayList<>();
        Provisioner.Connection connection = null;
        for (Block inner : r.value().blocks()) {
            switch (inner.type()) {
                case "lifecycle" -> {
                    Result<BodyContent> lc = inner.body().content(REMOVED_LIFECYCLE);
                    diags.addAll(lc.diagnostics());
                    destroy = constBool(lc.value().attributes().get("destroy"), true);
                }
                case "provisioner" -> {
                    Provisioner pv = provisioner(inner);
                    if (pv != null && pv.when() != Provisioner.When.DESTROY) {
                        diags.error(
                                "Invalid provisioner block",
                                "Only destroy-time provisioners are valid in \"removed\" blocks. To declare a "
                                        + "destroy-time provisioner, use:\n    when = destroy",
                                inner.defRange());
                    } else if (pv != null) {
                        provisioners.add(pv);
                        provisionerBlocks.add(inner);
                    }
                }
                case "connection" -> connection = connection(inner, connection, "\"removed\" block");
                default -> throw new IllegalStateException(inner.type());
            }
        }
        if (from == null) {
            return;
        }
        Targetable t = target(from.expr());
        boolean managed = t instanceof dev.strata.addr.AbsResource ar
                && ar.resource().mode() == dev.strata.addr.ResourceMode.MANAGED;
        if (!managed && t != null && !provisionerBlocks.isEmpty()) {
            for (Block pb : provisionerBlocks) {
                diags.error(
                        "Invalid provisioner block",
                        "Provisioners are valid only when a removed block targets a managed resource.",
                        pb.defRange());
            }
            provisioners.clear();
        }
        if (t instanceof dev.strata.addr.AbsResourceInstance
                || (t instanceof dev.strata.addr.ModuleInstance mi
                        && mi.steps().stream()
                                .anyMatch(s -> !(s.key() instanceof dev.strata.addr.InstanceKey.NoKey)))) {
            diags.error(
                    "Invalid \"removed\" address",
                    "A removed block must refer to a whole resource or module, "
                            + "without instance keys, because it removes every instance of it.",
                    from.expr().range());
            return;
        }
        if (t != null) {
            b.removed.add(new RemovedConfig(t, destroy, from.expr().range(), blk.defRange(), provisioners, connection));
        }
    }

    private void check(Block blk, Builder b) {
        String name = blk.labels().getFirst();
        Result<BodyContent> r = blk.body().content(CHECK);
        diags.addAll(r.diagnostics());
        List<CheckRule> asserts = new ArrayList<>();
        ResourceConfig data = null;
        for (Block inner : r.value().blocks()) {
            if (inner.type().equals("assert")) {
                condition(inner, asserts);
            } else if (data != null) {
                diags.error(
                        "Multiple data resource blocks",
                        "This check block already has a data resource defined " + "at " + data.declRange()
                                + ". A check block can have at most one nested data block.",
                        inner.defRange());
            } else {
                data = resource(inner, ResourceMode.DATA, b.resources, false);
            }
        }
        if (asserts.isEmpty()) {
            // As Terraform: also when every assert block was invalid.
            diags.error("Zero assert blocks", "Check blocks must have at least one assert block.", blk.defRange());
        }
        CheckConfig prev = b.checks.putIfAbsent(name, new CheckConfig(name, asserts, data, blk.defRange()));
        if (prev != null) {
            diags.error(
                    "Duplicate check \"" + name + "\" configuration",
                    "A check block named \"" + name
                            + "\" was already defined at " + prev.declRange()
                            + ". Check blocks must be unique within each "
                            + "module.",
                    blk.defRange());
        }
    }

    // ---- argument helpers ----------------------------------------------------------------------

    /** A provider reference {@code aws} / {@code aws.west} / {@code aws.by_region[each.key]}. */
    private ProviderRef providerRef(Expression e) {
        Result<dev.strata.hcl.syntax.Expr> syn =
                e instanceof dev.strata.hcl.json.JsonExpression j ? j.asNativeExpression() : e.syntax();
        if (!syn.hasErrors()
                && syn.value() instanceof dev.strata.hcl.syntax.Expr.Index ix
                && ix.collection() instanceof dev.strata.hcl.syntax.Expr.ScopeTraversal st
                && st.traversal().steps().size() == 2
                && st.traversal().steps().get(1) instanceof Traverser.Attr alias) {
            return new ProviderRef(
                    new LocalProviderConfig(st.traversal().rootName(), alias.name()), ix.key(), e.range());
        }
        Result<Optional<Traversal>> t = e.asTraversal();
        if (t.hasErrors() || t.value().isEmpty()) {
            diags.error(
                    "Invalid provider configuration reference",
                    "The provider argument requires a provider type "
                            + "name, optionally followed by a period and then a configuration alias.",
                    e.range());
            return null;
        }
        Traversal tr = t.value().get();
        List<Traverser> steps = tr.steps();
        if (steps.size() == 3
                && steps.get(1) instanceof Traverser.Attr alias
                && steps.get(2) instanceof Traverser.Index ix) {
            dev.strata.hcl.syntax.Expr key = new dev.strata.hcl.syntax.Expr.LiteralValue(ix.key(), ix.range());
            return new ProviderRef(new LocalProviderConfig(tr.rootName(), alias.name()), key, e.range());
        }
        if (steps.size() > 2 || (steps.size() == 2 && !(steps.get(1) instanceof Traverser.Attr))) {
            diags.error(
                    "Invalid provider configuration reference",
                    "The provider argument requires a provider type "
                            + "name, optionally followed by a period and then a configuration alias.",
                    tr.range());
            return null;
        }
        String alias = steps.size() == 2 ? ((Traverser.Attr) steps.get(1)).name() : null;
        return new ProviderRef(new LocalProviderConfig(tr.rootName(), alias), null, e.range());
    }

    private static final String STATIC_REFERENCE = "A single static variable reference is required: only attribute "
            + "access and indexing with constant keys. No calculations, function calls, template expressions, etc "
            + "are allowed here.";

    private List<Traversal> dependsOn(Attribute a) {
        if (a == null) {
            return List.of();
        }
        Optional<List<Expression>> list = a.expr().asList();
        if (list.isEmpty()) {
            diags.error("Invalid expression", "A static list expression is required.", listRange(a.expr()));
            return List.of();
        }
        List<Traversal> out = new ArrayList<>();
        for (Expression e : list.get()) {
            Traversal t = staticReference(e);
            if (t != null) {
                out.add(t);
            }
        }
        return out;
    }

    /**
     * A reference written as such ({@code aws_instance.web}), or in quotes as Terraform 0.11 required
     * (accepted with Terraform's deprecation warning); anything else is reported and gives null.
     */
    private Traversal staticReference(Expression e) {
        Result<Optional<Traversal>> t = e.asTraversal();
        if (!t.hasErrors() && t.value().isPresent()) {
            return t.value().get();
        }
        Expr.LiteralValue quoted = quotedLiteral(e);
        if (quoted != null && quoted.value() instanceof dev.strata.hcl.Literal.StringLit str) {
            Result<Traversal> parsed = NativeSyntax.parseTraversal(
                    str.value().getBytes(StandardCharsets.UTF_8),
                    quoted.range().filename(),
                    quoted.range().start());
            if (!parsed.hasErrors()) {
                diags.add(Diagnostic.warning(
                        "Quoted references are deprecated",
                        "In this context, references are "
                                + "expected literally rather than in quotes. Terraform 0.11 and earlier required quotes, but "
                                + "quoted references are now deprecated and will be removed in a future version of "
                                + "Terraform. Remove the quotes surrounding this reference to silence this warning.",
                        e.range()));
                return parsed.value();
            }
        }
        diags.error("Invalid expression", STATIC_REFERENCE, e.range());
        return null;
    }

    /** {@code "text"} without interpolation: its one literal part (whose range is inside the quotes). */
    private static Expr.LiteralValue quotedLiteral(Expression e) {
        if (e instanceof dev.strata.hcl.json.JsonExpression) {
            return null;
        }
        Result<Expr> syn = e.syntax();
        if (!syn.hasErrors()
                && syn.value() instanceof Expr.Template t
                && t.parts().size() == 1
                && t.parts().getFirst() instanceof Expr.LiteralValue lv) {
            return lv;
        }
        return null;
    }

    /** Where Terraform points when a list is required: a quoted string's text, else the expression. */
    private static SourceRange listRange(Expression e) {
        Expr.LiteralValue lv = quotedLiteral(e);
        return lv != null ? lv.range() : e.range();
    }

    /** An object constructor key as a name: a bare word or a literal string. */
    private String objectKey(Expression key) {
        Result<dev.strata.hcl.syntax.Expr> syn = key.syntax();
        String name = null;
        if (!syn.hasErrors() && syn.value() != null) {
            dev.strata.hcl.syntax.Expr e = syn.value();
            name = TypeExprs.keyName(
                    e instanceof dev.strata.hcl.syntax.Expr.ObjectKey k
                            ? k
                            : new dev.strata.hcl.syntax.Expr.ObjectKey(e, false));
        }
        if (name == null) {
            diags.error("Invalid object key", "A name or a literal string is required as the key here.", key.range());
        }
        return name;
    }

    private String constString(Attribute a) {
        return a == null ? null : constStringOf(a.expr());
    }

    private String constStringOf(Expression e) {
        return Constants.string(e, diags);
    }

    private boolean constBool(Attribute a, boolean dflt) {
        return a == null ? dflt : Constants.bool(a.expr(), dflt, diags);
    }
}
