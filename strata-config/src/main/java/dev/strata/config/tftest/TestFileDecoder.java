package dev.strata.config.tftest;

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
import dev.strata.hcl.Traversal;
import dev.strata.hcl.json.JsonSyntax;
import dev.strata.hcl.syntax.NativeSyntax;
import dev.strata.lang.eval.Evaluator;
import dev.strata.lang.eval.Scope;
import dev.strata.lang.eval.TemplateFunctions;
import dev.strata.lang.funcs.FunctionContext;
import dev.strata.lang.funcs.FunctionTable;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Decodes a {@code .tftest.hcl} or {@code .tftest.json} file into a {@link TestFile}, with the
 * diagnostics {@code terraform test} gives for blocks and arguments it does not know or values it
 * cannot take.
 */
public final class TestFileDecoder {
    private TestFileDecoder() {}

    private static final FunctionTable FUNCTIONS = TemplateFunctions.builtins(FunctionContext.system(Path.of(".")));

    private static final BodySchema FILE = new BodySchema(
            List.of(),
            List.of(
                    BlockHeaderSchema.of("run", "name"),
                    BlockHeaderSchema.of("variables"),
                    BlockHeaderSchema.of("variable", "name"),
                    BlockHeaderSchema.of("provider", "name"),
                    BlockHeaderSchema.of("mock_provider", "name"),
                    BlockHeaderSchema.of("override_resource"),
                    BlockHeaderSchema.of("override_data"),
                    BlockHeaderSchema.of("override_module"),
                    BlockHeaderSchema.of("test")));

    private static final BodySchema VARIABLE = new BodySchema(
            List.of(
                    AttributeSchema.optional("type"),
                    AttributeSchema.optional("default"),
                    AttributeSchema.optional("description"),
                    AttributeSchema.optional("sensitive"),
                    AttributeSchema.optional("ephemeral"),
                    AttributeSchema.optional("nullable")),
            List.of(BlockHeaderSchema.of("validation")));

    private static final BodySchema TEST = new BodySchema(List.of(AttributeSchema.optional("parallel")), List.of());

    private static final BodySchema RUN = new BodySchema(
            List.of(
                    AttributeSchema.optional("command"),
                    AttributeSchema.optional("providers"),
                    AttributeSchema.optional("expect_failures"),
                    AttributeSchema.optional("state_key"),
                    AttributeSchema.optional("parallel")),
            List.of(
                    BlockHeaderSchema.of("plan_options"),
                    BlockHeaderSchema.of("assert"),
                    BlockHeaderSchema.of("variables"),
                    BlockHeaderSchema.of("module"),
                    BlockHeaderSchema.of("override_resource"),
                    BlockHeaderSchema.of("override_data"),
                    BlockHeaderSchema.of("override_module")));

    private static final BodySchema ASSERT = new BodySchema(
            List.of(AttributeSchema.required("condition"), AttributeSchema.required("error_message")), List.of());

    private static final BodySchema MODULE =
            new BodySchema(List.of(AttributeSchema.required("source"), AttributeSchema.optional("version")), List.of());

    private static final BodySchema PLAN_OPTIONS = new BodySchema(
            List.of(
                    AttributeSchema.optional("mode"),
                    AttributeSchema.optional("refresh"),
                    AttributeSchema.optional("replace"),
                    AttributeSchema.optional("target")),
            List.of());

    private static final BodySchema MOCK_PROVIDER = new BodySchema(
            List.of(
                    AttributeSchema.optional("alias"),
                    AttributeSchema.optional("source"),
                    AttributeSchema.optional("override_during")),
            List.of(
                    BlockHeaderSchema.of("mock_resource", "type"),
                    BlockHeaderSchema.of("mock_data", "type"),
                    BlockHeaderSchema.of("override_resource"),
                    BlockHeaderSchema.of("override_data")));

    private static final BodySchema MOCK_DEFAULTS = new BodySchema(
            List.of(AttributeSchema.optional("defaults"), AttributeSchema.optional("override_during")), List.of());

    private static final BodySchema OVERRIDE = new BodySchema(
            List.of(
                    AttributeSchema.required("target"),
                    AttributeSchema.optional("values"),
                    AttributeSchema.optional("override_during")),
            List.of());

