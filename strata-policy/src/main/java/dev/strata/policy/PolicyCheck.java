package dev.strata.policy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import dev.strata.hcl.Traversal;
import dev.strata.hcl.Traverser;
import dev.strata.lang.eval.Evaluator;
import dev.strata.lang.eval.Scope;
import dev.strata.lang.eval.TemplateFunctions;
import dev.strata.lang.funcs.FunctionContext;
import dev.strata.lang.funcs.FunctionTable;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.ConversionResult;
import dev.strata.lang.value.Convert;
import dev.strata.lang.value.Mark;
import dev.strata.lang.value.Value;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Checks a plan, given as Terraform's plan JSON, against a policy set: each resource change is
 * checked by the policies for its type and action, with {@code change} bound to the change (the
 * {@code resource_changes} element: {@code address}, {@code module_address}, {@code mode},
 * {@code type}, {@code name}, {@code index}, {@code provider_name}, {@code actions}, {@code action},
 * {@code before}, {@code after}) and {@code var} to the plan's input variables.
 */
public final class PolicyCheck {
    private PolicyCheck() {}

    public static PolicyReport check(PolicySet set, JsonNode plan, Path baseDir) {
        if (set.isEmpty()) {
            return new PolicyReport(0, 0, List.of(), Diagnostics.NONE);
        }
        FunctionTable functions = TemplateFunctions.builtins(FunctionContext.system(baseDir));
        Value vars = variables(plan);
        List<PolicyOutcome> outcomes = new ArrayList<>();
        int checks = 0;
        for (JsonNode rc : plan.path("resource_changes")) {
            String type = rc.path("type").asText();
            List<Policy> policies = set.forType(type);
            if (policies.isEmpty()) {
                continue;
            }
            List<String> actions = new ArrayList<>();
            rc.path("change").path("actions").forEach(a -> actions.add(a.asText()));
            Scope scope = null;
            for (Policy p : policies) {
                if (!p.checks(actions)) {
                    continue;
                }
                if (scope == null) {
                    scope = new ChangeScope(functions, rc, actions, vars);
                }
                checks++;
                PolicyOutcome o = checkOne(p, scope, rc.path("address").asText(), actions);
                if (o != null) {
                    outcomes.add(o);
                }
            }
        }
        return new PolicyReport(set.policies().size(), checks, outcomes, Diagnostics.NONE);
    }

    private static PolicyOutcome checkOne(Policy p, Scope scope, String address, List<String> actions) {
        String action = ChangeValues.action(actions);
        Result<Value> r = new Evaluator(scope).evaluate(p.condition());
        if (r.hasErrors()) {
            return outcome(p, address, action, PolicyOutcome.Status.ERRORED, firstError(r.diagnostics()));
        }
        ConversionResult b = Convert.convert(r.value().unmarkDeep(), Type.BOOL);
        if (!b.isOk()) {
            return outcome(
                    p,
                    address,
                    action,
                    PolicyOutcome.Status.ERRORED,
                    "The condition must be a bool (true or false); it is a "
                            + r.value().type().friendlyName() + ".");
        }
        if (!b.value().isKnown()) {
            return outcome(
                    p,
                    address,
                    action,
                    PolicyOutcome.Status.UNKNOWN,
                    "The condition depends on values known only after apply. A policy that cannot be decided "
                            + "is not passed; decide on values known at plan time (for example with can() or a "
                            + "null check on the attribute).");
        }
        if (b.value().isNull()) {
            return outcome(
                    p,
                    address,
                    action,
                    PolicyOutcome.Status.ERRORED,
                    "The condition is null; it must be true or false.");
        }
        if (b.value().asBool()) {
            return null;
        }
        return outcome(p, address, action, PolicyOutcome.Status.FAILED, message(p, scope));
    }

    private static String message(Policy p, Scope scope) {
        Result<Value> m = new Evaluator(scope).evaluate(p.errorMessage());
        if (m.hasErrors()) {
            return "(the error message could not be evaluated: " + firstError(m.diagnostics()) + ")";
        }
        Value v = m.value();
        if (v.hasMarkDeep(Mark.SENSITIVE)) {
            return "(the error message refers to sensitive values, so it is not shown)";
        }
        ConversionResult s = Convert.convert(v, Type.STRING);
        if (!s.isOk() || !s.value().isKnownAndNotNull()) {
            return "(the error message is not a known string)";
        }
        return s.value().asString();
    }

    private static PolicyOutcome outcome(
            Policy p, String address, String action, PolicyOutcome.Status status, String message) {
        return new PolicyOutcome(
                p.name(),
                p.enforcement(),
                address,
                action,
                status,
                message,
                p.condition().range());
    }

