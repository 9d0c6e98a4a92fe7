package dev.strata.engine;

import dev.strata.addr.AbsResourceInstance;
import dev.strata.config.Provisioner;
import dev.strata.config.ResourceConfig;
import dev.strata.hcl.Body;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.lang.eval.Scope;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * Runs a resource instance's provisioners of one kind ({@code when = create} after the object is created,
 * {@code when = destroy} before it is destroyed), in their order, as Terraform does: each one's arguments
 * are evaluated with {@code self} (and {@code count.index}, {@code each.key}) in scope when it starts; a
 * failure with {@code on_failure = fail} stops the rest and is an error, with {@code continue} it is
 * passed over silently (Terraform only logs it).
 */
final class Provisioning {
    private static final String SUPPRESSED = "(output suppressed due to sensitive value in config)";
    private static final Set<PosixFilePermission> SCRIPT_MODE = Set.of(PosixFilePermission.values());

    private final Run run;
    private final EngineEvents events;
    private final BooleanSupplier stop;

    Provisioning(Run run, EngineEvents events, BooleanSupplier stop) {
        this.run = run;
        this.events = events;
        this.stop = stop;
    }

    /** False when a provisioner failed with {@code on_failure = fail} (or could not be evaluated); reported. */
    boolean run(ResourceConfig rc, AbsResourceInstance ai, Scope scope, Provisioner.When when) {
        return run(rc.provisioners(when), rc.connection(), ai, scope, when);
    }

    /**
     * Runs {@code provisioners} (all of them {@code when}) for {@code ai}; {@code connection} is the block
     * (a resource's or a {@code removed} block's) that applies where a provisioner has none, or null.
     */
    boolean run(
            List<Provisioner> provisioners,
            Provisioner.Connection connection,
            AbsResourceInstance ai,
            Scope scope,
            Provisioner.When when) {
        for (Provisioner p : provisioners) {
            if (stop.getAsBoolean()) {
                run.diagnose(Diagnostic.error(
                        p.type() + " provisioner error",
                        "The run was interrupted before this provisioner of " + ai + " started"
                                + (when == Provisioner.When.CREATE
                                        ? ", so the object is tainted and the next apply replaces it."
                                        : ", so the object was not destroyed."),
                        p.declRange()));
                return false;
            }
            if (!runOne(connection, ai, scope, p) && p.onFailure() == Provisioner.OnFailure.FAIL) {
                return false;
            }
        }
        return true;
    }

    private boolean runOne(Provisioner.Connection connection, AbsResourceInstance ai, Scope scope, Provisioner p) {
        Diagnostics.Builder diags = Diagnostics.builder();
        ProvisionerArgs args = ProvisionerArgs.evaluate(List.of(p.config()), kinds(p.type()), scope, diags);
        ProvisionerArgs conn = null;
        if (args != null && !p.type().equals("local-exec")) {
            List<Body> bodies = new ArrayList<>();
            if (connection != null) {
                bodies.add(connection.config());
            }
            if (p.connection() != null) {
                bodies.add(p.connection().config());
            }
            if (bodies.isEmpty()) {
                diags.add(Diagnostic.error(
                        p.type() + " provisioner error",
                        "Missing connection configuration for provisioner: the " + p.type() + " provisioner needs a "
                                + "connection block, in the provisioner or in the resource.",
                        p.declRange()));
            } else {
                conn = ProvisionerArgs.evaluate(bodies, SshConnection.ARGS, scope, diags);
            }
        }
        if (diags.build().hasErrors() || args == null) {
            // Terraform fails on arguments it cannot evaluate whatever on_failure says.
            run.diagnose(diags.build());
            return false;
        }
        boolean sensitive = args.sensitive() || (conn != null && conn.sensitive());
        Consumer<String> out = line -> events.provisionOutput(ai, p.type(), sensitive ? SUPPRESSED : line);
        events.provisionStart(ai, p.type());
        try {
            switch (p.type()) {
                case "local-exec" -> LocalExec.run(args, run.options.workingDir(), out, stop);
                case "file" -> file(args, conn, out);
                case "remote-exec" -> remoteExec(args, conn, out);
                default -> throw new ProvisionerFailure("unknown provisioner type \"" + p.type() + "\"");
            }
        } catch (ProvisionerFailure f) {
            events.provisionComplete(ai, p.type(), true);
            if (p.onFailure() == Provisioner.OnFailure.FAIL) {
                run.diagnose(Diagnostic.error(p.type() + " provisioner error", f.getMessage(), p.declRange())
                        .withAddress(ai.toString()));
            }
            return false;
        }
        events.provisionComplete(ai, p.type(), false);
        return true;
    }