    private static final BodySchema OVERRIDE_MODULE = new BodySchema(
            List.of(
                    AttributeSchema.required("target"),
                    AttributeSchema.optional("outputs"),
                    AttributeSchema.optional("override_during")),
            List.of());

    /** Parses and decodes {@code bytes}, the file named {@code name} (JSON syntax when it ends in {@code .json}). */
    public static Result<TestFile> decode(byte[] bytes, String name) {
        Result<HclFile> parsed =
                name.endsWith(".json") ? JsonSyntax.parse(bytes, name) : NativeSyntax.parseConfig(bytes, name);
        Diagnostics.Builder diags = Diagnostics.builder();
        diags.addAll(parsed.diagnostics());
        if (parsed.value() == null || parsed.hasErrors()) {
            return Result.of(null, diags.build());
        }
        Result<BodyContent> content = parsed.value().body().content(FILE);
        diags.addAll(content.diagnostics());
        SortedMap<String, Attribute> variables = new TreeMap<>();
        SortedMap<String, Expression> declared = new TreeMap<>();
        List<Block> providers = new ArrayList<>();
        List<TestFile.MockProvider> mocks = new ArrayList<>();
        List<TestFile.Override> overrides = new ArrayList<>();
        List<TestFile.Run> runs = new ArrayList<>();
        boolean parallel = false;
        java.util.Set<String> runNames = new java.util.HashSet<>();
        for (Block b : content.value().blocks()) {
            switch (b.type()) {
                case "run" -> {
                    TestFile.Run r = run(b, diags);
                    if (!runNames.add(r.name())) {
                        diags.add(Diagnostic.error(
                                "Duplicate \"run\" block names",
                                "This test file already has a run block named " + r.name() + ".",
                                b.defRange()));
                    }
                    runs.add(r);
                }
                case "variables" -> variables(b.body(), variables, diags);
                case "variable" -> {
                    Result<BodyContent> v = b.body().content(VARIABLE);
                    diags.addAll(v.diagnostics());
                    Attribute d = v.value().attributes().get("default");
                    if (d != null) {
                        declared.put(b.labels().getFirst(), d.expr());
                    }
                }
                case "provider" -> providers.add(b);
                case "mock_provider" -> mocks.add(mockProvider(b, diags));
                case "override_resource" ->
                    override(b, TestFile.OverrideKind.RESOURCE, false, diags).ifPresent(overrides::add);
                case "override_data" ->
                    override(b, TestFile.OverrideKind.DATA, false, diags).ifPresent(overrides::add);
                case "override_module" ->
                    override(b, TestFile.OverrideKind.MODULE, false, diags).ifPresent(overrides::add);
                case "test" -> {
                    Result<BodyContent> t = b.body().content(TEST);
                    diags.addAll(t.diagnostics());
                    Attribute p = t.value().attributes().get("parallel");
                    if (p != null) {
                        parallel = bool(p, diags);
                    }
                }
                default -> {}
            }
        }
        return Result.of(
                new TestFile(name, variables, declared, providers, mocks, overrides, runs, parallel), diags.build());
    }

    private static final BodySchema MOCK_FILE = new BodySchema(
            List.of(),
            List.of(
                    BlockHeaderSchema.of("mock_resource", "type"),
                    BlockHeaderSchema.of("mock_data", "type"),
                    BlockHeaderSchema.of("override_resource"),
                    BlockHeaderSchema.of("override_data")));

    /**
     * A {@code .tfmock.hcl} or {@code .tfmock.json} file of a {@code mock_provider}'s {@code source}
     * directory: more defaults and overrides for that provider, which the block's own take precedence over.
     */
    public static Result<TestFile.MockProvider> decodeMockFile(byte[] bytes, String name, boolean duringPlan) {
        Result<HclFile> parsed =
                name.endsWith(".json") ? JsonSyntax.parse(bytes, name) : NativeSyntax.parseConfig(bytes, name);
        Diagnostics.Builder diags = Diagnostics.builder();
        diags.addAll(parsed.diagnostics());
        if (parsed.value() == null || parsed.hasErrors()) {
            return Result.of(null, diags.build());
        }
        Result<BodyContent> c = parsed.value().body().content(MOCK_FILE);
        diags.addAll(c.diagnostics());
        List<TestFile.MockDefaults> defaults = new ArrayList<>();
        List<TestFile.Override> overrides = new ArrayList<>();
        mocks(c.value().blocks(), duringPlan, defaults, overrides, diags);
        return Result.of(
                new TestFile.MockProvider("", null, null, defaults, overrides, duringPlan, null), diags.build());
    }

