package dev.strata.cli.command;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.strata.addr.Provider;
import dev.strata.addr.VersionConstraint;
import dev.strata.cli.view.CliDiagnostic;
import dev.strata.cli.view.ProvidersView;
import dev.strata.config.CheckConfig;
import dev.strata.config.ConfigLoader;
import dev.strata.config.ConfigNode;
import dev.strata.config.ConfigTree;
import dev.strata.config.ModuleConfig;
import dev.strata.config.ProviderConfig;
import dev.strata.config.ProviderRequirements;
import dev.strata.config.RequiredProvider;
import dev.strata.config.ResourceConfig;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.IoProblems;
import dev.strata.hcl.Result;
import dev.strata.provider.ProviderFactory;
import dev.strata.provider.ProviderRegistry;
import dev.strata.tfplugin.InstalledProviders;
import dev.strata.tfplugin.SchemaJson;
import dev.strata.tfplugin.TerraformProvider;
import dev.strata.tfplugin.install.Constraints;
import dev.strata.tfplugin.install.LockFile;
import dev.strata.tfplugin.install.Platform;
import dev.strata.tfplugin.install.ProviderInstaller;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * {@code strata providers [schema -json | lock | mirror DIR]}: the provider requirements of the
 * configuration as a tree, the schemas of the required providers in Terraform's JSON format, the
 * dependency lock file's hashes for more platforms, and a filesystem mirror of the required providers.
 */
final class ProvidersCommand extends ParentCommand {
    private static final FlagSet SCHEMA = new FlagSet();
    private static final Flag<Boolean> SCHEMA_JSON =
            SCHEMA.bool("json", false, "Print the schemas as JSON (required).");
    private static final FlagSet LOCK = new FlagSet();
    private static final Flag<List<String>> LOCK_PLATFORM = LOCK.repeated(
            "platform",
            "OS_ARCH",
            "A platform to record package hashes for, such as linux_amd64; may be repeated. Default: this machine's.");
    private static final Flag<String> LOCK_FS_MIRROR = LOCK.string(
            "fs-mirror",
            "",
            "DIR",
            "Take the packages from this filesystem mirror instead of the CLI configuration's installation methods.");
    private static final FlagSet MIRROR = new FlagSet();
    private static final Flag<List<String>> MIRROR_PLATFORM = MIRROR.repeated(
            "platform", "OS_ARCH", "A platform to mirror packages for; may be repeated. Default: this machine's.");

    private static final List<SubcommandHelp> HELP = List.of(
            new SubcommandHelp(
                    "schema",
                    "-json",
                    "print the schemas of the providers the configuration requires, in "
                            + "the JSON format of terraform providers schema -json. Needs strata init first.",
                    SCHEMA),
            new SubcommandHelp(
                    "lock",
                    "[-platform=OS_ARCH ...] [-fs-mirror=DIR] [PROVIDER ...]",
                    "record in "
                            + ".terraform.lock.hcl the package hashes of the selected provider versions for each platform, "
                            + "without installing them.",
                    LOCK),
            new SubcommandHelp(
                    "mirror",
                    "[-platform=OS_ARCH ...] DIR",
                    "copy the selected versions of the required "
                            + "providers into DIR in the packed layout of a filesystem mirror, with its index files.",
                    MIRROR));

    ProvidersCommand() {
        super(
                "providers",
                "Show the providers required for this configuration",
                "[subcommand] [options]",
                "Without a subcommand, print the providers the configuration requires, module by module, with their "
                        + "version constraints.",
                "",
                HELP);
    }

    @Override
    public int run(CommandContext context, ParsedArgs parsed) {
        ProvidersView view = new ProvidersView(context);
        Result<ConfigTree> loaded = ConfigLoader.loadTree(
                context.workingDir(), ConfigLoader.Options.DEFAULT.withEnvironment(context.env()));
        if (parsed.positionals().isEmpty()) {
            if (loaded.hasErrors()) {
                view.diagnostics(loaded.diagnostics(), loaded.value().diagnosticSources());
                return 1;
            }
            view.tree(render(tree(loaded.value().root())));
            Parsed<StateCli.Stored> stored = StateCli.readUnlocked(context);
            view.cliDiagnostics(stored.diagnostics());
            if (stored.value() == null) {
                return 1;
            }
            view.stateProviders(stateProviders(stored.value().state()));
            // As Terraform: the configuration's warnings follow what it requires.
            if (!loaded.diagnostics().isEmpty()) {
                view.diagnostics(loaded.diagnostics(), loaded.value().diagnosticSources());
            }
            return 0;
        }
        Parsed<SubcommandHelp.Selected> parsedSub = select(parsed.positionals());
        if (parsedSub.hasErrors()) {
            view.cliDiagnostics(parsedSub.diagnostics());
            return 1;
        }
        SubcommandHelp.Selected selected = parsedSub.value();
        if (loaded.hasErrors()) {
            view.diagnostics(loaded.diagnostics(), loaded.value().diagnosticSources());
            return 1;
        }
        ConfigTree tree = loaded.value();
        return switch (selected.name()) {
            case "schema" -> schema(context, view, tree, selected.args());
            case "lock" -> lock(context, view, tree, selected.args());
            case "mirror" -> mirror(context, view, tree, selected.args());
            default -> throw new IllegalStateException(selected.name());
        };
    }

