package dev.strata.cli.command;

import dev.strata.addr.AbsResourceInstance;
import dev.strata.addr.Addrs;
import dev.strata.addr.ResourceMode;
import dev.strata.cli.view.CliDiagnostic;
import dev.strata.cli.view.TaintView;
import dev.strata.hcl.Result;
import dev.strata.state.Backend;
import dev.strata.state.LockRequest;
import dev.strata.state.ObjectStatus;
import dev.strata.state.ResourceInstanceObject;
import dev.strata.state.ResourceState;
import dev.strata.state.StateManager;
import dev.strata.state.StateSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code strata taint ADDRESS} and {@code strata untaint ADDRESS}: mark the current object of one managed
 * resource instance as tainted (the next plan replaces it) or take that mark away, in the selected
 * workspace's state, under its lock and with the backup every state change keeps. Terraform's flags,
 * messages and exit codes.
 */
final class TaintCommand implements Command {
    private final boolean taint;
    private final FlagSet flags = new FlagSet();
    private final Flag<Boolean> allowMissing;
    private final LockFlags lock;
    private final LegacyStatePaths legacy;

    private TaintCommand(boolean taint) {
        this.taint = taint;
        allowMissing = flags.bool(
                "allow-missing",
                false,
                "If specified, the command will succeed (exit code 0) even if the resource is missing.");
        lock = new LockFlags(flags);
        legacy = new LegacyStatePaths(flags);
    }

    static TaintCommand taint() {
        return new TaintCommand(true);
    }

    static TaintCommand untaint() {
        return new TaintCommand(false);
    }

    @Override
    public String name() {
        return taint ? "taint" : "untaint";
    }

    @Override
    public String synopsis() {
        return taint
                ? "Mark a resource instance as not fully functional"
                : "Remove the 'tainted' state from a resource instance";
    }

    @Override
    public Section section() {
        return Section.OTHER;
    }

    @Override
    public String usage() {
        return "[options] <address>";
    }

    @Override
    public String description() {
        return taint
                ? "Strata uses the term \"tainted\" to describe a resource instance which may not be fully functional,"
                        + " either because its creation partially failed or because you've manually marked it as such"
                        + " using this command.\n\n"
                        + "This will not modify your infrastructure directly, but subsequent plans will include actions"
                        + " to destroy the remote object and create a new object to replace it.\n\n"
                        + "You can remove the \"taint\" state from a resource instance using the \"strata untaint\""
                        + " command.\n\n"
                        + "The address is in the usual resource address syntax, such as aws_instance.foo,"
                        + " aws_instance.bar[1] or module.foo.module.bar.aws_instance.baz."
                : "Strata uses the term \"tainted\" to describe a resource instance which may not be fully functional,"
                        + " either because its creation partially failed or because you've manually marked it as such"
                        + " using the \"strata taint\" command.\n\n"
                        + "This command removes that state from a resource instance, causing Strata to see it as fully"
                        + " functional and not in need of replacement.\n\n"
                        + "This will not modify your infrastructure directly. It only avoids Strata planning to replace"
                        + " a tainted instance in future.";
    }

    @Override
    public FlagSet flags() {
        return flags;
    }

    /**
     * The arguments: the one instance, whether a missing one is only a warning, the lock, and the legacy
     * local state paths.
     */
    record Args(AbsResourceInstance address, boolean allowMissing, LockRequest lock, LegacyStatePaths.Paths paths) {}

    /** Empty when not exactly one address is given (Terraform's plain usage error). */
    Optional<Parsed<Args>> parse(ParsedArgs args) {
        if (args.positionals().size() != 1) {
            return Optional.empty();
        }
        String text = args.positionals().get(0);
        Result<AbsResourceInstance> addr = Addrs.parseAbsResourceInstance(text);
        if (addr.value() == null) {
            return Optional.of(Parsed.failed(CliDiagnostic.error(
                    "Invalid address",
                    "\"" + text + "\" is not a valid resource instance address: " + Addrs.problem(addr.diagnostics())
                            + " Addresses look like aws_instance.web, aws_instance.web[0] or"
                            + " module.net.aws_subnet.a[\"x\"].")));
        }
        Parsed<LockRequest> lockRequest = lock.parse(args, "OperationTypeInvalid");
        if (lockRequest.hasErrors()) {
            return Optional.of(Parsed.failed(lockRequest.diagnostics()));
        }
        Parsed<LegacyStatePaths.Paths> paths = legacy.parse(args);
        if (paths.hasErrors()) {
            return Optional.of(Parsed.failed(paths.diagnostics()));
        }
        return Optional.of(
                Parsed.of(new Args(addr.value(), args.get(allowMissing), lockRequest.value(), paths.value())));
    }

