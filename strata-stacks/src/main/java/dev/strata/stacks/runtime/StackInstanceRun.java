package dev.strata.stacks.runtime;

import dev.strata.addr.InstanceKey;
import dev.strata.hcl.Attribute;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Expression;
import dev.strata.hcl.Result;
import dev.strata.hcl.SourceRange;
import dev.strata.lang.eval.Evaluator;
import dev.strata.lang.eval.Scope;
import dev.strata.lang.value.ConversionResult;
import dev.strata.lang.value.Mark;
import dev.strata.lang.value.Value;
import dev.strata.stacks.addr.ComponentAddr;
import dev.strata.stacks.addr.ComponentInstanceAddr;
import dev.strata.stacks.addr.ProviderConfigAddr;
import dev.strata.stacks.addr.StackInstance;
import dev.strata.stacks.config.ComponentConfig;
import dev.strata.stacks.config.EmbeddedStackConfig;
import dev.strata.stacks.config.ProviderBlock;
import dev.strata.stacks.config.StackConfig;
import dev.strata.stacks.config.StackLocal;
import dev.strata.stacks.config.StackOutput;
import dev.strata.stacks.config.StackType;
import dev.strata.stacks.config.StackVariable;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One instance of a stack (the root stack, or one instance of an embedded {@code stack} block) in one
 * phase: the dynamic objects its configuration declares, each created once here (its managing parent)
 * and each value computed once and shared. Values of objects that failed are unknown placeholders, so
 * that what depends on them unwinds without repeating the error: every object reports its own
 * problems once, when it is computed.
 */
final class StackInstanceRun {
    final DeploymentRun run;
    final StackConfig config;
    final StackInstance addr;
    private final Map<String, Value> inputs;
    private final StackScope scope = new StackScope(this);

    private final Memo<String, Value> variables = new Memo<>();
    private final Memo<String, Value> locals = new Memo<>();
    private final Memo<String, Expansion> componentExpansions = new Memo<>();
    private final Memo<ProviderConfigAddr, Expansion> providerExpansions = new Memo<>();
    private final Memo<String, Value> providerConfigs = new Memo<>();
    private final Memo<String, Expansion> callExpansions = new Memo<>();
    private final Memo<String, StackInstanceRun> children = new Memo<>();
    private final Memo<String, Value> outputs = new Memo<>();

    StackInstanceRun(DeploymentRun run, StackConfig config, StackInstance addr, Map<String, Value> inputs) {
        this.run = run;
        this.config = config;
        this.addr = addr;
        this.inputs = Map.copyOf(inputs);
    }

    Scope scope() {
        return scope;
    }

    /** The scope of an object with {@code for_each}: {@code each.key} and {@code each.value} bound. */
    Scope scope(InstanceKey key, Value each) {
        if (key instanceof InstanceKey.StringKey sk) {
            return Scope.binding(scope, Map.of("each", Value.objectOf("key", Value.string(sk.key()), "value", each)));
        }
        return scope;
    }

    Value eval(Expression e, Scope in) {
        if (e == null) {
            return Value.NULL;
        }
        Result<Value> r = new Evaluator(in).evaluate(e);
        run.report(r.diagnostics());
        return r.hasErrors() ? Value.DYNAMIC_UNKNOWN : r.value();
    }

    // ---- variables and locals ----

    Result<Value> variable(String name, SourceRange at) {
        StackVariable v = config.variables().get(name);
        if (v == null) {
            return undeclared(
                    "input variable", "var", name, at, config.variables().keySet());
        }
        return Result.of(variables.get(name, () -> computeVariable(v)));
    }

