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
                .isEqualTo(new OutputCommand.Args(Optional.empty(), OutputView.Format.HUMAN));
        assertThat(OutputCommand.Args.parse(parse(output, "-json", "-raw", "x")).value())
                .isEqualTo(new OutputCommand.Args(Optional.of("x"), OutputView.Format.JSON));
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
}