    private static void variables(Body body, Map<String, Attribute> into, Diagnostics.Builder diags) {
        Result<Map<String, Attribute>> attrs = body.justAttributes();
        diags.addAll(attrs.diagnostics());
        into.putAll(attrs.value());
    }

    private static TestFile.Run run(Block b, Diagnostics.Builder diags) {
        Result<BodyContent> r = b.body().content(RUN);
        diags.addAll(r.diagnostics());
        BodyContent c = r.value();
        TestFile.Command command = TestFile.Command.APPLY;
        Attribute cmd = c.attributes().get("command");
        if (cmd != null) {
            String k = cmd.expr().asKeyword().orElse("");
            switch (k) {
                case "plan" -> command = TestFile.Command.PLAN;
                case "apply" -> command = TestFile.Command.APPLY;
                default ->
                    diags.add(Diagnostic.error(
                            "Invalid \"command\" keyword",
                            "The \"command\" argument requires one of the following keywords without quotes: apply or plan.",
                            cmd.expr().range()));
            }
        }
        SortedMap<String, Attribute> variables = new TreeMap<>();
        String source = null;
        dev.strata.hcl.SourceRange sourceRange = null;
        List<TestFile.Assertion> asserts = new ArrayList<>();
        List<TestFile.Override> overrides = new ArrayList<>();
        TestFile.PlanOptions options = TestFile.PlanOptions.DEFAULT;
        for (Block inner : c.blocks()) {
            switch (inner.type()) {
                case "variables" -> variables(inner.body(), variables, diags);
                case "assert" -> {
                    Result<BodyContent> a = inner.body().content(ASSERT);
                    diags.addAll(a.diagnostics());
                    Attribute cond = a.value().attributes().get("condition");
                    Attribute msg = a.value().attributes().get("error_message");
                    if (cond != null && cond.expr().variables().isEmpty()) {
                        diags.add(Diagnostic.error(
                                "Invalid assert expression",
                                "The condition expression must refer to at least one object from elsewhere in the "
                                        + "configuration, or else its result would not be checking anything.",
                                cond.expr().range()));
                    } else if (cond != null && msg != null) {
                        asserts.add(new TestFile.Assertion(cond.expr(), msg.expr(), inner.defRange()));
                    }
                }
                case "module" -> {
                    Result<BodyContent> m = inner.body().content(MODULE);
                    diags.addAll(m.diagnostics());
                    Attribute src = m.value().attributes().get("source");
                    if (src != null) {
                        source = string(src, diags);
                        sourceRange = src.expr().range();
                    }
                }
                case "plan_options" -> options = planOptions(inner, diags);
                case "override_resource" ->
                    override(inner, TestFile.OverrideKind.RESOURCE, false, diags)
                            .ifPresent(overrides::add);
                case "override_data" ->
                    override(inner, TestFile.OverrideKind.DATA, false, diags).ifPresent(overrides::add);
                case "override_module" ->
                    override(inner, TestFile.OverrideKind.MODULE, false, diags).ifPresent(overrides::add);
                default -> {}
            }
        }
        List<Expression> expect = new ArrayList<>();
        Attribute ef = c.attributes().get("expect_failures");
        if (ef != null) {
            Optional<List<Expression>> list = ef.expr().asList();
            if (list.isEmpty()) {
                diags.add(Diagnostic.error(
                        "Invalid expect_failures",
                        "The expect_failures argument must be a list of references to checkable objects.",
                        ef.expr().range()));
            } else {
                expect.addAll(list.get());
            }
        }
        Attribute sk = c.attributes().get("state_key");
        String stateKey = sk == null ? (source == null ? "" : source) : string(sk, diags);
        Attribute par = c.attributes().get("parallel");
        Boolean parallel = par == null ? null : bool(par, diags);
        Attribute prov = c.attributes().get("providers");
        return new TestFile.Run(
                b.labels().getFirst(),
                command,
                variables,
                source,
                sourceRange,
                asserts,
                expect,
                options,
                stateKey,
                parallel,
                overrides,
                prov == null ? null : prov.expr(),
                b.defRange());
    }

