package dev.strata.engine;

import dev.strata.addr.AbsProviderConfig;
import dev.strata.addr.ResourceMode;
import dev.strata.config.ConfigNode;
import dev.strata.config.ConfigTree;
import dev.strata.config.ProviderConfig;
import dev.strata.config.ResourceConfig;
import dev.strata.engine.graph.DagWalker;
import dev.strata.engine.graph.DependencyGraph;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import dev.strata.hcl.SourceRange;
import dev.strata.lang.eval.Scope;
import dev.strata.lang.eval.TemplateFunctions;
import dev.strata.lang.funcs.FunctionContext;
import dev.strata.lang.funcs.FunctionTable;
import dev.strata.lang.value.Value;
import dev.strata.provider.Block;
import dev.strata.provider.Provider;
import dev.strata.provider.ProviderDiagnostic;
import dev.strata.provider.ProviderDiagnostics;
import dev.strata.provider.ProviderSchema;
import dev.strata.provider.Schema;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The checks of {@code validate} that need providers: every provider block, resource and data
 * source is decoded against its provider's schema (unsupported and missing arguments, blocks,
 * constant values of the wrong type) and then given to the provider's own validation. As in
 * Terraform, this walks the validate graph: an object whose check fails skips everything that
 * depends on it, and each module is checked once per call that brings it in.
 */
final class SchemaValidation {
    private final Wiring wiring;

    SchemaValidation(Wiring wiring) {
        this.wiring = wiring;
    }

    /** Validates a configuration whose static checks already ran; returns only this walk's diagnostics. */
    Diagnostics validate(Path workingDir) {
        ConfigTree tree = wiring.config();
        DependencyGraph<Node> graph = wiring.graph();
        Diagnostics cycles = graph.checkCycles(Node::cycleName);
        if (cycles.hasErrors()) {
            return cycles;
        }
        Map<Node, List<Diagnostic>> found = new ConcurrentHashMap<>();
        SortedMap<Node, DagWalker.Outcome<Node>> outcomes;
        try (ProviderPool pool = wiring.pool(workingDir)) {
            // timestamp(), uuid() and bcrypt() are unknown while validating, as in terraform validate.
            FunctionTable builtins = TemplateFunctions.planning(FunctionContext.system(workingDir));
            // Each module calls the provider functions of its own required_providers names.
            Map<dev.strata.addr.Module, FunctionTable> tables = new ConcurrentHashMap<>();
            ValidateData.Shared shared = new ValidateData.Shared(
                    tree,
                    pool,
                    m -> tables.computeIfAbsent(
                            m,
                            x -> pool.functions.table(
                                    tree.node(x).orElse(tree.root()).module(), builtins)),
                    workingDir);
            outcomes = new DagWalker<>(graph, 4)
                    .walk(
                            n -> {
                                List<Diagnostic> ds = visit(n, tree, pool, shared);
                                if (!ds.isEmpty()) {
                                    found.put(n, ds);
                                }
                                return ds.stream().anyMatch(Diagnostic::isError)
                                        ? new DagWalker.Outcome.Failed<>(n.display())
                                        : new DagWalker.Outcome.Succeeded<>();
                            },
                            () -> false);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Diagnostics.of(Diagnostic.error(
                    "Validation interrupted", "Validation was interrupted before it " + "finished.", null));
        }
        Diagnostics.Builder out = Diagnostics.builder();
        for (Map.Entry<Node, DagWalker.Outcome<Node>> e : outcomes.entrySet()) {
            List<Diagnostic> ds = found.getOrDefault(e.getKey(), List.of());
            ds.forEach(out::add);
            // A visit that threw reported nothing itself: its failure must still be seen.
            if (e.getValue() instanceof DagWalker.Outcome.Failed<Node> f
                    && ds.stream().noneMatch(Diagnostic::isError)) {
                out.add(InternalErrors.of("validating", e.getKey().display(), f.reason()));
            }
        }
        return out.build();
    }

    private List<Diagnostic> visit(Node n, ConfigTree tree, ProviderPool pool, ValidateData.Shared shared) {
        return switch (n) {
            case Node.ProviderNode p -> provider(p.config(), tree, pool, shared);
            case Node.ResourceNode r -> resource(r, tree, pool, shared);
            case Node.VariableNode v -> moduleInput(v, tree, shared);
            case Node.VariableValidationNode v -> List.of();
            case Node.DestroyNode d -> List.of();
            case Node.LocalNode l -> List.of();
            case Node.OutputNode o -> output(o, tree, shared);
            case Node.ModuleCallNode c -> List.of();
            case Node.ModuleCloseNode c -> List.of();
            case Node.CheckNode c -> List.of();
        };
    }

    /** An output's value: ephemeral only where the declaration says so, and never in the root module. */
    private static List<Diagnostic> output(Node.OutputNode o, ConfigTree tree, ValidateData.Shared shared) {
        ConfigNode node = tree.node(o.module()).orElseThrow();
        dev.strata.config.OutputConfig oc = node.module().outputs().get(o.name());
        if (oc.ephemeral() && o.module().isRoot()) {
            return shared.providers().ephemeralRootOutputs()
                    ? List.of()
                    : List.of(Ephemerals.rootOutput(oc.declRange()));
        }
        Result<Value> r =
                new dev.strata.lang.eval.Evaluator(ValidateData.scope(shared, node, false, false)).evaluate(oc.value());
        Diagnostic d = r.hasErrors()
                ? null
                : Ephemerals.checkOutput(oc.ephemeral(), r.value(), oc.value().range());
        return d == null ? List.of() : List.of(d);
    }