    private Value computeVariable(StackVariable v) {
        Value given = inputs.get(v.name());
        if (given == null || given.isNull() && !v.nullable()) {
            if (v.defaultExpr() != null) {
                given = eval(v.defaultExpr(), Scope.empty(run.functions));
            } else if (given == null) {
                run.report(Diagnostics.of(Diagnostic.error(
                        "No value for required variable",
                        "The root input variable \"var." + v.name() + "\" is not set, and has no default value."
                                + " Give it a value in the deployment's inputs.",
                        v.declRange())));
                return Value.DYNAMIC_UNKNOWN;
            }
        }
        Value out = given;
        if (v.type() instanceof StackType.Value tv && given.isKnown()) {
            ConversionResult c = tv.constraint().convert(given);
            if (c instanceof ConversionResult.Failed f) {
                run.report(Diagnostics.of(Diagnostic.error(
                        "Invalid value for input variable",
                        "The given value is not suitable for var." + v.name() + ": " + f.message() + ".",
                        v.declRange())));
                return Value.DYNAMIC_UNKNOWN;
            }
            out = c.value();
        }
        return v.sensitive() ? out.mark(Mark.SENSITIVE) : out;
    }

    Result<Value> local(String name, SourceRange at) {
        StackLocal l = config.locals().get(name);
        if (l == null) {
            return undeclared("local value", "local", name, at, config.locals().keySet());
        }
        return Result.of(locals.get(name, () -> eval(l.expr(), scope)));
    }

    // ---- components ----

    ComponentAddr componentAddr(String name) {
        return new ComponentAddr(addr, name);
    }

    Expansion componentExpansion(ComponentConfig c) {
        return componentExpansions.get(c.name(), () -> {
            Result<Expansion> r = Expansion.of(c.forEach(), scope);
            run.report(r.diagnostics());
            return r.value();
        });
    }

    Result<Value> componentValue(String name, SourceRange at) {
        ComponentConfig c = config.components().get(name);
        if (c == null) {
            return undeclared(
                    "component", "component", name, at, config.components().keySet());
        }
        Expansion e = componentExpansion(c);
        if (!e.known()) {
            return Result.of(Value.DYNAMIC_UNKNOWN);
        }
        if (!e.keyed()) {
            return Result.of(
                    run.component(this, c, InstanceKey.NONE, Value.NULL).outputs());
        }
        SortedMap<String, Value> byKey = new TreeMap<>();
        e.instances()
                .forEach((k, each) -> byKey.put(
                        ((InstanceKey.StringKey) k).key(),
                        run.component(this, c, k, each).outputs()));
        return Result.of(Value.object(byKey));
    }

    ComponentInstanceAddr instanceAddr(ComponentConfig c, InstanceKey key) {
        return componentAddr(c.name()).instance(key);
    }

    // ---- providers ----

    /**
     * A reference to a provider configuration: a string naming one instance, which only the component
     * that receives it resolves ({@link DeploymentRun#providerConfig}); for a block with
     * {@code for_each}, a map of those by key.
     */
    Value providerValue(String type, String name, SourceRange at) {
        ProviderConfigAddr pa = new ProviderConfigAddr(type, name);
        ProviderBlock b = config.providers().get(pa);
        if (b == null) {
            run.report(Diagnostics.of(Diagnostic.error(
                    "Reference to undeclared provider configuration",
                    "There is no provider \"" + type + "\" \"" + name + "\" block in this stack.",
                    at)));
            return Value.DYNAMIC_UNKNOWN;
        }
        Expansion e = providerExpansions.get(pa, () -> {
            Result<Expansion> r = Expansion.of(b.forEach(), scope);
            run.report(r.diagnostics());
            return r.value();
        });
        if (!e.known()) {
            return Value.DYNAMIC_UNKNOWN;
        }
        if (!e.keyed()) {
            return Value.string(run.registerProvider(this, b, InstanceKey.NONE, Value.NULL));
        }
        SortedMap<String, Value> byKey = new TreeMap<>();
        e.instances()
                .forEach((k, each) -> byKey.put(
                        ((InstanceKey.StringKey) k).key(), Value.string(run.registerProvider(this, b, k, each))));
        return Value.object(byKey);
    }