    private static String firstError(Diagnostics d) {
        for (Diagnostic x : d) {
            if (x.severity() == dev.strata.hcl.Severity.ERROR) {
                return x.summary() + (x.detail() == null || x.detail().isEmpty() ? "" : ": " + x.detail());
            }
        }
        return "unknown error";
    }

    static Value change(JsonNode rc, List<String> actions) {
        JsonNode c = rc.path("change");
        Map<String, Value> attrs = new TreeMap<>();
        for (String f : List.of("address", "module_address", "mode", "type", "name", "provider_name")) {
            JsonNode n = rc.get(f);
            attrs.put(f, n == null || n.isNull() ? Value.nullValue(Type.STRING) : Value.string(n.asText()));
        }
        attrs.put("index", ChangeValues.of(rc.get("index"), null, null));
        List<Value> as = new ArrayList<>();
        actions.forEach(a -> as.add(Value.string(a)));
        attrs.put("actions", Value.list(Type.STRING, as));
        attrs.put("action", Value.string(ChangeValues.action(actions)));
        attrs.put("before", ChangeValues.of(c.get("before"), null, c.get("before_sensitive")));
        attrs.put("after", ChangeValues.of(c.get("after"), c.get("after_unknown"), c.get("after_sensitive")));
        return Value.object(attrs);
    }

    /** {@code var}: the plan's variables, those the root module declares sensitive marked so. */
    static Value variables(JsonNode plan) {
        JsonNode declared = plan.path("configuration").path("root_module").path("variables");
        Map<String, Value> vars = new TreeMap<>();
        Iterator<Map.Entry<String, JsonNode>> it = plan.path("variables").fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            boolean sensitive = declared.path(e.getKey()).path("sensitive").asBoolean(false);
            Value v = ChangeValues.of(e.getValue().get("value"), null, null);
            vars.put(e.getKey(), sensitive ? v.mark(Mark.SENSITIVE) : v);
        }
        return Value.object(vars);
    }

    /**
     * {@code change} and {@code var} for one resource change. A reference into {@code change.before}
     * or {@code change.after} converts only the part of the plan JSON it names (a policy usually reads
     * one attribute of objects with many), keeping the unknown and sensitive marks of the levels above;
     * the whole {@code change} object is built only when a policy refers to it as a whole.
     */
    private static final class ChangeScope implements Scope {
        private final FunctionTable functions;
        private final JsonNode rc;
        private final List<String> actions;
        private final Value vars;
        private Value whole;

        ChangeScope(FunctionTable functions, JsonNode rc, List<String> actions, Value vars) {
            this.functions = functions;
            this.rc = rc;
            this.actions = actions;
            this.vars = vars;
        }

        @Override
        public Result<Resolved> resolve(Traversal t) {
            String root = t.rootName();
            if ("var".equals(root)) {
                return Result.of(new Resolved(vars, 1));
            }
            if (!"change".equals(root)) {
                return Result.of(
                        new Resolved(Value.DYNAMIC_UNKNOWN, 1),
                        Diagnostics.of(Diagnostic.error(
                                "Reference to undeclared name",
                                "A policy can refer only to change and var.",
                                t.rootRange())));
            }
            List<Traverser> steps = t.steps();
            if (steps.size() > 1
                    && steps.get(1) instanceof Traverser.Attr a
                    && (a.name().equals("before") || a.name().equals("after"))) {
                return Result.of(objectPart(a.name(), steps));
            }
            if (whole == null) {
                whole = change(rc, actions);
            }
            return Result.of(new Resolved(whole, 1));
        }

        private Resolved objectPart(String which, List<Traverser> steps) {
            JsonNode c = rc.path("change");
            JsonNode node = c.get(which);
            JsonNode unknown = which.equals("after") ? c.get("after_unknown") : null;
            JsonNode sensitive = c.get(which + "_sensitive");
            boolean sensitiveAbove = false;
            int consumed = 2;
            for (int i = 2; i < steps.size(); i++) {
                if (!(steps.get(i) instanceof Traverser.Attr a)
                        || node == null
                        || !node.isObject()
                        || !node.has(a.name())
                        || (unknown != null && unknown.isBoolean() && unknown.asBoolean())) {
                    break;
                }
                sensitiveAbove |= sensitive != null && sensitive.isBoolean() && sensitive.asBoolean();
                node = node.get(a.name());
                unknown = unknown != null && unknown.isObject() ? unknown.get(a.name()) : null;
                sensitive = sensitive != null && sensitive.isObject() ? sensitive.get(a.name()) : null;
                consumed++;
            }
            Value v = ChangeValues.of(node, unknown, sensitive);
            return new Resolved(sensitiveAbove ? v.mark(Mark.SENSITIVE) : v, consumed);
        }

        @Override
        public FunctionTable functions() {
            return functions;
        }
    }
}
