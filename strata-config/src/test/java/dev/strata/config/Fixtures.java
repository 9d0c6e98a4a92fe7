package dev.strata.config;

import dev.strata.addr.Module;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SortedMap;

/** Writes small configurations to a temporary directory and loads and validates them. */
final class Fixtures {
    private Fixtures() {}

    static final ConfigLoader.Options OPTIONS = ConfigLoader.Options.DEFAULT;

    /** Pairs of relative path and content. */
    static Path write(Path dir, String... pathsAndContents) {
        try {
            for (int i = 0; i < pathsAndContents.length; i += 2) {
                Path p = dir.resolve(pathsAndContents[i]);
                Files.createDirectories(p.getParent());
                Files.writeString(p, pathsAndContents[i + 1]);
            }
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Result<ConfigTree> load(Path dir) {
        return ConfigLoader.loadTree(dir, OPTIONS);
    }

    /** Loading plus validation diagnostics, sorted. */
    static Diagnostics validate(Path dir) {
        Result<ConfigTree> t = load(dir);
        return t.diagnostics().with(Validator.validate(t.value())).inPlaceOrder();
    }

    /** The outputs of the module that the chain of module {@code calls} from the root loads in {@code tree}. */
    static SortedMap<String, OutputConfig> outputsOf(ConfigTree tree, String... calls) {
        Module path = Module.ROOT;
        for (String call : calls) {
            path = path.child(call);
        }
        return tree.node(path).orElseThrow().module().outputs();
    }

    /** {@code file:line,col-col: summary} lines, the shape assertions compare. */
    static List<String> brief(Diagnostics ds) {
        return ds.asList().stream().map(Fixtures::brief).toList();
    }

    static String brief(Diagnostic d) {
        return (d.isError() ? "" : "warning: ") + (d.subject() == null ? "" : d.subject() + ": ") + d.summary();
    }
}
