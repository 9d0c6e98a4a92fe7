package dev.strata.cli.tftest;

import dev.strata.addr.AbsProviderConfig;
import dev.strata.config.ModuleConfig;
import dev.strata.config.tftest.TestFile;
import dev.strata.hcl.Attribute;
import dev.strata.hcl.AttributeSchema;
import dev.strata.hcl.Block;
import dev.strata.hcl.Body;
import dev.strata.hcl.BodySchema;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Expression;
import dev.strata.hcl.Result;
import dev.strata.hcl.Traversal;
import dev.strata.hcl.Traverser;
import dev.strata.lang.eval.Evaluator;
import dev.strata.lang.eval.Scope;
import dev.strata.lang.value.Value;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Which of a test file's {@code provider} and {@code mock_provider} blocks stand for the provider
 * configurations of the module a run executes: by default each block for the root module's
 * configuration of the same name and alias, or, when the run has a {@code providers} attribute, only
 * the ones it maps ({@code providers = { test = test.setup }}), as Terraform passes providers to a run.
 */
final class RunProviders {
    /** A provider configuration as written: local name and alias (null for the default one). */
    record Ref(String name, String alias) {
        @Override
        public String toString() {
            return alias == null ? name : name + "." + alias;
        }
    }

    /** A test file's provider block: the configuration it stands for and its body without meta-arguments. */
    record FileProvider(Ref ref, Body config, Block block) {}

    private static final BodySchema META =
            new BodySchema(List.of(AttributeSchema.optional("alias"), AttributeSchema.optional("version")), List.of());

    private final Map<Ref, Ref> mapping;
    private final Map<Ref, FileProvider> blocks;
    private final ModuleConfig module;

    private RunProviders(Map<Ref, Ref> mapping, Map<Ref, FileProvider> blocks, ModuleConfig module) {
        this.mapping = mapping;
        this.blocks = blocks;
        this.module = module;
    }

    /**
     * The providers of {@code run} executing {@code module} (its root module); a reference to a
     * provider the file does not define is an error.
     */
    static Result<RunProviders> of(TestFile file, TestFile.Run run, ModuleConfig module) {
        Diagnostics.Builder diags = Diagnostics.builder();
        Map<Ref, FileProvider> blocks = new LinkedHashMap<>();
        for (Block b : file.providers()) {
            FileProvider fp = fileProvider(b, diags);
            if (fp != null) {
                blocks.put(fp.ref(), fp);
            }
        }
        Map<Ref, Ref> mapping = null;
        if (run.providers() != null) {
            mapping = new LinkedHashMap<>();
            Optional<List<Expression.KeyValue>> entries = run.providers().asMap();
            if (entries.isEmpty()) {
                diags.add(Diagnostic.error(
                        "Invalid providers argument",
                        "The providers argument must be a map of provider configuration references.",
                        run.providers().range()));
            } else {
                for (Expression.KeyValue kv : entries.get()) {
                    Ref key = ref(kv.key(), diags);
                    Ref value = ref(kv.value(), diags);
                    if (key == null || value == null) {
                        continue;
                    }
                    boolean defined = blocks.containsKey(value)
                            || file.mockProviders().stream()
                                    .anyMatch(m ->
                                            m.name().equals(value.name()) && Objects.equals(m.alias(), value.alias()));
                    if (!defined) {
                        diags.add(Diagnostic.error(
                                "Missing provider definition for " + value,
                                "This provider block references a provider definition that does not exist.",
                                kv.value().range()));
                        continue;
                    }
                    mapping.put(key, value);
                }
            }
        }
        return Result.of(new RunProviders(mapping, blocks, module), diags.build());
    }

    private static FileProvider fileProvider(Block b, Diagnostics.Builder diags) {
        Result<Body.PartialContent> meta = b.body().partialContent(META);
        diags.addAll(meta.diagnostics());
        if (meta.value() == null) {
            return null;
        }
        String alias = null;
        Attribute a = meta.value().content().attributes().get("alias");
        if (a != null) {
            Result<Value> v = new Evaluator(Scope.empty(TestVariables.FUNCTIONS)).evaluate(a.expr());
            if (v.hasErrors()
                    || !v.value().isKnownAndNotNull()
                    || !v.value().type().isPrimitive()) {
                diags.add(Diagnostic.error(
                        "Invalid provider configuration alias",
                        "An alias must be a valid name. A name must start with a letter or underscore and may "
                                + "contain only letters, digits, underscores, and dashes.",
                        a.expr().range()));
                return null;
            }
            alias = v.value().asString();
        }
        return new FileProvider(
                new Ref(b.labels().getFirst(), alias), meta.value().remain(), b);
    }

    /** {@code NAME} or {@code NAME.ALIAS}; null after reporting anything else. */
    private static Ref ref(Expression e, Diagnostics.Builder diags) {
        Result<Optional<Traversal>> t = e.asTraversal();
        if (t.value() != null && t.value().isPresent()) {
            List<Traverser> steps = t.value().get().steps();
            if (steps.size() == 1) {
                return new Ref(t.value().get().rootName(), null);
            }
            if (steps.size() == 2 && steps.get(1) instanceof Traverser.Attr at) {
                return new Ref(t.value().get().rootName(), at.name());
            }
        }
        diags.add(Diagnostic.error(
                "Invalid provider configuration reference",
                "The providers argument requires a provider type name, optionally followed by a period and "
                        + "then a configuration alias.",
                e.range()));
        return null;
    }

    /**
     * The test file's provider configuration standing for {@code config}, if any: only the root
     * module's configurations are given (child modules inherit or receive them through the root's).
     */
    Optional<Ref> target(AbsProviderConfig config) {
        if (!config.module().isRoot()) {
            return Optional.empty();
        }
        if (mapping == null) {
            // Without a providers argument, each definition stands for the configuration of its own name.
            Ref direct = null;
            for (Ref r : blocks.keySet()) {
                if (matches(r, config)) {
                    direct = r;
                }
            }
            return Optional.ofNullable(direct).or(() -> Optional.of(implicit(config)));
        }
        for (Map.Entry<Ref, Ref> e : mapping.entrySet()) {
            if (matches(e.getKey(), config)) {
                return Optional.of(e.getValue());
            }
        }
        return Optional.empty();
    }

    /** The provider blocks this run is given: the ones its providers argument maps, else all of the file's. */
    List<FileProvider> used() {
        if (mapping == null) {
            return List.copyOf(blocks.values());
        }
        return mapping.values().stream()
                .distinct()
                .map(blocks::get)
                .filter(Objects::nonNull)
                .toList();
    }

    /** The file's provider block for {@code ref}, if it has one. */
    Optional<FileProvider> block(Ref ref) {
        return Optional.ofNullable(blocks.get(ref));
    }

    /** The name a configuration has by default: the provider's type and the configuration's alias. */
    private Ref implicit(AbsProviderConfig config) {
        String name = module.requiredProviders().values().stream()
                .filter(rp -> rp.source().equals(config.provider()))
                .map(dev.strata.config.RequiredProvider::name)
                .findFirst()
                .orElse(config.provider().type());
        return new Ref(name, config.alias());
    }

    private boolean matches(Ref r, AbsProviderConfig config) {
        return module.providerFor(r.name()).equals(config.provider()) && Objects.equals(r.alias(), config.alias());
    }
}
