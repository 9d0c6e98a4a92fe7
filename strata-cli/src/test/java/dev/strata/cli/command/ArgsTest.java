package dev.strata.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.cli.view.CliDiagnostic;
import dev.strata.cli.view.OutputView;
import dev.strata.config.InputVariables;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Commands' arguments parsed into their records: the values, and the problems as diagnostics. */
class ArgsTest {

    private static ParsedArgs parse(Command command, String... args) {
        return switch (command.flags().parse(List.of(args))) {
            case FlagSet.Outcome.Parsed p -> p.args();
            case FlagSet.Outcome.Invalid i -> throw new AssertionError(i.diagnostic());
        };
    }

    @Test
    void outputChoosesOneFormJsonWinningForANamedOutputAndRawRefusedWithoutOne() {
        OutputCommand output = new OutputCommand();
        assertThat(OutputCommand.Args.parse(parse(output)).value())
                .isEqualTo(new OutputCommand.Args(Optional.empty(), OutputView.Format.HUMAN, ""));
        assertThat(OutputCommand.Args.parse(parse(output, "-json", "-raw", "x")).value())
                .isEqualTo(new OutputCommand.Args(Optional.of("x"), OutputView.Format.JSON, ""));
        assertThat(OutputCommand.Args.parse(parse(output, "-raw", "x")).value().format())
                .isEqualTo(OutputView.Format.RAW);
        // Without a name, -raw is the form whose refusal ("Output name required") is reported, -json or not.
        assertThat(OutputCommand.Args.parse(parse(output, "-json", "-raw"))
                        .value()
                        .format())
                .isEqualTo(OutputView.Format.RAW);

        Parsed<OutputCommand.Args> two = OutputCommand.Args.parse(parse(output, "a", "b"));
        assertThat(two.hasErrors()).isTrue();
        assertThat(two.diagnostics()).extracting(CliDiagnostic::summary).containsExactly("Unexpected argument");
    }

    @Test
    void showKeepsTheFormWhenTheArgumentsAreWrong() {
        Parsed<ShowCommand.Args> wrong = ShowCommand.Args.parse(parse(new ShowCommand(), "-json", "a", "b"));
        assertThat(wrong.hasErrors()).isTrue();
        assertThat(wrong.value().json()).isTrue();
        assertThat(wrong.diagnostics())
                .extracting(CliDiagnostic::summary)
                .containsExactly("Too many command line arguments");
        assertThat(ShowCommand.Args.parse(parse(new ShowCommand(), "plan.out")).value())
                .isEqualTo(new ShowCommand.Args(Optional.of("plan.out"), false));
    }

    @Test
    void planAndApplyKeepTheirFormWhenTheArgumentsAreWrong() {
        Parsed<PlanCommand.Args> both =
                PlanCommand.Args.parse(parse(new PlanCommand(), "-json", "-destroy", "-refresh-only"));
        assertThat(both.value().json()).isTrue();
        assertThat(both.diagnostics())
                .extracting(CliDiagnostic::summary)
                .containsExactly("Incompatible plan mode options");
        assertThat(PlanCommand.Args.parse(parse(new PlanCommand(), "-destroy", "-out=p", "-detailed-exitcode"))
                        .value())
                .isEqualTo(new PlanCommand.Args(dev.strata.engine.PlanMode.DESTROY, Optional.of("p"), true, false));

        ApplyCommand apply = ApplyCommand.apply();
        Parsed<ApplyCommand.Args> unapproved = apply.parse(parse(apply, "-json"));
        assertThat(unapproved.value().json()).isTrue();
        assertThat(unapproved.diagnostics())
                .extracting(CliDiagnostic::summary)
                .containsExactly("Plan file or auto-approve required");
        assertThat(apply.parse(parse(apply, "-json", "saved.plan")).value())
                .isEqualTo(new ApplyCommand.Args(
                        Optional.of("saved.plan"), dev.strata.engine.PlanMode.NORMAL, false, true));
        ApplyCommand destroy = ApplyCommand.destroy();
        assertThat(destroy.parse(parse(destroy, "x")).diagnostics())
                .extracting(CliDiagnostic::summary)
                .containsExactly("Too many command line arguments");
        ApplyCommand refresh = ApplyCommand.refresh();
        assertThat(refresh.parse(parse(refresh, "-json")).value().mode())
                .isEqualTo(dev.strata.engine.PlanMode.REFRESH_ONLY);
    }

