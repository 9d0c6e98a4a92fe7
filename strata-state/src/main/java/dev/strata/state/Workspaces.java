package dev.strata.state;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;

/**
 * Which workspace is selected in a working directory: {@code TF_WORKSPACE} if set, else the name in
 * the data directory's {@code environment} file (Terraform's place, so both tools agree), else
 * {@code default}.
 */
public final class Workspaces {
    public static final String DEFAULT = "default";

    private Workspaces() {}

    /** The data directory: {@code TF_DATA_DIR} or {@code .terraform}, relative to the working directory. */
    public static Path dataDir(Path workingDir, Map<String, String> env) {
        String d = env.get("TF_DATA_DIR");
        return workingDir.resolve(d == null || d.isEmpty() ? ".terraform" : d);
    }

    public static Result<String> current(Path workingDir, Map<String, String> env) {
        String fromEnv = env.get("TF_WORKSPACE");
        if (fromEnv != null && !fromEnv.isEmpty()) {
            Diagnostic bad = checkName(fromEnv);
            return bad == null
                    ? Result.of(fromEnv)
                    : Result.of(
                            DEFAULT,
                            Diagnostics.of(
                                    Diagnostic.error("Invalid workspace name in TF_WORKSPACE", bad.detail(), null)));
        }
        try {
            String name = Files.readString(dataDir(workingDir, env).resolve("environment"), StandardCharsets.UTF_8)
                    .strip();
            return Result.of(name.isEmpty() ? DEFAULT : name);
        } catch (NoSuchFileException e) {
            return Result.of(DEFAULT);
        } catch (IOException e) {
            return Result.of(
                    DEFAULT,
                    Diagnostics.of(Diagnostic.error(
                            "Failed to read the selected workspace",
                            "Could not read " + dataDir(workingDir, env).resolve("environment") + ": " + e.getMessage(),
                            null)));
        }
    }

    /** Records {@code name} as the selected workspace. */
    public static Result<String> select(Path workingDir, Map<String, String> env, String name) {
        try {
            AtomicFiles.write(dataDir(workingDir, env).resolve("environment"), name.getBytes(StandardCharsets.UTF_8));
            return Result.of(name);
        } catch (IOException e) {
            return Result.of(
                    name,
                    Diagnostics.of(Diagnostic.error(
                            "Failed to select workspace",
                            "Could not write " + dataDir(workingDir, env).resolve("environment") + ": "
                                    + e.getMessage(),
                            null)));
        }
    }

    /** Deleting the default workspace is refused: it always exists. */
    static Diagnostic defaultCannotBeDeleted() {
        return Diagnostic.error("Cannot delete the default workspace", "The default workspace always exists.", null);
    }

    /** Deleting a workspace that does not exist. */
    static Diagnostic notFound(String name) {
        return Diagnostic.error("Workspace does not exist", "Workspace \"" + name + "\" doesn't exist.", null);
    }

    /** Opening the state of a workspace that was never created. */
    static Diagnostic notCreated(String name) {
        return Diagnostic.error(
                "Workspace does not exist",
                "Workspace \"" + name + "\" doesn't exist. Create it with \"strata workspace new " + name + "\".",
                null);
    }

    /** Null if the name is allowed; else the error, worded as Terraform words it. */
    public static Diagnostic checkName(String name) {
        boolean ok = !name.isEmpty() && !name.equals(".") && !name.equals("..");
        for (int i = 0; ok && i < name.length(); i++) {
            char c = name.charAt(i);
            // URL-safe, no path separators: unreserved characters of RFC 3986.
            ok = (c >= 'a' && c <= 'z')
                    || (c >= 'A' && c <= 'Z')
                    || (c >= '0' && c <= '9')
                    || c == '-'
                    || c == '_'
                    || c == '.'
                    || c == '~';
        }
        return ok
                ? null
                : Diagnostic.error(
                        "Invalid workspace name",
                        "The workspace name \"" + name
                                + "\" is not allowed. The name must contain only URL safe characters, and no path separators.",
                        null);
    }
}