    @Override
    public int run(CommandContext context, ParsedArgs parsed) {
        TaintView view = new TaintView(context);
        Optional<Parsed<Args>> given = parse(parsed);
        if (given.isEmpty()) {
            view.usageError("The " + name() + " command expects exactly one argument.", name());
            return 1;
        }
        if (given.get().hasErrors()) {
            view.diagnostics(given.get().diagnostics());
            return 1;
        }
        Args args = given.get().value();
        if (args.address().resource().resource().mode() != ResourceMode.MANAGED) {
            view.errorText("Resource instance " + args.address() + " cannot be " + (taint ? "tainted" : "untainted"));
            return 1;
        }
        try (Interrupts signals = Interrupts.install(context)) {
            Parsed<String> workspace = StateCli.workspace(context);
            if (!workspace.diagnostics().isEmpty()) {
                view.diagnostics(workspace.diagnostics());
                return 1;
            }
            Result<Backend> backend = LegacyStatePaths.backend(context, args.paths());
            view.diagnostics(backend.diagnostics());
            if (backend.value() == null) {
                return 1;
            }
            Result<StateManager> opened = signals.tracking(backend.value()).open(workspace.value(), args.lock());
            view.diagnostics(opened.diagnostics());
            if (opened.hasErrors()) {
                return 1;
            }
            try (StateManager state = opened.value()) {
                return edit(view, state, args);
            }
        }
    }

    private int edit(TaintView view, StateManager state, Args args) {
        AbsResourceInstance addr = args.address();
        StateSnapshot s = state.state();
        Optional<ResourceInstanceObject> current =
                s.objects(addr).stream().filter(o -> !o.isDeposed()).findFirst();
        if (current.isEmpty()) {
            if (args.allowMissing()) {
                view.diagnostics(List.of(CliDiagnostic.warning(
                        "No such resource instance",
                        "Resource instance " + addr
                                + " was not found, but this is not an error because -allow-missing was set.")));
                return 0;
            }
            view.diagnostics(List.of(CliDiagnostic.error(
                    "No such resource instance",
                    s.instanceAddresses().isEmpty()
                            ? "The state currently contains no resource instances whatsoever. This may occur if the"
                                    + " configuration has never been applied or if it has recently been destroyed."
                            : "There is no resource instance in the state with the address " + addr
                                    + ". If the resource configuration has just been added, you must run \"strata"
                                    + " apply\" once to create the corresponding instance(s) before they can be"
                                    + " tainted.")));
            return 1;
        }
        if (!taint && current.get().status() != ObjectStatus.TAINTED) {
            view.diagnostics(List.of(CliDiagnostic.error(
                    "Resource instance is not tainted",
                    "Resource instance " + addr + " is not currently tainted, and so it cannot be untainted.")));
            return 1;
        }
        ObjectStatus status = taint ? ObjectStatus.TAINTED : ObjectStatus.READY;
        Result<StateSnapshot> written = state.persist(withStatus(s, addr, status));
        if (written.hasErrors()) {
            view.diagnostics(written.diagnostics());
            return 1;
        }
        view.done(addr.toString(), taint);
        return 0;
    }

    /** {@code s} with the current object of {@code addr} in {@code status} (deposed objects keep theirs). */
    private static StateSnapshot withStatus(StateSnapshot s, AbsResourceInstance addr, ObjectStatus status) {
        List<ResourceState> resources = new ArrayList<>();
        for (ResourceState r : s.resources()) {
            if (!r.addr().equals(addr.containingResource())) {
                resources.add(r);
                continue;
            }
            resources.add(r.withInstances(r.instances().stream()
                    .map(o -> o.key().equals(addr.resource().key()) && !o.isDeposed() ? o.withStatus(status) : o)
                    .toList()));
        }
        return s.withResources(resources);
    }
}