    @Test
    void importValidateAndGraphReportTheirArgumentProblems() {
        assertThat(ImportCommand.Args.parse(parse(new ImportCommand(), "aws_instance.web"))
                        .diagnostics())
                .extracting(CliDiagnostic::summary)
                .containsExactly("Wrong number of arguments");
        assertThat(ImportCommand.Args.parse(parse(new ImportCommand(), "no such", "i-1"))
                        .diagnostics())
                .extracting(CliDiagnostic::summary)
                .containsExactly("Invalid address \"no such\"");
        assertThat(ImportCommand.Args.parse(parse(new ImportCommand(), "aws_instance.web[0]", "i-1"))
                        .value()
                        .id())
                .isEqualTo("i-1");
        Parsed<ValidateCommand.Args> validate = ValidateCommand.Args.parse(parse(new ValidateCommand(), "-json", "d"));
        assertThat(validate.value().json()).isTrue();
        assertThat(validate.diagnostics()).extracting(CliDiagnostic::summary).containsExactly("Unexpected argument");
        assertThat(GraphCommand.Args.parse(parse(new GraphCommand(), "-type=refresh"))
                        .diagnostics())
                .extracting(CliDiagnostic::summary)
                .containsExactly("Invalid graph type");
        assertThat(GraphCommand.Args.parse(parse(new GraphCommand(), "-type=apply", "-draw-cycles"))
                        .value())
                .isEqualTo(new GraphCommand.Args("apply", true));
    }

    @Test
    void aMalformedLockTimeoutIsADiagnosticNotANull() {
        FlagSet flags = new FlagSet();
        LockFlags lock = new LockFlags(flags);
        ParsedArgs args = ((FlagSet.Outcome.Parsed) flags.parse(List.of("-lock-timeout=soon"))).args();
        Parsed<dev.strata.state.LockRequest> r = lock.parse(args, "test");
        assertThat(r.hasErrors()).isTrue();
        assertThat(r.diagnostics())
                .extracting(CliDiagnostic::summary)
                .containsExactly("Invalid value for -lock-timeout");
    }

    @Test
    void consoleRefusesPositionalArgumentsAndKeepsVariablesInOrder() {
        ConsoleCommand console = new ConsoleCommand();
        assertThat(ConsoleCommand.Args.parse(parse(console, "x")).diagnostics())
                .extracting(CliDiagnostic::detail)
                .containsExactly("The console command takes no arguments; got \"x\".");
        assertThat(ConsoleCommand.Args.parse(parse(console, "-var=a=1", "-var-file=f.tfvars", "-var=a=2"))
                        .value()
                        .vars())
                .containsExactly(
                        new InputVariables.Arg.Var("a=1"),
                        new InputVariables.Arg.VarFile("f.tfvars"),
                        new InputVariables.Arg.Var("a=2"));
    }

    private static ParsedArgs sub(ParentCommand command, String... args) {
        Parsed<SubcommandHelp.Selected> selected = command.select(List.of(args));
        assertThat(selected.diagnostics()).isEmpty();
        return selected.value().args();
    }

    @Test
    void stateListAndShowParseTheirAddressesAndRefuseWrongCountsWithAPlainLine() {
        StateCommand state = new StateCommand();
        assertThat(StateCommand.ListArgs.parse(sub(state, "list", "-id=i-1", "aws_instance.a"))
                        .orElseThrow()
                        .value())
                .satisfies(a -> {
                    assertThat(a.id()).isEqualTo("i-1");
                    assertThat(a.history()).isFalse();
                    assertThat(a.filters()).extracting(Object::toString).containsExactly("aws_instance.a");
                });
        assertThat(StateCommand.ListArgs.parse(sub(state, "list", "-history"))
                        .orElseThrow()
                        .value())
                .isEqualTo(new StateCommand.ListArgs("", true, List.of()));
        assertThat(StateCommand.ListArgs.parse(sub(state, "list", "-history", "aws_instance.a")))
                .isEmpty();
        assertThat(StateCommand.ListArgs.parse(sub(state, "list", "no such", "bad["))
                        .orElseThrow()
                        .diagnostics())
                .extracting(CliDiagnostic::summary)
                .containsExactly("Invalid address", "Invalid address");

        assertThat(StateCommand.ShowArgs.parse(sub(state, "show", "module.m.aws_instance.a[1]"))
                        .orElseThrow()
                        .value()
                        .address())
                .hasToString("module.m.aws_instance.a[1]");
        assertThat(StateCommand.ShowArgs.parse(sub(state, "show"))).isEmpty();
        assertThat(StateCommand.ShowArgs.parse(sub(state, "show", "a.b", "c.d")))
                .isEmpty();
        assertThat(StateCommand.ShowArgs.parse(sub(state, "show", "no such"))
                        .orElseThrow()
                        .hasErrors())
                .isTrue();
    }

