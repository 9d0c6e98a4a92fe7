package dev.strata.cli.command;

import dev.strata.cli.view.FmtView;
import dev.strata.hcl.Body;
import dev.strata.hcl.DiagnosticRenderer;
import dev.strata.hcl.HclFile;
import dev.strata.hcl.IoProblems;
import dev.strata.hcl.Result;
import dev.strata.hcl.format.Formatter;
import dev.strata.hcl.format.UnifiedDiff;
import dev.strata.hcl.syntax.NativeSyntax;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

/**
 * {@code strata fmt}: rewrites configuration files in the canonical style, byte for byte as
 * {@code terraform fmt} does, with its flags and exit codes (2 for unreadable input, 3 when
 * {@code -check} finds files to change).
 */
final class FmtCommand implements Command {
    private static final FlagSet FLAGS = new FlagSet();
    private static final Flag<Boolean> LIST = FLAGS.bool(
            "list", true, "List files whose formatting differs (always disabled when using standard input).");
    private static final Flag<Boolean> WRITE = FLAGS.bool(
            "write",
            true,
            "Write the result to the source file instead of standard output (always disabled when using "
                    + "standard input or -check).");
    private static final Flag<Boolean> DIFF = FLAGS.bool("diff", false, "Display diffs of formatting changes.");
    private static final Flag<Boolean> CHECK = FLAGS.bool(
            "check",
            false,
            "Check if the input is formatted. The exit status is 0 if all input is properly formatted, 3 if "
                    + "some is not, and 2 if some input could not be read or parsed.");
    private static final Flag<Boolean> RECURSIVE = FLAGS.bool(
            "recursive",
            false,
            "Also process files in subdirectories. By default, only the given directory (or current "
                    + "directory) is processed.");

    static final int EXIT_INVALID = 2;
    static final int EXIT_CHANGES = 3;

    /**
     * Terraform 1.11's fmt formats the first three; Strata runs Stacks too, so their native-syntax files
     * are formatted as well, by the same rules (the formatter is syntax-driven, not block-driven).
     */
    private static final List<String> EXTENSIONS =
            List.of(".tf", ".tfvars", ".tftest.hcl", ".tfcomponent.hcl", ".tfstack.hcl", ".tfdeploy.hcl");

    @Override
    public String name() {
        return "fmt";
    }

    @Override
    public String synopsis() {
        return "Reformat your configuration in the standard style";
    }

    @Override
    public Section section() {
        return Section.OTHER;
    }

    @Override
    public String usage() {
        return "[options] [target...]";
    }

    @Override
    public String description() {
        return "Rewrites all Strata configuration files to a canonical format. All configuration files (.tf), "
                + "variables files (.tfvars), test files (.tftest.hcl) and Stacks files (.tfcomponent.hcl, "
                + ".tfstack.hcl, .tfdeploy.hcl) are updated. JSON files (.tf.json) are not modified.\n\n"
                + "By default, fmt scans the current directory for configuration files. If you provide a "
                + "directory for the target argument, then fmt scans that directory instead. If you provide a "
                + "file, then fmt processes just that file. If you provide a single dash (\"-\"), then fmt reads "
                + "from standard input (STDIN).\n\n"
                + "The output is byte for byte what terraform fmt produces for the same input.";
    }

    @Override
    public FlagSet flags() {
        return FLAGS;
    }

    /**
     * The arguments: what to do with each file (-check never writes) and the files and directories to
     * format, the working directory by default, {@code -} for standard input. Every combination is valid.
     */
    record Args(boolean list, boolean write, boolean diff, boolean check, boolean recursive, List<String> targets) {

        static Args parse(ParsedArgs args) {
            boolean check = args.get(CHECK);
            return new Args(
                    args.get(LIST),
                    args.get(WRITE) && !check,
                    args.get(DIFF),
                    check,
                    args.get(RECURSIVE),
                    args.positionals().isEmpty() ? List.of(".") : args.positionals());
        }
    }

