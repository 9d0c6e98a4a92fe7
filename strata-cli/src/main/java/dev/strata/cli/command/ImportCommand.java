package dev.strata.cli.command;

import dev.strata.addr.AbsResourceInstance;
import dev.strata.addr.Addrs;
import dev.strata.cli.view.ApplyView;
import dev.strata.cli.view.CliDiagnostic;
import dev.strata.cli.view.View;
import dev.strata.engine.PlanMode;
import dev.strata.engine.PlanOptions;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;

/** {@code strata import ADDR ID}: brings an existing remote object under Strata's management. */
final class ImportCommand implements Command {
    private static final FlagSet FLAGS = new FlagSet();
    private static final Operation OP = new Operation(FLAGS);

    @Override
    public String name() {
        return "import";
    }

    @Override
    public String synopsis() {
        return "Associate existing infrastructure with a Strata resource";
    }

    @Override
    public Section section() {
        return Section.OTHER;
    }

    @Override
    public String usage() {
        return "[options] ADDR ID";
    }

    @Override
    public String description() {
        return "Import existing infrastructure into your Strata state. This will find and import the specified "
                + "resource into your Strata state, allowing existing infrastructure to come under Strata "
                + "management without having to be initially created by Strata.\n\nThe ADDR specified is the address "
                + "to import the resource to; the configuration must declare it. The ID is a resource-specific ID to "
                + "identify that resource being imported. The state is locked while the object is imported.";
    }

    @Override
    public FlagSet flags() {
        return FLAGS;
    }

    /** The arguments: the resource instance to import to and the provider's ID of the remote object. */
    record Args(AbsResourceInstance address, String id) {

        static Parsed<Args> parse(ParsedArgs args) {
            if (args.positionals().size() != 2) {
                return Parsed.failed(CliDiagnostic.error(
                        "Wrong number of arguments",
                        "The import command expects " + "two arguments: the resource address and the resource ID."));
            }
            Result<AbsResourceInstance> addr =
                    Addrs.parseAbsResourceInstance(args.positionals().get(0));
            if (addr.value() == null) {
                return Parsed.failed(CliDiagnostic.error(
                        "Invalid address \"" + args.positionals().get(0) + "\"",
                        "The address must be a resource instance address, such as aws_instance.web or "
                                + "aws_instance.web[0]."));
            }
            return Parsed.of(new Args(addr.value(), args.positionals().get(1)));
        }
    }

    @Override
    public int run(CommandContext given, ParsedArgs parsed) {
        CommandContext context = OP.presentation(given, parsed);
        // The import is one operation: a first signal lets it finish; a second releases the lock and exits.
        try (ApplyView view = new ApplyView(context)) {
            Parsed<Args> args = Args.parse(parsed);
            if (args.hasErrors()) {
                view.diagnostics(args.diagnostics());
                return 1;
            }
            OperationRunner.Request request =
                    new OperationRunner.Request("OperationTypeImport", Operation.Needs.IMPORT, false);
            return OperationRunner.run(context, parsed, OP, view, request, s -> {
                PlanOptions options = s.options(OP, PlanMode.NORMAL, view);
                if (options == null) {
                    return 1;
                }
                view.diagnostics(Operation.narrowed(options), s.loaded().sources());
                if (!Operation.checkStateWritable(s.state(), view, s.loaded().sources())) {
                    return 1;
                }
                AbsResourceInstance addr = args.value().address();
                boolean declared = s.loaded()
                        .tree()
                        .node(addr.module().module())
                        .map(n -> n.module()
                                .resources()
                                .containsKey(addr.resource().resource()))
                        .orElse(false);
                Diagnostics d = s.engine()
                        .importResource(
                                s.loaded().variables(),
                                s.state(),
                                options,
                                args.value().address(),
                                args.value().id(),
                                view);
                if (d.hasErrors() && !declared) {
                    // As Terraform, an address the configuration lacks is refused in plain text (unframed, unwrapped,
                    // its example block intact).
                    for (dev.strata.hcl.Diagnostic e : d.asList().stream()
                            .filter(dev.strata.hcl.Diagnostic::isError)
                            .toList()) {
                        view.err()
                                .print(view.style(
                                        View.Style.RED, "Error: " + e.summary() + "\n\n" + e.detail() + "\n\n"));
                    }
                    return 1;
                }
                if (d.hasErrors()) {
                    view.diagnostics(s.loaded().warnings().with(d), s.loaded().sources());
                    return 1;
                }
                view.imported();
                // As Terraform: the warnings follow the outcome.
                view.diagnostics(s.loaded().warnings().with(d), s.loaded().sources());
                return 0;
            });
        }
    }
}
