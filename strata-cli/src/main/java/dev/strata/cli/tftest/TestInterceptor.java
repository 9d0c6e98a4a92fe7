package dev.strata.cli.tftest;

import dev.strata.addr.AbsProviderConfig;
import dev.strata.addr.AbsResourceInstance;
import dev.strata.addr.ResourceMode;
import dev.strata.config.tftest.TestFile;
import dev.strata.config.tftest.TestFileDecoder;
import dev.strata.engine.Overrides;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Expression;
import dev.strata.hcl.IoProblems;
import dev.strata.hcl.Result;
import dev.strata.lang.eval.Evaluator;
import dev.strata.lang.eval.Scope;
import dev.strata.lang.value.Value;
import dev.strata.provider.Provider;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * The mock providers and overrides of one run: {@code mock_provider} blocks stand in for the provider
 * configurations they name (with the values of their {@code .tfmock.hcl} sources), and
 * {@code override_resource}/{@code override_data} blocks (the run's before the file's, the file's
 * before a mock provider's) for the instances they target.
 */
final class TestInterceptor implements Overrides {
    private record Mock(
            String name,
            String alias,
            Map<String, MockProvider.Values> resources,
            Map<String, MockProvider.Values> data,
            boolean duringPlan) {}

    private record Replacement(TestFile.OverrideKind kind, String target, MockProvider.Values values) {}

    private final List<Mock> mocks;
    private final List<Replacement> overrides;
    private final RunProviders providers;
    /** Where the test file's provider blocks are evaluated: its variables and the earlier runs' outputs. */
    private final Scope providerScope;
    /** For the destruction at the end of a file, which lifts {@code prevent_destroy}. */
    private final boolean cleanup;

    private TestInterceptor(
            List<Mock> mocks,
            List<Replacement> overrides,
            RunProviders providers,
            Scope providerScope,
            boolean cleanup) {
        this.mocks = mocks;
        this.overrides = overrides;
        this.providers = providers;
        this.providerScope = providerScope;
        this.cleanup = cleanup;
    }

    /** The same mocks, overrides and providers for destroying the run's state at the end of the file. */
    TestInterceptor forCleanup() {
        return new TestInterceptor(mocks, overrides, providers, providerScope, true);
    }

    @Override
    public boolean preventDestroy() {
        // As Terraform's test cleanup, destroy what the runs created even where the configuration forbids it.
        return !cleanup;
    }

    @Override
    public boolean ephemeralRootOutputs() {
        // The module under test may return ephemeral outputs for its runs to assert on (Terraform 1.12+).
        return true;
    }

    boolean isEmpty() {
        return mocks.isEmpty() && overrides.isEmpty();
    }

    /**
     * The interceptor for {@code run} of {@code file} executing {@code module}; sources are read
     * relative to {@code dir}, the file's provider blocks are evaluated in {@code providerScope}.
     */
    static Result<TestInterceptor> of(
            TestFile file, TestFile.Run run, Path dir, dev.strata.config.ModuleConfig module, Scope providerScope) {
        Diagnostics.Builder diags = Diagnostics.builder();
        Result<RunProviders> providers = RunProviders.of(file, run, module);
        diags.addAll(providers.diagnostics());
        List<Replacement> overrides = new ArrayList<>();
        for (TestFile.Override o : run.overrides()) {
            override(o, diags).ifPresent(overrides::add);
        }
        for (TestFile.Override o : file.overrides()) {
            override(o, diags).ifPresent(overrides::add);
        }
        List<Mock> mocks = new ArrayList<>();
        for (TestFile.MockProvider mp : file.mockProviders()) {
            Map<String, MockProvider.Values> resources = new HashMap<>();
            Map<String, MockProvider.Values> data = new HashMap<>();
            List<TestFile.MockDefaults> defaults = new ArrayList<>(mp.defaults());
            List<TestFile.Override> mockOverrides = new ArrayList<>(mp.overrides());
            if (mp.source() != null) {
                for (TestFile.MockProvider extra : sources(dir.resolve(mp.source()), mp, diags)) {
                    defaults.addAll(extra.defaults());
                    mockOverrides.addAll(extra.overrides());
                }
            }
            for (TestFile.MockDefaults d : defaults) {
                Map<String, MockProvider.Values> into = d.data() ? data : resources;
                if (into.containsKey(d.type())) {
                    continue; // the block's own come first, then the sources'
                }
                Map<String, Value> values = values(d.defaults(), "defaults", diags);
                if (values != null) {
                    into.put(d.type(), new MockProvider.Values(values, d.duringPlan()));
                }
            }
            for (TestFile.Override o : mockOverrides) {
                override(o, diags).ifPresent(overrides::add);
            }
            mocks.add(new Mock(mp.name(), mp.alias(), resources, data, mp.duringPlan()));
        }
        return Result.of(new TestInterceptor(mocks, overrides, providers.value(), providerScope, false), diags.build());
    }

    private static List<TestFile.MockProvider> sources(Path dir, TestFile.MockProvider mp, Diagnostics.Builder diags) {
        List<TestFile.MockProvider> out = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            diags.add(Diagnostic.error(
                    "Invalid mock provider source",
                    "The source directory " + mp.source() + " of mock_provider \"" + mp.name()
                            + "\" does not exist or is not a directory.",
                    mp.declRange()));
            return out;
        }
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> {
                        String n = p.getFileName().toString();
                        // Hidden files are not read, as Terraform skips them.
                        return !n.startsWith(".") && (n.endsWith(".tfmock.hcl") || n.endsWith(".tfmock.json"));
                    })
                    .sorted()
                    .toList();
        } catch (IOException e) {
            diags.add(Diagnostic.error(
                    "Invalid mock provider source",
                    "Could not list " + IoProblems.describe(dir, e) + ".",
                    mp.declRange()));
            return out;
        }
        for (Path f : files) {
            try {
                Result<TestFile.MockProvider> r = TestFileDecoder.decodeMockFile(
                        Files.readAllBytes(f), f.getFileName().toString(), mp.duringPlan());
                diags.addAll(r.diagnostics());
                if (r.value() != null) {
                    out.add(r.value());
                }
            } catch (IOException e) {
                diags.add(Diagnostic.error(
                        "Failed to read mock data file",
                        "Could not read " + IoProblems.describe(f, e) + ".",
                        mp.declRange()));
            }
        }
        return out;
    }

    private static java.util.Optional<Replacement> override(TestFile.Override o, Diagnostics.Builder diags) {
        Map<String, Value> values = values(o.values(), "values", diags);
        if (values == null) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(
                new Replacement(o.kind(), o.target(), new MockProvider.Values(values, o.duringPlan())));
    }

    /** An object of values (no references, functions allowed); null after reporting a problem. */
    private static Map<String, Value> values(Expression e, String what, Diagnostics.Builder diags) {
        if (e == null) {
            return Map.of();
        }
        if (!e.variables().isEmpty()) {
            diags.add(Diagnostic.error(
                    "Invalid " + what + " attribute",
                    "The " + what + " attribute must be an object of values; references are not allowed here.",
                    e.range()));
            return null;
        }
        Result<Value> v = new Evaluator(Scope.empty(TestVariables.FUNCTIONS)).evaluate(e);
        diags.addAll(v.diagnostics());
        if (v.hasErrors()) {
            return null;
        }
        Value x = v.value();
        if (!x.isKnownAndNotNull()
                || !(x.type() instanceof dev.strata.lang.types.ObjectType
                        || x.type() instanceof dev.strata.lang.types.MapType)) {
            diags.add(Diagnostic.error(
                    "Invalid " + what + " attribute", "The " + what + " attribute must be an object.", e.range()));
            return null;
        }
        return x.attributes();
    }

    @Override
    public Provider forConfiguration(AbsProviderConfig config, Provider provider) {
        // Mocks stand for child modules' own configurations by name too; provider blocks only for the root's.
        RunProviders.Ref target = config.module().isRoot()
                ? providers.target(config).orElse(null)
                : new RunProviders.Ref(config.provider().type(), config.alias());
        if (target == null) {
            return provider;
        }
        for (Mock m : mocks) {
            if (m.name().equals(target.name()) && Objects.equals(m.alias(), target.alias())) {
                return new MockProvider(provider, new MockProvider.Lookup() {
                    @Override
                    public MockProvider.Values resource(String type) {
                        return m.resources().getOrDefault(type, new MockProvider.Values(Map.of(), m.duringPlan()));
                    }

                    @Override
                    public MockProvider.Values data(String type) {
                        return m.data().getOrDefault(type, new MockProvider.Values(Map.of(), m.duringPlan()));
                    }
                });
            }
        }
        return provider;
    }

    /**
     * The problems of the references ({@code var.NAME}, {@code run.NAME}) in the provider blocks this
     * run is given, found before the run starts as Terraform does; the values themselves are decoded
     * with the provider's schema when the engine configures it.
     */
    Diagnostics checkProviderReferences(Scope scope) {
        Diagnostics.Builder diags = Diagnostics.builder();
        for (RunProviders.FileProvider fp : providers.used()) {
            List<dev.strata.hcl.Traversal> refs = new ArrayList<>();
            references(fp.config(), refs);
            for (dev.strata.hcl.Traversal t : refs) {
                if (t.rootName().equals("var") || t.rootName().equals("run")) {
                    diags.addAll(scope.resolve(t).diagnostics());
                }
            }
        }
        return diags.build();
    }

    private static void references(dev.strata.hcl.Body body, List<dev.strata.hcl.Traversal> into) {
        if (body instanceof dev.strata.hcl.syntax.SyntaxBody sb) {
            sb.attributes().forEach(a -> into.addAll(a.expr().variables()));
            sb.blocks().forEach(b -> references(b.body(), into));
            return;
        }
        var attrs = body.justAttributes();
        if (attrs.value() != null) {
            attrs.value().values().forEach(a -> into.addAll(a.expr().variables()));
        }
    }

    @Override
    public java.util.Optional<ProviderBlock> providerBlock(AbsProviderConfig config) {
        return providers
                .target(config)
                .flatMap(providers::block)
                .map(fp -> new ProviderBlock(fp.config(), providerScope));
    }

    @Override
    public java.util.Optional<Map<String, Value>> moduleOutputs(dev.strata.addr.ModuleInstance instance) {
        String exact = instance.toString();
        String whole = instance.module().toString();
        for (Replacement o : overrides) {
            if (o.kind() == TestFile.OverrideKind.MODULE
                    && (o.target().equals(exact) || o.target().equals(whole))) {
                return java.util.Optional.of(o.values().values());
            }
        }
        return java.util.Optional.empty();
    }

    @Override
    public Provider forInstance(AbsResourceInstance instance, Provider provider) {
        boolean data = instance.resource().resource().mode() == ResourceMode.DATA;
        String exact = instance.toString();
        String whole = instance.containingResource().toString();
        for (Replacement o : overrides) {
            if ((o.kind() == TestFile.OverrideKind.DATA) != data) {
                continue;
            }
            if (o.target().equals(exact) || o.target().equals(whole)) {
                return new MockProvider(provider, new MockProvider.Lookup() {
                    @Override
                    public MockProvider.Values resource(String type) {
                        return o.values();
                    }

                    @Override
                    public MockProvider.Values data(String type) {
                        return o.values();
                    }
                });
            }
        }
        return provider;
    }
}