    /** The configuration of one provider instance: its {@code config} block evaluated, once. */
    Value providerConfig(ProviderBlock b, InstanceKey key, Value each) {
        return providerConfigs.get(b.addr() + key.toString(), () -> {
            if (b.config() == null) {
                return Value.EMPTY_OBJECT;
            }
            Scope s = scope(key, each);
            // The provider's schema says which arguments exist (an unknown one is an error at its range, as
            // in Terraform) and how nested blocks are gathered.
            Result<dev.strata.provider.Block> schema = run.providerConfigSchema(b.provider());
            if (schema.value() != null) {
                Result<Value> decoded = ProviderConfigBody.decode(b.config(), schema.value(), a -> eval(a.expr(), s));
                run.report(decoded.diagnostics());
                return decoded.hasErrors() ? Value.DYNAMIC_UNKNOWN : decoded.value();
            }
            Result<Map<String, Attribute>> attrs = b.config().justAttributes();
            if (attrs.hasErrors()) {
                run.report(schema.diagnostics());
                return Value.DYNAMIC_UNKNOWN;
            }
            // Without the schema, arguments only: the engine reports why the provider is missing when it
            // starts it.
            run.report(attrs.diagnostics());
            Map<String, Value> out = new LinkedHashMap<>();
            attrs.value().forEach((n, a) -> out.put(n, eval(a.expr(), s)));
            return Value.object(out);
        });
    }

    // ---- embedded stacks ----

    Expansion callExpansion(EmbeddedStackConfig call) {
        return callExpansions.get(call.name(), () -> {
            Result<Expansion> r = Expansion.of(call.forEach(), scope);
            run.report(r.diagnostics());
            return r.value();
        });
    }

    StackInstanceRun child(EmbeddedStackConfig call, InstanceKey key, Value each) {
        return children.get(call.name() + key, () -> {
            Value in = eval(call.inputs(), scope(key, each));
            Map<String, Value> given = new TreeMap<>();
            if (in.isKnown() && !in.isNull()) {
                given.putAll(in.attributes());
            }
            return new StackInstanceRun(run, call.stack(), addr.child(call.name(), key), given);
        });
    }

    Result<Value> stackCallValue(String name, SourceRange at) {
        EmbeddedStackConfig call = config.embeddedStacks().get(name);
        if (call == null) {
            return undeclared(
                    "embedded stack", "stack", name, at, config.embeddedStacks().keySet());
        }
        Expansion e = callExpansion(call);
        if (!e.known()) {
            return Result.of(Value.DYNAMIC_UNKNOWN);
        }
        if (!e.keyed()) {
            return Result.of(child(call, InstanceKey.NONE, Value.NULL).outputValues());
        }
        SortedMap<String, Value> byKey = new TreeMap<>();
        e.instances()
                .forEach((k, each) -> byKey.put(
                        ((InstanceKey.StringKey) k).key(), child(call, k, each).outputValues()));
        return Result.of(Value.object(byKey));
    }

    // ---- outputs ----

    Value output(StackOutput o) {
        return outputs.get(o.name(), () -> {
            Value v = eval(o.value(), scope);
            if (o.type() instanceof StackType.Value tv && v.isKnown()) {
                ConversionResult c = tv.constraint().convert(v);
                if (c instanceof ConversionResult.Failed f) {
                    run.report(Diagnostics.of(Diagnostic.error(
                            "Invalid output value",
                            "The value of output \"" + o.name() + "\" is not suitable: " + f.message() + ".",
                            o.declRange())));
                    return Value.DYNAMIC_UNKNOWN;
                }
                v = c.value();
            }
            return o.sensitive() ? v.mark(Mark.SENSITIVE) : v;
        });
    }

    Value outputValues() {
        SortedMap<String, Value> out = new TreeMap<>();
        config.outputs().values().forEach(o -> out.put(o.name(), output(o)));
        return Value.object(out);
    }

    private static Result<Value> undeclared(
            String what, String prefix, String name, SourceRange at, java.util.Set<String> declared) {
        String hint = declared.isEmpty()
                ? ""
                : " Declared: "
                        + String.join(
                                ", ",
                                declared.stream().map(n -> prefix + "." + n).toList()) + ".";
        return Result.of(
                Value.DYNAMIC_UNKNOWN,
                Diagnostics.of(Diagnostic.error(
                        "Reference to undeclared " + what,
                        "There is no " + what + " named \"" + name + "\" in this stack." + hint,
                        at)));
    }
}
