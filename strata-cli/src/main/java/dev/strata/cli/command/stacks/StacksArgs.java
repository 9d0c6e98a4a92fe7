package dev.strata.cli.command.stacks;

import dev.strata.cli.command.Flag;
import dev.strata.cli.command.FlagSet;
import dev.strata.cli.command.ParsedArgs;
import dev.strata.cli.view.CliDiagnostic;
import java.util.List;
import java.util.Optional;

/**
 * The arguments of each {@code strata stacks} subcommand, parsed once into a record (ADR 0010). Each
 * subcommand's flags are declared here, beside the record they fill.
 */
final class StacksArgs {
    private StacksArgs() {}

    /** A parsed record, or the one problem with the arguments. */
    record Parsed<T>(T value, CliDiagnostic problem) {
        static <T> Parsed<T> of(T v) {
            return new Parsed<>(v, null);
        }

        static <T> Parsed<T> failed(String summary, String detail) {
            return new Parsed<>(null, CliDiagnostic.error(summary, detail));
        }
    }

    /** {@code plan}, {@code apply}, {@code destroy}: which deployments, how, and where the plan goes. */
    record Operation(
            List<String> deployments,
            Optional<String> out,
            Optional<String> planFile,
            boolean destroy,
            boolean autoApprove,
            boolean json,
            int concurrency,
            int parallelism) {}

    /** {@code show}, {@code output}, {@code list}: which deployments, and the output form. */
    record Inspect(List<String> deployments, boolean json, Optional<String> name) {}

    /** {@code init}, {@code validate}, {@code providers}. */
    record Plain(boolean json) {}

    /**
     * {@code init}: the backend to record ({@code local} or {@code pg}; empty keeps the recorded one), its
     * {@code -backend-config=KEY=VALUE} settings, whether to drop the recorded backend's state, and
     * whether to install every component source and module again at the newest versions allowed.
     */
    record Init(
            Optional<String> backend,
            java.util.SortedMap<String, String> backendConfig,
            boolean reconfigure,
            boolean upgrade) {}

    static final class InitFlags {
        final FlagSet flags = new FlagSet();
        final Flag<String> backend = flags.string(
                "backend", "", "TYPE", "Where deployment states are stored: local (files, the default) or pg.");
        final Flag<List<String>> backendConfig = flags.repeated(
                "backend-config",
                "KEY=VALUE",
                "A setting of the backend (pg: conn_str, schema_name); repeat for several.");
        final Flag<Boolean> reconfigure = flags.bool(
                "reconfigure", false, "Switch backends even though the recorded one holds deployment states.");
        final Flag<Boolean> upgrade = flags.bool(
                "upgrade",
                false,
                "Install every component source and module again, at the newest versions their constraints allow.");

        Parsed<Init> parse(ParsedArgs a) {
            if (!a.positionals().isEmpty()) {
                return Parsed.failed(
                        "Too many command line arguments",
                        "Unexpected argument \"" + a.positionals().getFirst()
                                + "\". Run \"strata stacks init -help\" for the usage.");
            }
            java.util.SortedMap<String, String> config = new java.util.TreeMap<>();
            for (String kv : a.get(backendConfig)) {
                int eq = kv.indexOf('=');
                if (eq <= 0) {
                    return Parsed.failed(
                            "Invalid backend configuration argument",
                            "The -backend-config option takes KEY=VALUE (for example "
                                    + "-backend-config=schema_name=stacks); got \"" + kv + "\".");
                }
                config.put(kv.substring(0, eq), kv.substring(eq + 1));
            }
            String b = a.get(backend);
            if (b.isEmpty() && !config.isEmpty()) {
                return Parsed.failed(
                        "Backend type required", "-backend-config needs -backend=TYPE beside it (local or pg).");
            }
            return Parsed.of(new Init(
                    b.isEmpty() ? Optional.empty() : Optional.of(b), config, a.get(reconfigure), a.get(upgrade)));
        }
    }

    /** {@code fmt}. */
    record Fmt(boolean check, boolean write, boolean list) {}

    static final class OperationFlags {
        final FlagSet flags = new FlagSet();
        final Flag<List<String>> deployment = flags.repeated(
                "deployment", "NAME", "A deployment to work on; repeat for several. Default: every deployment.");
        final Flag<String> out;
        final Flag<Boolean> destroy;
        final Flag<Boolean> autoApprove;
        final Flag<Boolean> json =
                flags.bool("json", false, "One JSON record per line for each deployment and component instance.");
        final Flag<Integer> concurrency =
                flags.integer("concurrency", 4, "N", "How many deployments to plan and apply at once.");
        final Flag<Integer> parallelism = flags.integer(
                "parallelism", 4, "N", "How many component instances of one deployment the engine works on at once.");
        private final String name;

