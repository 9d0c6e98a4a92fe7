package dev.strata.engine;

import dev.strata.addr.AbsProviderConfig;
import dev.strata.addr.AbsResourceInstance;
import dev.strata.provider.Provider;

/**
 * Lets the application stand in for parts of a run: a whole provider configuration (the instance the
 * engine configures and asks for schemas), the provider of one resource instance, and the outputs of
 * one module instance. {@code strata test} uses it for mock providers ({@code mock_provider}) and for
 * {@code override_resource}, {@code override_data} and {@code override_module}; every other caller
 * takes {@link #NONE}.
 */
public interface Overrides {
    Overrides NONE = new Overrides() {};

    /** The provider the engine uses for {@code config}; {@code provider} is the one the source gave. */
    default Provider forConfiguration(AbsProviderConfig config, Provider provider) {
        return provider;
    }

    /** The provider that plans, applies and reads {@code instance}; {@code provider} is its configuration's. */
    default Provider forInstance(AbsResourceInstance instance, Provider provider) {
        return provider;
    }

    /**
     * The outputs, by name, that the child module instance {@code instance} has in place of running it;
     * empty to run the module as written. An overridden instance's contents (resources, nested calls,
     * locals) are neither planned nor applied, and an output the map does not name is null.
     */
    default java.util.Optional<java.util.Map<String, dev.strata.lang.value.Value>> moduleOutputs(
            dev.strata.addr.ModuleInstance instance) {
        return java.util.Optional.empty();
    }

    /**
     * A provider block (a test file's) that configures {@code config} in place of the configuration's
     * own, with the scope its expressions are evaluated in; empty to configure it as written.
     */
    default java.util.Optional<ProviderBlock> providerBlock(AbsProviderConfig config) {
        return java.util.Optional.empty();
    }

    /**
     * Whether {@code lifecycle.prevent_destroy} stops the destruction of the resources that set it;
     * a test's cleanup lifts it, as Terraform's does, so that it can destroy what its runs created.
     */
    default boolean preventDestroy() {
        return true;
    }

    /**
     * Whether the root module may declare {@code ephemeral} outputs: not in a plan or apply, whose root
     * outputs go to the plan and the state, but under {@code strata test}, whose runs read the module's
     * outputs in memory (Terraform 1.12+ allows them there). Their values are never persisted.
     */
    default boolean ephemeralRootOutputs() {
        return false;
    }

    /** The body of a provider block given by the application, and the scope of its expressions. */
    record ProviderBlock(dev.strata.hcl.Body body, dev.strata.lang.eval.Scope scope) {}
}