    private static Map<String, ProvisionerArgs.Kind> kinds(String type) {
        return switch (type) {
            case "local-exec" -> LocalExec.ARGS;
            case "file" ->
                Map.of(
                        "source", ProvisionerArgs.Kind.STRING,
                        "content", ProvisionerArgs.Kind.STRING,
                        "destination", ProvisionerArgs.Kind.STRING);
            case "remote-exec" ->
                Map.of(
                        "inline", ProvisionerArgs.Kind.STRING_LIST,
                        "script", ProvisionerArgs.Kind.STRING,
                        "scripts", ProvisionerArgs.Kind.STRING_LIST);
            default -> Map.of();
        };
    }

    private void file(ProvisionerArgs a, ProvisionerArgs conn, Consumer<String> out) throws ProvisionerFailure {
        String dest = a.string("destination");
        Path source = null;
        if (a.has("source")) {
            source = run.options.workingDir().resolve(a.string("source"));
            if (!Files.exists(source)) {
                throw new ProvisionerFailure("Upload failed: " + a.string("source") + ": no such file or directory");
            }
        }
        try (SshConnection ssh = SshConnection.open(conn, out, stop)) {
            if (source != null) {
                ssh.uploadPath(source, a.string("source"), dest, out);
            } else {
                ssh.upload(
                        a.string("content").getBytes(StandardCharsets.UTF_8),
                        dest,
                        Set.of(
                                PosixFilePermission.OWNER_READ,
                                PosixFilePermission.OWNER_WRITE,
                                PosixFilePermission.GROUP_READ,
                                PosixFilePermission.OTHERS_READ));
            }
        } catch (IOException e) {
            throw new ProvisionerFailure("Upload failed: " + reason(e));
        }
    }

    /**
     * Uploads each script to {@code script_path} and runs it, as Terraform does: {@code inline} commands
     * become one script, {@code script}/{@code scripts} are local files sent as they are.
     */
    private void remoteExec(ProvisionerArgs a, ProvisionerArgs conn, Consumer<String> out) throws ProvisionerFailure {
        List<String> scripts = new ArrayList<>();
        if (a.has("inline")) {
            scripts.add(String.join("\n", a.list("inline")) + "\n");
        } else {
            List<String> files = a.has("script") ? List.of(a.string("script")) : a.list("scripts");
            for (String f : files) {
                Path p = run.options.workingDir().resolve(f);
                try {
                    scripts.add(Files.readString(p));
                } catch (IOException e) {
                    throw new ProvisionerFailure(
                            "Failed to open script '" + f + "': " + dev.strata.hcl.IoProblems.reason(e));
                }
            }
        }
        try (SshConnection ssh = SshConnection.open(conn, out, stop)) {
            for (String script : scripts) {
                if (stop.getAsBoolean()) {
                    throw new ProvisionerFailure("stopped because the run was interrupted");
                }
                String path = ssh.scriptPath();
                // Scripts without an interpreter line run under /bin/sh, as Terraform makes them.
                String body = script.startsWith("#!") ? script : "#!/bin/sh\n" + script;
                try {
                    ssh.upload(body.getBytes(StandardCharsets.UTF_8), path, SCRIPT_MODE);
                } catch (IOException e) {
                    throw new ProvisionerFailure("Error uploading script to " + path + ": " + reason(e));
                }
                ssh.run("chmod 0777 " + SshConnection.shellQuote(path), out, true);
                ssh.run(path, out, false);
            }
        } catch (IOException e) {
            throw new ProvisionerFailure(reason(e));
        }
    }

    private static String reason(IOException e) {
        return e.getMessage() == null ? "the connection failed" : e.getMessage();
    }
}
