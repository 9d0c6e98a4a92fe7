package dev.strata.stacks.config;

import dev.strata.config.ConfigFiles;
import dev.strata.hcl.BodyContent;
import dev.strata.hcl.BodySchema;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.HclFile;
import dev.strata.hcl.IoProblems;
import dev.strata.hcl.Result;
import dev.strata.hcl.SourceRange;
import dev.strata.hcl.json.JsonSyntax;
import dev.strata.hcl.syntax.NativeSyntax;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Predicate;

/** Which files of a directory belong to a stack or deployment configuration, and how they are named. */
public final class StackFiles {
    private StackFiles() {}

    /** {@code .tfcomponent.hcl} and its JSON form, and the deprecated {@code .tfstack} names. */
    public static boolean isStackFile(String name) {
        return name.endsWith(".tfcomponent.hcl") || name.endsWith(".tfcomponent.json") || isDeprecatedStackFile(name);
    }

    public static boolean isDeprecatedStackFile(String name) {
        return name.endsWith(".tfstack.hcl") || name.endsWith(".tfstack.json");
    }

    public static boolean isDeploymentFile(String name) {
        return name.endsWith(".tfdeploy.hcl") || name.endsWith(".tfdeploy.json");
    }

    static boolean isJson(String name) {
        return name.endsWith(".json");
    }

    /** The stack files of a directory in lexical order, skipping hidden files and editor leftovers. */
    public static List<Path> stackFiles(Path dir) {
        return list(dir, StackFiles::isStackFile);
    }

    /** The deployment files of a directory in lexical order. */
    public static List<Path> deploymentFiles(Path dir) {
        return list(dir, StackFiles::isDeploymentFile);
    }

    private static List<Path> list(Path dir, Predicate<String> which) {
        return ConfigFiles.list(dir, which);
    }

    /** A configuration file's bytes, or null with an error that names it ({@code name}) and the OS reason. */
    static byte[] read(Path file, String name, Diagnostics.Builder diags) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            diags.error(
                    "Failed to read file", "The file could not be read: " + IoProblems.describe(name, e) + ".", null);
            return null;
        }
    }

    /** The top-level content of a file against {@code schema}, or null (with its errors) when it does not parse. */
    static BodyContent content(byte[] bytes, String name, BodySchema schema, Diagnostics.Builder diags) {
        Result<HclFile> parsed = isJson(name) ? JsonSyntax.parse(bytes, name) : NativeSyntax.parseConfig(bytes, name);
        diags.addAll(parsed.diagnostics());
        if (parsed.value() == null) {
            return null;
        }
        Result<BodyContent> c = parsed.value().body().content(schema);
        diags.addAll(c.diagnostics());
        return c.value();
    }

    /** A file's name as diagnostics show it: relative to the root directory, with forward slashes. */
    static String display(Path root, Path file) {
        String s = root.relativize(file.toAbsolutePath().normalize()).toString().replace('\\', '/');
        return s.isEmpty() ? "." : s;
    }

    /** The prefix that turns a name relative to {@code dir} into one relative to {@code root}. */
    public static String prefix(Path root, Path dir) {
        String d = display(root, dir);
        return d.equals(".") ? "" : d + "/";
    }

    /** Diagnostics whose file names are relative to a subdirectory, renamed relative to the root. */
    public static Diagnostics relocate(Diagnostics ds, String prefix) {
        if (prefix.isEmpty()) {
            return ds;
        }
        Diagnostics.Builder b = Diagnostics.builder();
        for (Diagnostic d : ds) {
            b.add(new Diagnostic(
                    d.severity(),
                    d.summary(),
                    d.detail(),
                    relocate(d.subject(), prefix),
                    relocate(d.context(), prefix)));
        }
        return b.build();
    }

    static SourceRange relocate(SourceRange r, String prefix) {
        if (r == null || prefix.isEmpty()) {
            return r;
        }
        return new SourceRange(prefix + r.filename(), r.start(), r.end());
    }
}
