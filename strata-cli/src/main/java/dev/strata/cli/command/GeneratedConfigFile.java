package dev.strata.cli.command;

import dev.strata.config.ConfigTree;
import dev.strata.engine.Engine;
import dev.strata.engine.EngineEvents;
import dev.strata.engine.PlanOptions;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.DiagnosticRenderer;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code plan -generate-config-out=PATH}: imports the objects of the import blocks whose target has no
 * configuration, writes a resource block for each to PATH (a new file, written whole or not at all) and
 * loads the configuration again with it, so the plan imports them as if the blocks had been there.
 */
final class GeneratedConfigFile {
    /** The configuration and engine to plan with (all null when nothing was generated), or the errors. */
    record Outcome(ConfigTree tree, DiagnosticRenderer.Sources sources, Engine engine, Diagnostics diagnostics) {}

    private GeneratedConfigFile() {}

    /** Whether PATH may be written: checked before planning, as Terraform does. */
    static Diagnostics check(CommandContext ctx, String path) {
        Path file = ctx.resolve(path);
        if (Files.exists(file, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return Diagnostics.of(Diagnostic.error(
                    "Target generated file already exists",
                    "Strata can only write generated config into a new file. Either choose a different target "
                            + "location or move all existing configuration out of the target file, delete it and "
                            + "try again.",
                    null));
        }
        Path dir = ctx.workingDir().toAbsolutePath().normalize();
        if (!dir.equals(file.toAbsolutePath().normalize().getParent())) {
            // The plan reads the generated blocks back from the configuration directory.
            return Diagnostics.of(Diagnostic.error(
                    "Invalid generated file location",
                    "The generated configuration file " + path + " must be in the configuration directory (" + dir
                            + "), so that the plan can read it. Choose a file name such as generated.tf.",
                    null));
        }
        if (!path.endsWith(".tf")) {
            return Diagnostics.of(Diagnostic.error(
                    "Invalid generated file location",
                    "The generated configuration file " + path + " must have the .tf extension, so that the plan "
                            + "reads it as configuration.",
                    null));
        }
        return Diagnostics.NONE;
    }

    static Outcome generate(CommandContext ctx, OperationRunner.Session s, PlanOptions options, String path) {
        Path file = ctx.resolve(path);
        Result<String> text =
                s.engine().generateConfig(s.loaded().variables(), s.state().state(), options, EngineEvents.NONE);
        if (text.hasErrors()) {
            return new Outcome(null, null, null, text.diagnostics());
        }
        if (text.value() == null) {
            return new Outcome(null, null, null, text.diagnostics());
        }
        Path tmp = file.resolveSibling("." + file.getFileName() + ".tmp");
        try {
            Files.writeString(tmp, text.value(), StandardCharsets.UTF_8);
            // Written beside the target and renamed: the file appears whole or not at all.
            Files.move(tmp, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException ignored) {
                // The temporary file is ours; failing to remove it changes nothing else.
            }
            return failed(Diagnostic.error(
                    "Failed to create target generated file",
                    "Strata could not create the generated file (" + path + ") in the target directory: " + reason(e)
                            + ".",
                    null));
        }
        Result<ConfigTree> tree = OperationRunner.loadTree(ctx);
        if (tree.hasErrors() || tree.value() == null) {
            return new Outcome(
                    null, tree.value() == null ? null : tree.value().diagnosticSources(), null, tree.diagnostics());
        }
        return new Outcome(
                tree.value(),
                tree.value().diagnosticSources(),
                OperationRunner.engine(ctx, tree.value()),
                text.diagnostics());
    }

    /** The root-module resources declared in the generated file (which is in the configuration directory). */
    static java.util.Set<dev.strata.addr.Resource> generatedResources(
            ConfigTree tree, CommandContext ctx, String path) {
        Path name = ctx.resolve(path).getFileName();
        java.util.Set<dev.strata.addr.Resource> out = new java.util.HashSet<>();
        tree.root().module().resources().forEach((addr, rc) -> {
            if (rc.declRange() != null
                    && Path.of(rc.declRange().filename()).getFileName().equals(name)) {
                out.add(addr);
            }
        });
        return out;
    }

    /** The warning every plan that generated configuration shows. */
    static Diagnostic experimental() {
        return Diagnostic.warning(
                "Config generation is experimental",
                "Generating configuration during import is currently experimental, and the generated "
                        + "configuration format may change in future versions.",
                null);
    }

    private static Outcome failed(Diagnostic d) {
        return new Outcome(null, null, null, Diagnostics.of(d));
    }

    private static String reason(IOException e) {
        String m = e.getMessage();
        return e instanceof java.nio.file.NoSuchFileException
                ? "no such file or directory"
                : e instanceof java.nio.file.AccessDeniedException ? "permission denied" : m == null ? "I/O error" : m;
    }
}