    private static TestFile.PlanOptions planOptions(Block b, Diagnostics.Builder diags) {
        Result<BodyContent> r = b.body().content(PLAN_OPTIONS);
        diags.addAll(r.diagnostics());
        Map<String, Attribute> a = r.value().attributes();
        boolean refreshOnly = false;
        if (a.containsKey("mode")) {
            String k = a.get("mode").expr().asKeyword().orElse("");
            switch (k) {
                case "normal" -> refreshOnly = false;
                case "refresh-only" -> refreshOnly = true;
                default ->
                    diags.add(Diagnostic.error(
                            "Invalid \"mode\" keyword",
                            "The \"mode\" argument requires one of the following keywords without quotes: normal or refresh-only",
                            a.get("mode").expr().range()));
            }
        }
        boolean refresh = !a.containsKey("refresh") || bool(a.get("refresh"), diags);
        List<Expression> replace =
                a.containsKey("replace") ? a.get("replace").expr().asList().orElse(List.of()) : List.of();
        List<Expression> target =
                a.containsKey("target") ? a.get("target").expr().asList().orElse(List.of()) : List.of();
        return new TestFile.PlanOptions(refreshOnly, refresh, replace, target);
    }

    /**
     * The {@code mock_resource}/{@code mock_data} defaults and {@code override_*} blocks of a mock provider
     * (or its mock file), each taking the provider's {@code override_during} unless it has its own.
     */
    private static void mocks(
            List<Block> blocks,
            boolean duringPlan,
            List<TestFile.MockDefaults> defaults,
            List<TestFile.Override> overrides,
            Diagnostics.Builder diags) {
        for (Block inner : blocks) {
            switch (inner.type()) {
                case "mock_resource", "mock_data" -> {
                    Result<BodyContent> d = inner.body().content(MOCK_DEFAULTS);
                    diags.addAll(d.diagnostics());
                    Attribute dflt = d.value().attributes().get("defaults");
                    Attribute od = d.value().attributes().get("override_during");
                    defaults.add(new TestFile.MockDefaults(
                            inner.labels().getFirst(),
                            inner.type().equals("mock_data"),
                            dflt == null ? null : dflt.expr(),
                            od == null ? duringPlan : during(od, duringPlan, diags)));
                }
                case "override_resource" ->
                    override(inner, TestFile.OverrideKind.RESOURCE, duringPlan, diags)
                            .ifPresent(overrides::add);
                case "override_data" ->
                    override(inner, TestFile.OverrideKind.DATA, duringPlan, diags)
                            .ifPresent(overrides::add);
                default -> {}
            }
        }
    }

    private static TestFile.MockProvider mockProvider(Block b, Diagnostics.Builder diags) {
        Result<BodyContent> r = b.body().content(MOCK_PROVIDER);
        diags.addAll(r.diagnostics());
        Map<String, Attribute> a = r.value().attributes();
        String alias = a.containsKey("alias") ? string(a.get("alias"), diags) : null;
        String source = a.containsKey("source") ? string(a.get("source"), diags) : null;
        boolean duringPlan = a.containsKey("override_during") && during(a.get("override_during"), false, diags);
        List<TestFile.MockDefaults> defaults = new ArrayList<>();
        List<TestFile.Override> overrides = new ArrayList<>();
        mocks(r.value().blocks(), duringPlan, defaults, overrides, diags);
        return new TestFile.MockProvider(
                b.labels().getFirst(), alias, source, defaults, overrides, duringPlan, b.defRange());
    }