    @Test
    void statePullAndPushParseTheSerialAndKeepTheLockResultForLater() {
        StateCommand state = new StateCommand();
        assertThat(StateCommand.PullArgs.parse(sub(state, "pull")).value())
                .isEqualTo(new StateCommand.PullArgs(Optional.empty(), Optional.empty()));
        assertThat(StateCommand.PullArgs.parse(sub(state, "pull", "-serial=7", "-lineage=L"))
                        .value())
                .isEqualTo(new StateCommand.PullArgs(Optional.of(7L), Optional.of("L")));
        assertThat(StateCommand.PullArgs.parse(sub(state, "pull", "-serial=seven"))
                        .diagnostics())
                .extracting(CliDiagnostic::summary)
                .containsExactly("Invalid value for -serial");

        StateCommand.PushArgs push = StateCommand.PushArgs.parse(
                        sub(state, "push", "-force", "-lock-timeout=soon", "s.tfstate"))
                .orElseThrow();
        assertThat(push.file()).isEqualTo("s.tfstate");
        assertThat(push.force()).isTrue();
        assertThat(push.lock().diagnostics())
                .extracting(CliDiagnostic::summary)
                .containsExactly("Invalid value for -lock-timeout");
        assertThat(StateCommand.PushArgs.parse(sub(state, "push"))).isEmpty();
    }

    @Test
    void stateEditsCheckAddressesBeforeTheLockAndADryRunTakesNoLock() {
        StateCommand state = new StateCommand();
        StateCommand.RmArgs rm = StateCommand.RmArgs.parse(sub(state, "rm", "-dry-run", "aws_instance.a", "module.m"))
                .orElseThrow()
                .value();
        assertThat(rm.dryRun()).isTrue();
        assertThat(rm.lock()).isEqualTo(dev.strata.state.LockRequest.none());
        assertThat(rm.addresses()).extracting(Object::toString).containsExactly("aws_instance.a", "module.m");
        assertThat(StateCommand.RmArgs.parse(sub(state, "rm"))).isEmpty();
        assertThat(StateCommand.RmArgs.parse(sub(state, "rm", "-lock-timeout=soon", "no such"))
                        .orElseThrow()
                        .diagnostics())
                .extracting(CliDiagnostic::summary)
                .containsExactly("Invalid address");
        assertThat(StateCommand.RmArgs.parse(sub(state, "rm", "-lock-timeout=soon", "aws_instance.a"))
                        .orElseThrow()
                        .diagnostics())
                .extracting(CliDiagnostic::summary)
                .containsExactly("Invalid value for -lock-timeout");

        StateCommand.MvArgs mv = StateCommand.MvArgs.parse(sub(state, "mv", "aws_instance.a", "aws_instance.b"))
                .orElseThrow()
                .value();
        assertThat(mv.source()).hasToString("aws_instance.a");
        assertThat(mv.destination()).hasToString("aws_instance.b");
        assertThat(mv.dryRun()).isFalse();
        assertThat(mv.lock()).isNotEqualTo(dev.strata.state.LockRequest.none());
        assertThat(StateCommand.MvArgs.parse(sub(state, "mv", "aws_instance.a")))
                .isEmpty();
        assertThat(StateCommand.MvArgs.parse(sub(state, "mv", "aws_instance.a", "no such"))
                        .orElseThrow()
                        .diagnostics())
                .extracting(CliDiagnostic::summary)
                .containsExactly("Invalid address");

        StateCommand.ReplaceProviderArgs replace = StateCommand.ReplaceProviderArgs.parse(
                        sub(state, "replace-provider", "-auto-approve", "-lock=false", "hashicorp/aws", "acme/aws"))
                .orElseThrow()
                .value();
        assertThat(replace)
                .isEqualTo(new StateCommand.ReplaceProviderArgs(
                        "hashicorp/aws", "acme/aws", true, dev.strata.state.LockRequest.none()));
        assertThat(StateCommand.ReplaceProviderArgs.parse(sub(state, "replace-provider", "hashicorp/aws")))
                .isEmpty();
        assertThat(StateCommand.ReplaceProviderArgs.parse(
                                sub(state, "replace-provider", "-lock-timeout=x", "hashicorp/aws", "acme/aws"))
                        .orElseThrow()
                        .diagnostics())
                .extracting(CliDiagnostic::summary)
                .containsExactly("Invalid value for -lock-timeout");
    }

