package dev.strata.cli.command;

import dev.strata.cli.view.CliDiagnostic;
import dev.strata.cli.view.ModulesView;
import dev.strata.config.ConfigLoader;
import dev.strata.config.ConfigNode;
import dev.strata.config.ConfigTree;
import dev.strata.config.ModuleInstaller;
import dev.strata.hcl.Result;
import java.util.List;
import java.util.Map;

/**
 * {@code strata modules [-json]}: the module calls of the configuration, as a tree or as
 * {@code terraform modules -json} lists them. Calls are listed by name at each level; a call whose
 * module could not be loaded makes the command fail with the loader's error, as Terraform does for a
 * module that is not installed.
 */
final class ModulesCommand implements Command {
    private static final FlagSet FLAGS = new FlagSet();
    private static final Flag<Boolean> JSON = FLAGS.bool(
            "json",
            false,
            "If specified, output declared modules and their resolved versions in a machine-readable format.");

    @Override
    public String name() {
        return "modules";
    }

    @Override
    public String synopsis() {
        return "Show all declared modules in a working directory";
    }

    @Override
    public Section section() {
        return Section.OTHER;
    }

    @Override
    public String description() {
        return "Prints out a list of all declared modules and their resolved versions in a working directory: the "
                + "calls of the root module and, under each, the calls of the module it brings in.";
    }

    @Override
    public FlagSet flags() {
        return FLAGS;
    }

    /** The arguments: the form of the listing. */
    record Args(boolean json) {
        static Parsed<Args> parse(ParsedArgs args) {
            Args parsed = new Args(args.get(JSON));
            if (!args.positionals().isEmpty()) {
                return new Parsed<>(
                        parsed,
                        List.of(CliDiagnostic.error(
                                "Unexpected argument",
                                "The modules command takes no arguments; use the global -chdir option to list the "
                                        + "modules of another directory.")));
            }
            return Parsed.of(parsed);
        }
    }

    @Override
    public int run(CommandContext context, ParsedArgs parsed) {
        Parsed<Args> args = Args.parse(parsed);
        ModulesView view = ModulesView.of(context, args.value().json());
        if (args.hasErrors()) {
            view.diagnostics(args.diagnostics());
            return 1;
        }
        Result<ConfigTree> tree = ConfigLoader.loadTree(
                context.workingDir(), ConfigLoader.Options.DEFAULT.withEnvironment(context.env()));
        if (tree.hasErrors()) {
            view.diagnostics(tree.diagnostics(), tree.value().diagnosticSources());
            return 1;
        }
        view.diagnostics(tree.diagnostics(), tree.value().diagnosticSources());
        view.modules(calls(
                tree.value().root(),
                ModuleInstaller.installedVersions(
                        context.workingDir(), context.env().get("TF_DATA_DIR"))));
        return 0;
    }

    /**
     * The calls of {@code node}'s module, by name (the children map is sorted), with the registry
     * versions the manifest records by module key.
     */
    static List<ModulesView.Call> calls(ConfigNode node, Map<String, String> versions) {
        return node.children().values().stream()
                .map(child -> new ModulesView.Call(
                        child.call().name(),
                        ModuleInstaller.shownSource(child.call().source()),
                        versions.getOrDefault(String.join(".", child.path().names()), ""),
                        child.call().version() == null
                                ? ""
                                : child.call().version().source(),
                        calls(child, versions)))
                .toList();
    }
}
