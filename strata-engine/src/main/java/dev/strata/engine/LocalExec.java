package dev.strata.engine;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The {@code local-exec} provisioner: runs {@code command} through the interpreter ({@code /bin/sh -c} by
 * default, as Terraform does on Unix) in {@code working_dir}, with the process environment plus
 * {@code environment}, and passes every line of its combined output on as it comes. A stop request ends
 * the process: first politely, then forcibly.
 */
final class LocalExec {
    /** How long a stopped command gets to end after it was asked to, before it is killed. */
    private static final long GRACE_MILLIS = 2_000;

    private LocalExec() {}

    static final Map<String, ProvisionerArgs.Kind> ARGS = Map.of(
            "command", ProvisionerArgs.Kind.STRING,
            "interpreter", ProvisionerArgs.Kind.STRING_LIST,
            "working_dir", ProvisionerArgs.Kind.STRING,
            "environment", ProvisionerArgs.Kind.STRING_MAP,
            "quiet", ProvisionerArgs.Kind.BOOL);

    static void run(ProvisionerArgs a, Path cwd, Consumer<String> output, BooleanSupplier stop)
            throws ProvisionerFailure {
        String command = a.string("command");
        if (command == null || command.isEmpty()) {
            throw new ProvisionerFailure("local-exec provisioner command must be a non-empty string");
        }
        List<String> argv = new ArrayList<>();
        List<String> interpreter = a.list("interpreter");
        if (interpreter != null && !interpreter.isEmpty()) {
            argv.addAll(interpreter);
        } else {
            argv.add("/bin/sh");
            argv.add("-c");
        }
        argv.add(command);
        if (Boolean.TRUE.equals(a.bool("quiet"))) {
            output.accept("local-exec: Executing: Suppressed by quiet=true");
        } else {
            output.accept("Executing: " + dev.strata.hcl.GoQuote.list(argv));
        }
        ProcessBuilder pb = new ProcessBuilder(argv).redirectErrorStream(true);
        Path dir = cwd;
        if (a.has("working_dir") && !a.string("working_dir").isEmpty()) {
            dir = cwd.resolve(a.string("working_dir"));
            if (!Files.isDirectory(dir)) {
                throw new ProvisionerFailure("Error running command '" + shown(a, command) + "': chdir "
                        + a.string("working_dir") + ": no such file or directory. Output: ");
            }
        }
        pb.directory(dir.toFile());
        dev.strata.hcl.ChildEnvironment.restore(pb.environment());
        if (a.has("environment")) {
            pb.environment().putAll(a.map("environment"));
        }
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            throw new ProvisionerFailure(
                    "Error running command '" + shown(a, command) + "': " + reason(e) + ". Output: ");
        }
        closeQuietly(p);
        StringBuilder all = new StringBuilder();
        Thread reader = Thread.ofVirtual().start(() -> {
            try (BufferedReader r =
                    new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    synchronized (all) {
                        all.append(line).append('\n');
                    }
                    output.accept(line);
                }
            } catch (IOException e) {
                // The process was ended: what it printed so far has been passed on.
            }
        });
        boolean stopped = false;
        try {
            while (!p.waitFor(100, TimeUnit.MILLISECONDS)) {
                if (stop.getAsBoolean()) {
                    stopped = true;
                    end(p);
                    break;
                }
            }
            reader.join(GRACE_MILLIS);
        } catch (InterruptedException e) {
            end(p);
            Thread.currentThread().interrupt();
            throw new ProvisionerFailure("Error running command '" + shown(a, command) + "': interrupted");
        }
        if (stopped) {
            throw new ProvisionerFailure(
                    "Error running command '" + shown(a, command) + "': stopped because the run was interrupted");
        }
        int code = p.exitValue();
        if (code != 0) {
            String out;
            synchronized (all) {
                out = all.toString();
            }
            throw new ProvisionerFailure("Error running command '" + shown(a, command) + "': exit status " + code
                    + ". Output: " + (a.sensitive() ? "(output suppressed due to sensitive value in config)" : out));
        }
    }

    /** The command reads no input: its stdin is closed at once, as Terraform leaves it empty. */
    private static void closeQuietly(Process p) {
        try {
            p.getOutputStream().close();
        } catch (IOException e) {
            // Nothing was written; a failed close changes nothing for the command.
        }
    }

    private static void end(Process p) {
        p.descendants().forEach(ProcessHandle::destroy);
        p.destroy();
        try {
            if (!p.waitFor(GRACE_MILLIS, TimeUnit.MILLISECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private static String shown(ProvisionerArgs a, String command) {
        return a.sensitive() ? "(sensitive value)" : command;
    }

    private static String reason(IOException e) {
        String m = e.getMessage() == null ? "could not start" : e.getMessage();
        // "Cannot run program "x": error=2, No such file or directory" → the OS reason.
        int i = m.indexOf("error=");
        if (i >= 0) {
            int comma = m.indexOf(", ", i);
            return comma > 0 ? m.substring(comma + 2) : m.substring(i);
        }
        return m;
    }
}