    /** A module input set from an ephemeral value must be declared ephemeral. */
    private static List<Diagnostic> moduleInput(Node.VariableNode v, ConfigTree tree, ValidateData.Shared shared) {
        if (v.module().isRoot()) {
            return List.of();
        }
        ConfigNode node = tree.node(v.module()).orElseThrow();
        dev.strata.config.VariableConfig vc = node.module().variables().get(v.name());
        dev.strata.hcl.Attribute a = node.call().inputs().get(v.name());
        ConfigNode parent = tree.node(v.module().parent()).orElse(null);
        if (vc == null || a == null || parent == null) {
            return List.of();
        }
        Scope scope = ValidateData.scope(
                shared, parent, node.call().count() != null, node.call().forEach() != null);
        Result<Value> r = new dev.strata.lang.eval.Evaluator(scope).evaluate(a.expr());
        Diagnostic d = r.hasErrors()
                ? null
                : Ephemerals.checkInput(vc.ephemeral(), r.value(), a.expr().range());
        return d == null ? List.of() : List.of(d);
    }

    private List<Diagnostic> provider(
            AbsProviderConfig cfg, ConfigTree tree, ProviderPool pool, ValidateData.Shared shared) {
        Result<Provider> r = pool.get(tree, cfg);
        List<Diagnostic> out = new ArrayList<>();
        if (r.value() == null) {
            out.addAll(r.diagnostics().asList());
            return out;
        }
        ProviderConfig pc = GraphBuilder.providerConfig(tree, cfg);
        if (pc == null) {
            // An implied configuration has nothing written to check, as in Terraform.
            return out;
        }
        ConfigNode node = tree.node(cfg.module()).orElse(tree.root());
        Block schema = pool.schema(cfg).provider().block();
        Result<Value> decoded = BodyDecoder.decode(pc.config(), schema, ValidateData.scope(shared, node, false, false));
        out.addAll(decoded.diagnostics().asList());
        if (!decoded.hasErrors()) {
            report(r.value().validateProviderConfig(decoded.value()), pc.config(), schema, pc.declRange(), null, out);
        }
        return out;
    }

    private List<Diagnostic> resource(
            Node.ResourceNode rn, ConfigTree tree, ProviderPool pool, ValidateData.Shared shared) {
        ConfigNode node = tree.node(rn.module()).orElseThrow();
        ResourceConfig rc = node.module().resources().get(rn.resource());
        AbsProviderConfig cfg = GraphBuilder.providerOf(tree, node, rc);
        Provider provider = pool.configured(cfg);
        ProviderSchema ps = pool.schema(cfg);
        List<Diagnostic> out = new ArrayList<>();
        if (provider == null || ps == null) {
            return out;
        }
        Schema s = Walk.schemaOf(ps, rn.resource());
        if (s == null) {
            out.add(Walk.unsupportedType(
                    cfg.provider(),
                    rn.resource(),
                    rn.resource().mode() == ResourceMode.EPHEMERAL ? rc.declRange() : rc.typeRange()));
            return out;
        }
        out.addAll(RedundantIgnoreChanges.of(rc, s.block()));
        Scope scope = ValidateData.scope(shared, node, rc.count() != null, rc.forEach() != null);
        // Instance keys are persisted, so count and for_each may not come from ephemeral values.
        for (dev.strata.hcl.Expression e : java.util.Arrays.asList(rc.count(), rc.forEach())) {
            if (e == null) {
                continue;
            }
            Result<Value> rv =
                    new dev.strata.lang.eval.Evaluator(ValidateData.scope(shared, node, false, false)).evaluate(e);
            if (!rv.hasErrors() && rv.value().hasMarkDeep(dev.strata.lang.value.Mark.EPHEMERAL)) {
                dev.strata.config.Repetition rep = e == rc.count()
                        ? dev.strata.config.Repetition.checkCount(rv.value(), e.range())
                        : dev.strata.config.Repetition.checkForEach(rv.value(), e.range());
                if (rep instanceof dev.strata.config.Repetition.Invalid inv) {
                    out.add(inv.diagnostic(e, ValidateData.scope(shared, node, false, false)));
                }
            }
        }
        Result<Value> decoded = BodyDecoder.decode(rc.config(), s.block(), scope);
        out.addAll(decoded.diagnostics().asList());
        if (!decoded.hasErrors()) {
            int before = out.size();
            if (rn.resource().mode() != ResourceMode.EPHEMERAL) {
                // An ephemeral resource's own arguments may hold ephemeral values: nothing of it is persisted.
                Ephemerals.checkResourceArguments(rc.config(), s.block(), decoded.value(), rc.declRange(), out);
            }
            if (out.size() > before) {
                return out;
            }
            String type = rn.resource().type();
            ProviderDiagnostics pd = switch (rn.resource().mode()) {
                case MANAGED -> provider.validateResourceConfig(type, decoded.value());
                case DATA -> provider.validateDataResourceConfig(type, decoded.value());
                case EPHEMERAL -> provider.validateEphemeralResourceConfig(type, decoded.value());
            };
            // As Terraform: a finding that names no argument (or one not written) is shown at the block's body.
            report(pd, rc.config(), s.block(), rc.config().missingItemRange(), rn.display(), out);
        }
        return out;
    }

    /**
     * A provider's findings about the resource at {@code address}, each at the argument it names when the
     * configuration has it there.
     */
    private static void report(
            ProviderDiagnostics pd,
            dev.strata.hcl.Body body,
            Block schema,
            SourceRange at,
            String address,
            List<Diagnostic> out) {
        for (ProviderDiagnostic d : pd) {
            SourceRange where = d.attribute() == null ? null : PathRanges.find(body, schema, d.attribute());
            out.add(d.toDiagnostic(where != null ? where : at).withAddress(address));
        }
    }
}
