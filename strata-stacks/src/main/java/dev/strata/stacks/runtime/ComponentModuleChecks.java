package dev.strata.stacks.runtime;

import dev.strata.config.ConfigTree;
import dev.strata.engine.Engine;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import dev.strata.provider.ProviderSource;
import dev.strata.stacks.config.ComponentConfig;
import dev.strata.stacks.config.EmbeddedStackConfig;
import dev.strata.stacks.config.RemovedBlock;
import dev.strata.stacks.config.StackConfig;
import dev.strata.stacks.config.StackFiles;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * The checks of component modules that need their providers' schemas, as Terraform's Stacks
 * validation runs them: every resource, data source and ephemeral resource of each component's module
 * tree decoded against its provider's schema ("Unsupported argument", "Missing required argument", ...)
 * and given to the provider's own validation. Each module directory is checked once, however many
 * components, removed blocks or stacks use it. In the runtime package because it runs the engine's
 * validation; the configuration package stays below the engine.
 */
public final class ComponentModuleChecks {
    private static final String EPHEMERAL_ROOT_OUTPUT = "Ephemeral output not allowed";
    private final Path rootDir;
    private final ProviderSource providers;
    private final Path workingDir;
    private final String engineVersion;
    private final Map<Path, Boolean> seen = new TreeMap<>();
    private final Diagnostics.Builder out = Diagnostics.builder();

    /**
     * Checks every component module of the stack tree (and of its removed blocks) against the schemas of
     * the providers it uses, which {@code providers} supplies: the part of validation that starts
     * providers (unconfigured) to read their schemas.
     */
    public static Diagnostics validate(
            StackConfig root, ProviderSource providers, Path workingDir, String engineVersion) {
        return new ComponentModuleChecks(root.dir(), providers, workingDir, engineVersion).run(root);
    }

    private ComponentModuleChecks(Path rootDir, ProviderSource providers, Path workingDir, String engineVersion) {
        this.rootDir = rootDir;
        this.providers = providers;
        this.workingDir = workingDir;
        this.engineVersion = engineVersion;
    }

    private Diagnostics run(StackConfig root) {
        walk(root);
        return out.build();
    }

    private void walk(StackConfig stack) {
        for (ComponentConfig c : stack.components().values()) {
            if (c.module() != null) {
                check(c.moduleDir());
            }
        }
        for (RemovedBlock r : stack.removed()) {
            if (r.module() != null) {
                check(r.moduleDir());
            }
            if (r.stack() != null) {
                walk(r.stack());
            }
        }
        for (EmbeddedStackConfig e : stack.embeddedStacks().values()) {
            if (e.stack() != null) {
                walk(e.stack());
            }
        }
    }

    private void check(Path dir) {
        if (dir == null || seen.putIfAbsent(dir, Boolean.TRUE) != null) {
            return;
        }
        Result<ConfigTree> tree = dev.strata.stacks.config.InstalledSources.loadTree(workingDir, dir);
        if (tree.value() == null || tree.hasErrors()) {
            // Its root module's problems were reported when the stack loaded it, and a called module that
            // does not load is reported when the runtime loads the tree: schemas are checked on what loads.
            return;
        }
        Engine engine = Engine.builder(tree.value(), providers, engineVersion).build();
        for (Diagnostic d : StackFiles.relocate(engine.validate(workingDir), StackFiles.prefix(rootDir, dir))) {
            // A component's root module is called by its stack, which takes ephemeral outputs as a
            // module call does: only a configuration's own root module may not declare them.
            if (!d.summary().equals(EPHEMERAL_ROOT_OUTPUT)) {
                out.add(d);
            }
        }
    }
}