    // ---- the requirements tree ------------------------------------------------------------------

    /** Every provider the state's resources were made by, without module path or alias, sorted. */
    static java.util.SortedSet<String> stateProviders(dev.strata.state.StateSnapshot state) {
        java.util.SortedSet<String> out = new java.util.TreeSet<>();
        for (dev.strata.state.ResourceState rs : state.resources()) {
            out.add(rs.provider().provider().toString());
        }
        return out;
    }

    /** One module's own provider requirements and its child modules. */
    record Node(String name, SortedMap<Provider, List<String>> providers, List<Node> children) {}

    static Node tree(ConfigNode n) {
        SortedMap<Provider, List<String>> own = new TreeMap<>();
        ModuleConfig m = n.module();
        for (RequiredProvider rp : m.requiredProviders().values()) {
            List<String> l = own.computeIfAbsent(rp.source(), k -> new ArrayList<>());
            if (rp.version() != null) {
                l.add(rp.version().source());
            }
        }
        for (ResourceConfig r : m.resources().values()) {
            own.computeIfAbsent(m.providerFor(r.providerConfig().localName()), k -> new ArrayList<>());
        }
        for (CheckConfig c : m.checks().values()) {
            if (c.data() != null) {
                own.computeIfAbsent(m.providerFor(c.data().providerConfig().localName()), k -> new ArrayList<>());
            }
        }
        for (ProviderConfig p : m.providerConfigs().values()) {
            own.computeIfAbsent(m.providerFor(p.name()), k -> new ArrayList<>());
        }
        List<Node> children = new ArrayList<>();
        n.children().forEach((name, c) -> children.add(tree(c)));
        String name = n.isRoot()
                ? "."
                : "module." + n.path().names().get(n.path().names().size() - 1);
        return new Node(name, own, children);
    }

    /** Terraform's rendering: the module, then its providers and child modules as tree branches. */
    static List<String> render(Node root) {
        List<String> out = new ArrayList<>();
        out.add(root.name());
        renderChildren(root, "", out);
        return out;
    }

    private static void renderChildren(Node n, String indent, List<String> out) {
        List<Object> items = new ArrayList<>();
        n.providers().forEach((p, c) -> items.add(Map.entry(p, c)));
        items.addAll(n.children());
        for (int i = 0; i < items.size(); i++) {
            boolean last = i == items.size() - 1;
            String branch = indent + (last ? "└── " : "├── ");
            if (items.get(i) instanceof Map.Entry<?, ?> e) {
                @SuppressWarnings("unchecked")
                List<String> cs = (List<String>) e.getValue();
                String constraints = Constraints.normalize(cs).orElse(String.join(", ", cs));
                out.add(branch + "provider[" + e.getKey() + "]" + (constraints.isEmpty() ? "" : " " + constraints));
            } else {
                Node child = (Node) items.get(i);
                out.add(branch + child.name());
                // As Terraform's tree: the bar is followed by two no-break spaces and a space.
                renderChildren(child, indent + (last ? "    " : "│\u00a0\u00a0 "), out);
            }
        }
    }

    // ---- the subcommands' arguments ----------------------------------------------------------------

    /** {@code providers schema}'s one flag, which is required (refused with Terraform's plain usage line). */
    record SchemaArgs(boolean json) {

        static SchemaArgs parse(ParsedArgs args) {
            return new SchemaArgs(args.get(SCHEMA_JSON));
        }
    }

    /**
     * {@code providers lock}'s arguments: the providers named (all required ones when none), the platforms
     * and the filesystem mirror to read from. Platform problems are reported after the provider names are
     * checked against the configuration, so the record carries them unreported.
     */
    record LockArgs(List<String> providers, Parsed<List<Platform>> platforms, Optional<String> fsMirror) {