    @Override
    public int run(CommandContext context, ParsedArgs parsed) {
        Args opts = Args.parse(parsed);
        FmtView view = new FmtView(context);
        List<String> targets = opts.targets();
        if (targets.equals(List.of("-"))) {
            return formatStdin(context, opts, view);
        }
        Outcome outcome = new Outcome();
        for (String target : targets) {
            Path path = context.resolve(target);
            if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS) && !Files.exists(path)) {
                view.error("No file or directory at " + target, "");
                outcome.invalid = true;
                continue;
            }
            if (Files.isDirectory(path)) {
                for (Path file : configFiles(path, opts.recursive())) {
                    formatFile(file, display(target, path.relativize(file)), opts, view, outcome);
                }
            } else if (EXTENSIONS.stream()
                    .anyMatch(e -> path.getFileName().toString().endsWith(e))) {
                formatFile(path, display(target, Path.of("")), opts, view, outcome);
            } else {
                view.error(
                        "Only .tf, .tfvars, .tftest.hcl and Stacks (.tfcomponent.hcl, .tfstack.hcl, .tfdeploy.hcl) "
                                + "files can be processed with strata fmt",
                        "");
                outcome.invalid = true;
            }
        }
        if (outcome.invalid) {
            return EXIT_INVALID;
        }
        return opts.check() && outcome.changed ? EXIT_CHANGES : 0;
    }

    private static final class Outcome {
        boolean invalid;
        boolean changed;
    }

    /** The path as the user wrote it, joined with the file's place below it, cleaned like Go's filepath.Join. */
    private static String display(String target, Path rel) {
        Path p = Path.of(target).resolve(rel).normalize();
        String s = p.toString();
        return s.isEmpty() ? "." : s;
    }

    /** Configuration files in a directory, in name order; subdirectories too when recursive, never hidden ones. */
    private static List<Path> configFiles(Path dir, boolean recursive) {
        List<Path> out = new ArrayList<>();
        try (Stream<Path> entries = Files.list(dir)) {
            for (Path p : entries.sorted().toList()) {
                String name = p.getFileName().toString();
                if (Files.isDirectory(p)) {
                    if (recursive && !name.startsWith(".")) {
                        out.addAll(configFiles(p, true));
                    }
                } else if (EXTENSIONS.stream().anyMatch(name::endsWith)) {
                    out.add(p);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    private void formatFile(Path file, String shown, Args opts, FmtView view, Outcome outcome) {
        byte[] before;
        try {
            before = Files.readAllBytes(file);
        } catch (IOException e) {
            view.error("Failed to read file", "Could not read " + IoProblems.describe(shown, e) + ".");
            outcome.invalid = true;
            return;
        }
        Result<byte[]> r = Formatter.format(before, shown);
        if (r.hasErrors()) {
            view.diagnostics(r.diagnostics(), sources(shown, before));
            outcome.invalid = true;
            return;
        }
        byte[] after = r.value();
        if (Arrays.equals(before, after)) {
            return;
        }
        outcome.changed = true;
        if (opts.list()) {
            view.listFile(shown);
        }
        if (opts.write()) {
            try {
                writeAtomically(file, after);
            } catch (IOException e) {
                view.error(
                        "Failed to write file",
                        "Could not write " + IoProblems.describe(shown, e) + ". The file was left as it was.");
                outcome.invalid = true;
                return;
            }
        }
        if (opts.diff()) {
            view.diff(UnifiedDiff.of(shown, before, after));
        }
    }

    private int formatStdin(CommandContext context, Args opts, FmtView view) {
        byte[] before;
        try {
            before = context.stdin().readAllBytes();
        } catch (IOException e) {
            view.error("Failed to read standard input", "Could not read standard input: " + IoProblems.reason(e) + ".");
            return EXIT_INVALID;
        }
        Result<byte[]> r = Formatter.format(before, "<stdin>");
        if (r.hasErrors()) {
            view.diagnostics(r.diagnostics(), sources("<stdin>", before));
            return EXIT_INVALID;
        }
        boolean changed = !Arrays.equals(before, r.value());
        if (opts.check()) {
            return changed ? EXIT_CHANGES : 0;
        }
        if (opts.diff()) {
            if (changed) {
                view.diff(UnifiedDiff.of("<stdin>", before, r.value()));
            }
        } else {
            view.raw(Formatter.forStandardOutput(r.value()));
        }
        return 0;
    }

    private static DiagnosticRenderer.Sources sources(String name, byte[] bytes) {
        return new DiagnosticRenderer.Sources() {
            private Body body;

            @Override
            public byte[] bytes(String filename) {
                return filename.equals(name) ? bytes : null;
            }

            @Override
            public Body body(String filename) {
                if (!filename.equals(name)) {
                    return null;
                }
                if (body == null) {
                    Result<HclFile> parsed = NativeSyntax.parseConfig(bytes, name);
                    body = parsed.value().body();
                }
                return body;
            }
        };
    }

    /** Replaces the file's content in one step, keeping its permissions: never a half-written file. */
    static void writeAtomically(Path file, byte[] content) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        Path tmp = Files.createTempFile(dir, "." + file.getFileName() + ".", ".tmp");
        try {
            Files.write(tmp, content);
            PosixFileAttributeView src = Files.getFileAttributeView(file, PosixFileAttributeView.class);
            if (src != null) {
                Files.setPosixFilePermissions(tmp, src.readAttributes().permissions());
            }
            try {
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
