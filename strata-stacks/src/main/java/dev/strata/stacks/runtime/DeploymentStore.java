package dev.strata.stacks.runtime;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import dev.strata.state.Backend;
import dev.strata.state.LocalBackend;
import dev.strata.state.LockRequest;
import dev.strata.state.StateManager;
import dev.strata.state.StateSnapshot;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Where one deployment's state lives: a local backend rooted at {@code .strata/stacks/<deployment>/}
 * whose default workspace ({@code stack.tfstate}) holds the stack's own outputs and is the
 * deployment's lock, and whose other workspaces ({@code components/<instance>/terraform.tfstate}) are
 * the component instances' parts, each an ordinary Terraform v4 state with the backend's journal,
 * backups and locks. Instance addresses are escaped into workspace names (URL safe, no
 * separators), so {@code component.app["a"]} lives in {@code components/component.app~5B~22a~22~5D}.
 */
public final class DeploymentStore {
    /** The directory under the working directory that holds every deployment's state. */
    public static final String ROOT = ".strata/stacks";

    static final String STACK_STATE = "stack.tfstate";
    static final String COMPONENTS = "components";

    private final String deployment;
    private final Path dir;
    private final Backend backend;
    private final String stackWorkspace;
    private final String componentPrefix;
    private final String version;

    private DeploymentStore(
            String deployment,
            Path dir,
            Backend backend,
            String stackWorkspace,
            String componentPrefix,
            String version) {
        this.version = version;
        this.deployment = deployment;
        this.dir = dir;
        this.backend = backend;
        this.stackWorkspace = stackWorkspace;
        this.componentPrefix = componentPrefix;
    }

    /** The store of {@code deployment} in {@code workingDir}; {@code version} is written into states and locks. */
    public static DeploymentStore of(Path workingDir, String deployment, String version) {
        Path dir = workingDir.resolve(ROOT).resolve(deployment);
        return new DeploymentStore(
                deployment,
                dir,
                LocalBackend.in(dir, version).withPaths(STACK_STATE, COMPONENTS),
                "default",
                "",
                version);
    }

    /**
     * The store of {@code deployment} as workspaces of a backend shared by every deployment (PostgreSQL):
     * the stack's state in {@code stackWorkspace}, each component instance's part in
     * {@code componentPrefix} followed by its escaped address.
     */
    static DeploymentStore inBackend(
            Backend backend, String deployment, String stackWorkspace, String componentPrefix, String version) {
        return new DeploymentStore(deployment, null, backend, stackWorkspace, componentPrefix, version);
    }

    public String deployment() {
        return deployment;
    }

    /** The directory of a local store; null when the state lives in a database. */
    public Path dir() {
        return dir;
    }

    /** The deployment's own state (the stack's outputs), locked as {@code lock} says: the deployment's lock. */
    public Result<StateManager> openStack(LockRequest lock) {
        Diagnostics made = ensure(stackWorkspace);
        if (made.hasErrors()) {
            return Result.of(null, made);
        }
        return backend.open(stackWorkspace, lock);
    }

    /** A component instance's state, created empty on first use. */
    public Result<StateManager> openComponent(String instanceAddr, LockRequest lock) {
        String ws = componentWorkspace(instanceAddr);
        Diagnostics made = ensure(ws);
        if (made.hasErrors()) {
            return Result.of(null, made);
        }
        return backend.open(ws, lock);
    }

    private Diagnostics ensure(String ws) {
        if (ws.equals("default")) {
            return Diagnostics.NONE;
        }
        Result<List<String>> existing = backend.workspaces();
        if (existing.hasErrors()) {
            return existing.diagnostics();
        }
        if (!existing.value().contains(ws)) {
            Result<String> made = backend.createWorkspace(ws);
            // Another process may have created it meanwhile; the open that follows tells.
            if (made.hasErrors() && !backend.workspaces().value().contains(ws)) {
                return made.diagnostics();
            }
        }
        return Diagnostics.NONE;
    }

    private String componentWorkspace(String instanceAddr) {
        return componentPrefix + workspaceName(instanceAddr);
    }

    /**
     * A component instance's part as it is now, read without locking (the deployment's lock is held);
     * empty when it has none yet, without creating anything.
     */
    public Result<StateSnapshot> readComponent(String instanceAddr) {
        String ws = componentWorkspace(instanceAddr);
        if (backend instanceof LocalBackend local) {
            if (!Files.isDirectory(local.statePath(ws).getParent())) {
                return Result.of(StateSnapshot.empty(version));
            }
        } else {
            Result<List<String>> existing = backend.workspaces();
            if (existing.hasErrors()) {
                return Result.of(null, existing.diagnostics());
            }
            if (!existing.value().contains(ws)) {
                return Result.of(StateSnapshot.empty(version));
            }
        }
        Result<StateManager> r = backend.open(ws, LockRequest.none());
        if (r.value() == null) {
            return Result.of(null, r.diagnostics());
        }
        try (StateManager m = r.value()) {
            return Result.of(m.state(), r.diagnostics());
        }
    }

    /**
     * The file of a component instance's part (an ordinary v4 state), whether or not it exists; null
     * when the state lives in a database.
     */
    public Path componentStatePath(String instanceAddr) {
        return backend instanceof LocalBackend local ? local.statePath(componentWorkspace(instanceAddr)) : null;
    }

    /** Every component instance that has a part in this deployment's state, sorted by address. */
    public Result<List<String>> componentInstances() {
        Result<List<String>> ws = backend.workspaces();
        if (ws.value() == null) {
            return Result.of(null, ws.diagnostics());
        }
        List<String> out = new ArrayList<>();
        for (String w : ws.value()) {
            if (!w.equals("default") && !w.equals(stackWorkspace) && w.startsWith(componentPrefix)) {
                out.add(instanceAddress(w.substring(componentPrefix.length())));
            }
        }
        out.sort(null);
        return Result.of(List.copyOf(out), ws.diagnostics());
    }

    /** Forgets a component instance whose resources are all gone. */
    public Diagnostics dropComponent(String instanceAddr) {
        Result<String> r = backend.deleteWorkspace(componentWorkspace(instanceAddr));
        return r.diagnostics();
    }

    /**
     * A workspace name for an instance address: workspace names allow only RFC 3986's unreserved
     * characters, so every other byte of the UTF-8 address is written {@code ~XX} ('~' itself too).
     */
    static String workspaceName(String instanceAddr) {
        StringBuilder b = new StringBuilder();
        for (byte x : instanceAddr.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (x & 0xff);
            boolean plain = (c >= 'a' && c <= 'z')
                    || (c >= 'A' && c <= 'Z')
                    || (c >= '0' && c <= '9')
                    || c == '-'
                    || c == '_'
                    || c == '.';
            if (plain) {
                b.append(c);
            } else {
                b.append('~').append(String.format("%02X", x & 0xff));
            }
        }
        return b.toString();
    }

    static String instanceAddress(String workspaceName) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (int i = 0; i < workspaceName.length(); i++) {
            char c = workspaceName.charAt(i);
            if (c == '~' && i + 2 < workspaceName.length()) {
                out.write(Integer.parseInt(workspaceName.substring(i + 1, i + 3), 16));
                i += 2;
            } else {
                out.write(c);
            }
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    static Diagnostic noDeployment(String name) {
        return Diagnostic.error(
                "Deployment has no state",
                "Deployment \"" + name + "\" has not been applied yet: there is no state under " + ROOT + "/" + name
                        + ". Run \"strata stacks apply -deployment=" + name + "\" first.",
                null);
    }
}