    private static Optional<TestFile.Override> override(
            Block b, TestFile.OverrideKind kind, boolean inheritedDuringPlan, Diagnostics.Builder diags) {
        Result<BodyContent> r = b.body().content(kind == TestFile.OverrideKind.MODULE ? OVERRIDE_MODULE : OVERRIDE);
        diags.addAll(r.diagnostics());
        Map<String, Attribute> a = r.value().attributes();
        Attribute target = a.get("target");
        if (target == null) {
            return Optional.empty();
        }
        Result<Optional<Traversal>> t = target.expr().asTraversal();
        if (t.hasErrors() || t.value() == null || t.value().isEmpty()) {
            diags.add(Diagnostic.error(
                    "Invalid override target",
                    "The target of an override must be a static reference to a "
                            + (kind == TestFile.OverrideKind.MODULE ? "module call" : "resource or data source")
                            + ".",
                    target.expr().range()));
            return Optional.empty();
        }
        Attribute values = a.get(kind == TestFile.OverrideKind.MODULE ? "outputs" : "values");
        if (values != null && !isObject(values)) {
            String block = switch (kind) {
                case RESOURCE -> "override_resource";
                case DATA -> "override_data";
                case MODULE -> "override_module";
            };
            diags.add(Diagnostic.error(
                    "Invalid " + values.name() + " attribute",
                    block + " blocks must specify a" + " " + values.name() + " attribute that is an object.",
                    values.expr().range()));
            return Optional.empty();
        }
        boolean duringPlan = a.containsKey("override_during")
                ? during(a.get("override_during"), inheritedDuringPlan, diags)
                : inheritedDuringPlan;
        return Optional.of(new TestFile.Override(
                kind,
                t.value().get().toString(),
                target.expr().range(),
                values == null ? null : values.expr(),
                duringPlan));
    }

    /** Whether an override's values are an object: written as one, or evaluating to one without references. */
    private static boolean isObject(Attribute a) {
        if (a.expr().asMap().isPresent()) {
            return true;
        }
        if (!a.expr().variables().isEmpty()) {
            return false;
        }
        Result<Value> v = new Evaluator(Scope.empty(FUNCTIONS)).evaluate(a.expr());
        return !v.hasErrors()
                && v.value().isKnownAndNotNull()
                && (v.value().type() instanceof dev.strata.lang.types.ObjectType
                        || v.value().type() instanceof dev.strata.lang.types.MapType);
    }

    private static boolean during(Attribute a, boolean fallback, Diagnostics.Builder diags) {
        String k = a.expr().asKeyword().orElse("");
        return switch (k) {
            case "plan" -> true;
            case "apply" -> false;
            default -> {
                diags.add(Diagnostic.error(
                        "Invalid override_during value",
                        "The override_during attribute must be a value of plan or apply.",
                        a.expr().range()));
                yield fallback;
            }
        };
    }

    private static Value constant(Attribute a, Type want, Diagnostics.Builder diags) {
        if (!a.expr().variables().isEmpty()) {
            diags.add(Diagnostic.error(
                    "Variables not allowed",
                    "Variables may not be used here.",
                    a.expr().range()));
            return null;
        }
        Result<Value> v = new Evaluator(Scope.empty(FUNCTIONS)).evaluate(a.expr());
        diags.addAll(v.diagnostics());
        if (v.hasErrors() || v.value() == null || !v.value().isKnownAndNotNull()) {
            return null;
        }
        var converted = dev.strata.lang.value.Convert.convert(v.value(), want);
        return converted instanceof dev.strata.lang.value.ConversionResult.Ok ok ? ok.value() : null;
    }

    private static String string(Attribute a, Diagnostics.Builder diags) {
        Value v = constant(a, Type.STRING, diags);
        if (v == null) {
            diags.add(Diagnostic.error(
                    "Invalid value",
                    "The \"" + a.name() + "\" argument must be a string.",
                    a.expr().range()));
            return "";
        }
        return v.asString();
    }

    private static boolean bool(Attribute a, Diagnostics.Builder diags) {
        Value v = constant(a, Type.BOOL, diags);
        if (v == null) {
            diags.add(Diagnostic.error(
                    "Invalid value",
                    "The \"" + a.name() + "\" argument must be a bool.",
                    a.expr().range()));
            return false;
        }
        return v.asBool();
    }
}