        static LockArgs parse(ParsedArgs args) {
            String mirror = args.get(LOCK_FS_MIRROR);
            return new LockArgs(
                    args.positionals(),
                    ProvidersCommand.platforms(args.get(LOCK_PLATFORM)),
                    mirror.isEmpty() ? Optional.empty() : Optional.of(mirror));
        }
    }

    /**
     * {@code providers mirror}'s target directory and platforms (carried unreported, as in {@link LockArgs});
     * empty unless exactly one directory is given.
     */
    record MirrorArgs(String directory, Parsed<List<Platform>> platforms) {

        static Optional<MirrorArgs> parse(ParsedArgs args) {
            return args.positionals().size() != 1
                    ? Optional.empty()
                    : Optional.of(new MirrorArgs(
                            args.positionals().get(0), ProvidersCommand.platforms(args.get(MIRROR_PLATFORM))));
        }
    }

    // ---- schema -json ----------------------------------------------------------------------------

    private int schema(CommandContext context, ProvidersView view, ConfigTree tree, ParsedArgs args) {
        if (!SchemaArgs.parse(args).json()) {
            view.errorText("The `strata providers schema` command requires the `-json` flag.\n\n"
                    + "Usage: strata [global options] providers schema -json");
            return 1;
        }
        ProviderRegistry builtins = ProviderSetup.builtins();
        InstalledProviders installed = InstalledProviders.forWorkingDirectory(context.workingDir(), context.env());
        ObjectNode doc = new ObjectMapper().createObjectNode();
        doc.put("format_version", "1.0");
        ObjectNode schemas = doc.putObject("provider_schemas");
        Diagnostics.Builder diags = Diagnostics.builder();
        for (Map.Entry<Provider, List<VersionConstraint>> e :
                ProviderRequirements.of(tree).entrySet()) {
            Provider p = e.getKey();
            VersionConstraint constraints = ProviderSetup.constraints(
                    e.getValue().stream().map(VersionConstraint::source).toList());
            Result<ProviderFactory> f =
                    builtins.has(p) ? builtins.resolve(p, constraints) : installed.resolve(p, constraints);
            diags.addAll(f.diagnostics());
            if (f.value() == null) {
                continue;
            }
            try (dev.strata.provider.Provider provider = f.value().create()) {
                if (provider instanceof TerraformProvider tp) {
                    Result<dev.strata.tfplugin.ProviderSchema> s = tp.checkPluginSchema();
                    diags.addAll(s.diagnostics());
                    if (s.value() != null) {
                        schemas.set(p.toString(), SchemaJson.write(s.value()));
                    }
                } else {
                    schemas.set(p.toString(), SchemaJson.write(provider.schema(), provider.functions()));
                }
            }
        }
        Diagnostics ds = diags.build();
        if (ds.hasErrors()) {
            view.diagnostics(ds, tree.diagnosticSources());
            return 1;
        }
        view.json(doc);
        return 0;
    }

    // ---- lock and mirror -------------------------------------------------------------------------

    /** The external providers the configuration requires: all, or those {@code only} names (each must be one). */
    private static Parsed<List<ProviderInstaller.Requirement>> external(ConfigTree tree, List<String> only) {
        List<CliDiagnostic> problems = new ArrayList<>();
        ProviderRegistry builtins = ProviderSetup.builtins();
        List<ProviderInstaller.Requirement> out = new ArrayList<>();
        List<String> seen = new ArrayList<>();
        for (Map.Entry<Provider, List<VersionConstraint>> e :
                ProviderRequirements.of(tree).entrySet()) {
            Provider p = e.getKey();
            if (p.isBuiltIn() || builtins.has(p)) {
                continue;
            }
            if (!only.isEmpty() && !only.contains(p.toString()) && !only.contains(p.forDisplay())) {
                continue;
            }
            seen.add(p.toString());
            seen.add(p.forDisplay());
            out.add(new ProviderInstaller.Requirement(
                    p, e.getValue().stream().map(VersionConstraint::source).toList()));
        }
        for (String o : only) {
            if (!seen.contains(o)) {
                problems.add(CliDiagnostic.error(
                        "Invalid provider argument",
                        "The provider " + o + " is not required" + " by the current configuration."));
            }
        }
        return new Parsed<>(out, problems);
    }

