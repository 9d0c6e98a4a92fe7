package dev.strata.stacks.runtime;

import dev.strata.engine.PlanMode;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import dev.strata.lang.value.Value;
import dev.strata.state.StateManager;
import dev.strata.state.StateSnapshot;
import java.util.List;
import java.util.SortedMap;

/**
 * One deployment opened under its lock: plan it, apply a plan, read what its state holds. Closing
 * releases the lock.
 */
public final class DeploymentSession implements AutoCloseable {
    private final StackRuntime runtime;
    private final String deployment;
    private final DeploymentStore store;
    private final StateManager stackState;

    DeploymentSession(StackRuntime runtime, String deployment, DeploymentStore store, StateManager stackState) {
        this.runtime = runtime;
        this.deployment = deployment;
        this.store = store;
        this.stackState = stackState;
    }

    public String deployment() {
        return deployment;
    }

    public DeploymentStore store() {
        return store;
    }

    /**
     * Plans the deployment: {@code destroy} (or the deployment's {@code destroy = true}) plans to destroy
     * everything it has, in reverse dependency order.
     */
    public DeploymentPlan plan(boolean destroy, StackEvents events) {
        Result<SortedMap<String, Value>> inputs = runtime.inputs(deployment);
        Result<Boolean> destroyAll = runtime.destroyRequested(deployment);
        Diagnostics early = inputs.diagnostics().with(destroyAll.diagnostics());
        PlanMode mode = destroy || Boolean.TRUE.equals(destroyAll.value()) ? PlanMode.DESTROY : PlanMode.NORMAL;
        if (early.hasErrors()) {
            return new DeploymentPlan(deployment, mode, inputs.value(), List.of(), new java.util.TreeMap<>(), early);
        }
        DeploymentRun run =
                runtime.run(deployment, DeploymentRun.Phase.PLAN, mode, store, events, inputs.value(), null, false);
        DeploymentPlan p = run.plan(inputs.value());
        return early.isEmpty()
                ? p
                : new DeploymentPlan(
                        p.deployment(), p.mode(), p.inputs(), p.components(), p.outputs(), early.with(p.diagnostics()));
    }

    /**
     * Applies {@code plan} (made now, or read from a file when {@code fromFile}): component instances in
     * data-flow order, those whose inputs became known only now planned again first; then the stack's
     * outputs recorded in the deployment's own state.
     */
    public DeploymentApplied apply(DeploymentPlan plan, boolean fromFile, StackEvents events) {
        Result<SortedMap<String, Value>> inputs = runtime.inputs(deployment);
        if (inputs.hasErrors()) {
            return new DeploymentApplied(deployment, List.of(), new java.util.TreeMap<>(), inputs.diagnostics());
        }
        DeploymentRun run = runtime.run(
                deployment, DeploymentRun.Phase.APPLY, plan.mode(), store, events, inputs.value(), plan, fromFile);
        DeploymentApplied applied = run.apply();
        StateSnapshot next = StackRuntime.withOutputs(stackState.state(), applied.outputs());
        Result<StateSnapshot> written = stackState.persist(next);
        if (!written.diagnostics().isEmpty()) {
            return new DeploymentApplied(
                    deployment,
                    applied.components(),
                    applied.outputs(),
                    applied.diagnostics().with(written.diagnostics()),
                    applied.interrupted());
        }
        return applied;
    }

    /** The stack's outputs as last applied. */
    public SortedMap<String, Value> outputs() {
        SortedMap<String, Value> out = new java.util.TreeMap<>();
        DeploymentRun.outputsOf(stackState.state()).attributes().forEach(out::put);
        return out;
    }

    /** The component instances this deployment's state has, each with its part. */
    public Result<List<String>> componentInstances() {
        return store.componentInstances();
    }

    public Result<StateSnapshot> componentState(String address) {
        return store.readComponent(address);
    }

    @Override
    public void close() {
        stackState.close();
    }
}