        OperationFlags(String name) {
            this.name = name;
            this.out = name.equals("plan")
                    ? flags.string("out", "", "FILE", "Write the plan of every selected deployment to FILE, for apply.")
                    : null;
            this.destroy = name.equals("destroy")
                    ? null
                    : flags.bool("destroy", false, "Plan to destroy everything the deployments have.");
            this.autoApprove = name.equals("plan")
                    ? null
                    : flags.bool("auto-approve", false, "Apply every deployment without asking.");
        }

        Parsed<Operation> parse(ParsedArgs a) {
            List<String> pos = a.positionals();
            Optional<String> planFile = Optional.empty();
            if (name.equals("apply") && pos.size() == 1) {
                planFile = Optional.of(pos.getFirst());
            } else if (!pos.isEmpty()) {
                return Parsed.failed(
                        "Too many command line arguments",
                        "Unexpected argument \"" + pos.getFirst() + "\". Run \"strata stacks " + name
                                + " -help\" for the usage.");
            }
            int conc = a.get(concurrency);
            int par = a.get(parallelism);
            if (conc < 1 || par < 1) {
                return Parsed.failed("Invalid value", "-concurrency and -parallelism must be at least 1.");
            }
            boolean json = a.get(this.json);
            boolean auto = autoApprove != null && a.get(autoApprove);
            if (json && name.equals("apply") && planFile.isEmpty() && !auto) {
                return Parsed.failed(
                        "Plan file or auto-approve required",
                        "Strata cannot ask for interactive approval when -json is set. To use -json, give a saved "
                                + "plan file or -auto-approve.");
            }
            String o = out == null ? "" : a.get(out);
            return Parsed.of(new Operation(
                    List.copyOf(a.get(deployment)),
                    o.isEmpty() ? Optional.empty() : Optional.of(o),
                    planFile,
                    name.equals("destroy") || destroy != null && a.get(destroy),
                    auto,
                    json,
                    conc,
                    par));
        }
    }

    static final class InspectFlags {
        final FlagSet flags = new FlagSet();
        final Flag<List<String>> deployment = flags.repeated(
                "deployment", "NAME", "A deployment to show; repeat for several. Default: every deployment.");
        final Flag<Boolean> json = flags.bool("json", false, "Machine-readable JSON.");
        private final boolean takesName;
        private final String name;

        InspectFlags(String name, boolean takesName) {
            this.name = name;
            this.takesName = takesName;
        }

        Parsed<Inspect> parse(ParsedArgs a) {
            List<String> pos = a.positionals();
            if (pos.size() > (takesName ? 1 : 0)) {
                return Parsed.failed(
                        "Too many command line arguments",
                        "Unexpected argument \"" + pos.getLast() + "\". Run \"strata stacks " + name
                                + " -help\" for the usage.");
            }
            return Parsed.of(new Inspect(
                    List.copyOf(a.get(deployment)),
                    a.get(json),
                    pos.isEmpty() ? Optional.empty() : Optional.of(pos.getFirst())));
        }
    }

    static final class PlainFlags {
        final FlagSet flags = new FlagSet();
        final Flag<Boolean> json;
        private final String name;

        PlainFlags(String name, boolean json) {
            this.name = name;
            this.json = json ? flags.bool("json", false, "Machine-readable JSON.") : null;
        }

        Parsed<Plain> parse(ParsedArgs a) {
            if (!a.positionals().isEmpty()) {
                return Parsed.failed(
                        "Too many command line arguments",
                        "Unexpected argument \"" + a.positionals().getFirst() + "\". Run \"strata stacks " + name
                                + " -help\" for the usage.");
            }
            return Parsed.of(new Plain(json != null && a.get(json)));
        }
    }

    static final class FmtFlags {
        final FlagSet flags = new FlagSet();
        final Flag<Boolean> check = flags.bool("check", false, "Only check; exit 3 when a file would change.");
        final Flag<Boolean> write = flags.bool("write", true, "Write the formatted files.");
        final Flag<Boolean> list = flags.bool("list", true, "List the files that changed.");

        Parsed<Fmt> parse(ParsedArgs a) {
            if (!a.positionals().isEmpty()) {
                return Parsed.failed(
                        "Too many command line arguments",
                        "Unexpected argument \"" + a.positionals().getFirst() + "\". \"strata stacks fmt\" formats "
                                + "the Stack in the working directory.");
            }
            boolean c = a.get(check);
            return Parsed.of(new Fmt(c, !c && a.get(write), a.get(list)));
        }
    }
}