    /** The {@code -platform} options as platforms; this machine's when none is given. */
    private static Parsed<List<Platform>> platforms(List<String> given) {
        if (given.isEmpty()) {
            return Parsed.of(List.of(Platform.current()));
        }
        List<Platform> out = new ArrayList<>();
        for (String g : given) {
            int u = g.indexOf('_');
            if (u <= 0 || u == g.length() - 1) {
                return Parsed.failed(CliDiagnostic.error(
                        "Invalid target platform",
                        "The string \"" + g + "\" given "
                                + "in the -platform option is not a valid target platform: must be two words separated by an "
                                + "underscore, like linux_amd64."));
            }
            out.add(new Platform(g.substring(0, u), g.substring(u + 1)));
        }
        return Parsed.of(out);
    }

    /** What lock and mirror work on: the required external providers, the platforms, the lock file as it is. */
    private record Selection(
            List<ProviderInstaller.Requirement> requirements, List<Platform> platforms, LockFile previous) {}

    /** The providers {@code names} select (all required ones when empty) for the given platforms; empty after reporting. */
    private static Optional<Selection> selection(
            CommandContext context,
            ProvidersView view,
            ConfigTree tree,
            List<String> names,
            Parsed<List<Platform>> platforms) {
        Parsed<List<ProviderInstaller.Requirement>> reqs = external(tree, names);
        if (reqs.hasErrors() || platforms.hasErrors()) {
            List<CliDiagnostic> problems = new ArrayList<>(reqs.diagnostics());
            problems.addAll(platforms.diagnostics());
            view.cliDiagnostics(problems);
            return Optional.empty();
        }
        Result<LockFile> previous = ProviderSetup.readLock(context.workingDir());
        if (previous.value() == null || previous.hasErrors()) {
            view.diagnostics(previous.diagnostics(), tree.diagnosticSources());
            return Optional.empty();
        }
        return Optional.of(new Selection(reqs.value(), platforms.value(), previous.value()));
    }

    private int lock(CommandContext context, ProvidersView view, ConfigTree tree, ParsedArgs parsed) {
        LockArgs args = LockArgs.parse(parsed);
        Optional<Selection> selected = selection(context, view, tree, args.providers(), args.platforms());
        if (selected.isEmpty()) {
            return 1;
        }
        Selection sel = selected.get();
        Result<LockFile> r = ProviderInstaller.lock(
                ProviderSetup.options(context, false),
                sel.requirements(),
                sel.previous(),
                sel.platforms(),
                args.fsMirror().map(context::resolve),
                view::item);
        // Providers not named on the command line keep their entries.
        LockFile lock = r.value();
        for (LockFile.Entry e : sel.previous().providers().values()) {
            if (lock.entry(e.address()).isEmpty()) {
                lock = lock.with(e);
            }
        }
        if (r.hasErrors()) {
            view.diagnostics(r.diagnostics(), tree.diagnosticSources());
            return 1;
        }
        view.diagnostics(r.diagnostics(), tree.diagnosticSources());
        if (lock.equals(sel.previous())) {
            view.success("Success! Strata has validated the lock file and found no need for changes.");
            return 0;
        }
        try {
            ProviderSetup.writeLock(context.workingDir(), lock);
        } catch (IOException e) {
            view.diagnostics(
                    Diagnostics.of(Diagnostic.error(
                            "Failed to write the dependency lock file",
                            "Could not write " + IoProblems.describe(LockFile.FILENAME, e) + ".",
                            null)),
                    tree.diagnosticSources());
            return 1;
        }
        view.success("Success! Strata has updated the lock file.\n\nReview the changes in .terraform.lock.hcl and then "
                + "commit to your\nversion control system to retain the new checksums.");
        return 0;
    }

    private int mirror(CommandContext context, ProvidersView view, ConfigTree tree, ParsedArgs parsed) {
        Optional<MirrorArgs> args = MirrorArgs.parse(parsed);
        if (args.isEmpty()) {
            view.errorText("The providers mirror command requires an output directory as a command-line argument.\n\n"
                    + "Usage: strata [global options] providers mirror [options] <target-dir>");
            return 1;
        }
        Optional<Selection> selected =
                selection(context, view, tree, List.of(), args.get().platforms());
        if (selected.isEmpty()) {
            return 1;
        }
        Selection sel = selected.get();
        Result<List<Path>> r = ProviderInstaller.mirror(
                ProviderSetup.options(context, false),
                sel.requirements(),
                sel.previous(),
                sel.platforms(),
                context.resolve(args.get().directory()),
                view::item);
        view.diagnostics(r.diagnostics(), tree.diagnosticSources());
        return r.hasErrors() ? 1 : 0;
    }
}