    @Test
    void providersSubcommandsParseTheirFlagsAndCarryPlatformProblemsForLater() {
        ProvidersCommand providers = new ProvidersCommand();
        assertThat(ProvidersCommand.SchemaArgs.parse(sub(providers, "schema", "-json")))
                .isEqualTo(new ProvidersCommand.SchemaArgs(true));
        assertThat(ProvidersCommand.SchemaArgs.parse(sub(providers, "schema")).json())
                .isFalse();

        ProvidersCommand.LockArgs lock = ProvidersCommand.LockArgs.parse(sub(
                providers, "lock", "-platform=linux_amd64", "-platform=darwin_arm64", "-fs-mirror=m", "hashicorp/aws"));
        assertThat(lock.providers()).containsExactly("hashicorp/aws");
        assertThat(lock.fsMirror()).contains("m");
        assertThat(lock.platforms().value())
                .containsExactly(
                        new dev.strata.tfplugin.install.Platform("linux", "amd64"),
                        new dev.strata.tfplugin.install.Platform("darwin", "arm64"));
        ProvidersCommand.LockArgs defaults = ProvidersCommand.LockArgs.parse(sub(providers, "lock"));
        assertThat(defaults.providers()).isEmpty();
        assertThat(defaults.fsMirror()).isEmpty();
        assertThat(defaults.platforms().value()).containsExactly(dev.strata.tfplugin.install.Platform.current());
        assertThat(ProvidersCommand.LockArgs.parse(sub(providers, "lock", "-platform=linux"))
                        .platforms()
                        .diagnostics())
                .extracting(CliDiagnostic::summary)
                .containsExactly("Invalid target platform");

        ProvidersCommand.MirrorArgs mirror = ProvidersCommand.MirrorArgs.parse(
                        sub(providers, "mirror", "-platform=_amd64", "out"))
                .orElseThrow();
        assertThat(mirror.directory()).isEqualTo("out");
        assertThat(mirror.platforms().hasErrors()).isTrue();
        assertThat(ProvidersCommand.MirrorArgs.parse(sub(providers, "mirror"))).isEmpty();
        assertThat(ProvidersCommand.MirrorArgs.parse(sub(providers, "mirror", "a", "b")))
                .isEmpty();
    }

    @Test
    void workspaceNamesAreRefusedWithPlainLinesAndLockProblemsWaitForTheExistenceChecks() {
        WorkspaceCommand workspace = new WorkspaceCommand();
        WorkspaceCommand.NewArgs created = WorkspaceCommand.NewArgs.parse(
                        sub(workspace, "new", "-lock-timeout=soon", "dev"))
                .args()
                .orElseThrow();
        assertThat(created.name()).isEqualTo("dev");
        assertThat(created.lock().diagnostics())
                .extracting(CliDiagnostic::summary)
                .containsExactly("Invalid value for -lock-timeout");
        assertThat(WorkspaceCommand.NewArgs.parse(sub(workspace, "new")).refusal())
                .isEqualTo(
                        "Expected a single argument: NAME.\n\nUsage: strata [global options] workspace new [OPTIONS] NAME");
        assertThat(WorkspaceCommand.NewArgs.parse(sub(workspace, "new", "a/b")).refusal())
                .isEqualTo("\nThe workspace name \"a/b\" is not allowed. The name must contain only URL safe\n"
                        + "characters, and no path separators.\n");

        assertThat(WorkspaceCommand.SelectArgs.parse(sub(workspace, "select", "-or-create", "dev"))
                        .args())
                .contains(new WorkspaceCommand.SelectArgs("dev", true));
        assertThat(WorkspaceCommand.SelectArgs.parse(sub(workspace, "select", "a", "b"))
                        .args())
                .isEmpty();

        WorkspaceCommand.DeleteArgs delete = WorkspaceCommand.DeleteArgs.parse(
                        sub(workspace, "delete", "-force", "-lock=false", "dev"))
                .args()
                .orElseThrow();
        assertThat(delete.name()).isEqualTo("dev");
        assertThat(delete.force()).isTrue();
        assertThat(delete.lock().value()).isEqualTo(dev.strata.state.LockRequest.none());
        assertThat(WorkspaceCommand.DeleteArgs.parse(sub(workspace, "delete")).refusal())
                .endsWith("workspace delete [OPTIONS] NAME");
    }
}
