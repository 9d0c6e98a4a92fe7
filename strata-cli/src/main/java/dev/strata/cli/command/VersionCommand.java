package dev.strata.cli.command;

import dev.strata.cli.version.Version;
import dev.strata.cli.view.VersionView;
import dev.strata.tfplugin.install.Platform;
import java.util.List;

/** {@code strata version}: Strata's version and platform, as text or as JSON for scripts. */
final class VersionCommand implements Command {
    private static final FlagSet FLAGS = new FlagSet();
    private static final Flag<Boolean> JSON =
            FLAGS.bool("json", false, "Print the version information as a JSON object.");

    /** What the view shows. Provider selections join when providers are installed per working dir. */
    record Args(boolean json) {}

    @Override
    public String name() {
        return "version";
    }

    @Override
    public String synopsis() {
        return "Show the Strata version and platform";
    }

    @Override
    public Section section() {
        return Section.OTHER;
    }

    @Override
    public String description() {
        return "Prints the version of Strata and the platform it runs on.";
    }

    @Override
    public FlagSet flags() {
        return FLAGS;
    }

    @Override
    public int run(CommandContext context, ParsedArgs parsed) {
        // Terraform ignores extra positional arguments here; so do we, for drop-in compatibility.
        Args args = new Args(parsed.get(JSON));
        VersionView view = args.json() ? new VersionView.Json(context) : new VersionView.Human(context);
        // As Terraform, the provider selections are the dependency lock file's; an unreadable one shows none.
        var lock = ProviderSetup.readLock(context.workingDir()).value();
        List<VersionView.ProviderSelection> selections = lock == null
                ? List.of()
                : lock.providers().values().stream()
                        .map(e -> new VersionView.ProviderSelection(e.address().toString(), e.version()))
                        .toList();
        view.show(Version.current(), Platform.current().toString(), selections);
        return 0;
    }
}
