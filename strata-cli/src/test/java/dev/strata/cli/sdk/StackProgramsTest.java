package dev.strata.cli.sdk;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.cli.CliRunner;
import dev.strata.sdk.StackProgram;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code strata plan|apply|validate} in a directory holding a stack program's jar, in-process. */
class StackProgramsTest {
    @TempDir
    Path dir;

    /** The program; {@code BODY} is replaced by the statements between creating and returning the stack (line 9 on). */
    private static final String PROGRAM = """
            package example;

            import dev.strata.sdk.*;

            public final class Infra implements StackProgram {
                @Override
                public Stack build() {
                    Stack stack = new Stack();
            BODY
                    return stack;
                }
            }
            """;

    private static final String HELLO = """
                    Resource web = stack.resource("terraform_data", "web").arg("input", "hello");
                    stack.output("greeting", web.attr("output"));""";

    private Path jar(Path at, String body, boolean manifest) throws Exception {
        return ProgramJars.build(
                at,
                Map.of("example/Infra.java", PROGRAM.replace("BODY", body)),
                manifest ? Map.of(StackProgram.MANIFEST_ATTRIBUTE, "example.Infra") : Map.of(),
                manifest
                        ? Map.of()
                        : Map.of("META-INF/services/dev.strata.sdk.StackProgram", "# the stack\nexample.Infra\n"));
    }

    @Test
    void planApplyAndASecondPlanRunOnTheSynthesisInThePrivateWorkDir() throws Exception {
        jar(dir.resolve("infra.jar"), HELLO, true);
        CliRunner.Result plan = CliRunner.in(dir).run("plan", "-no-color");
        assertThat(plan.exitCode()).as(plan.toString()).isZero();
        assertThat(plan.stdout())
                .contains("# terraform_data.web will be created")
                .contains("Plan: 1 to add");
        assertThat(dir.resolve(".strata/sdk/main.tf.json")).exists();
        assertThat(dir.resolve(".strata/sdk/main.tf.json.sites")).exists();

        CliRunner.Result apply = CliRunner.in(dir).run("apply", "-auto-approve", "-no-color");
        assertThat(apply.exitCode()).as(apply.toString()).isZero();
        assertThat(apply.stdout())
                .contains("Apply complete! Resources: 1 added")
                .contains("greeting = \"hello\"");
        assertThat(dir.resolve(".strata/sdk/terraform.tfstate")).exists();

        CliRunner.Result again = CliRunner.in(dir).run("plan", "-detailed-exitcode", "-no-color");
        assertThat(again.exitCode()).as(again.toString()).isZero();
        assertThat(again.stdout()).contains("No changes.");
    }

    @Test
    void aServiceFileDeclaresTheEntryPointToo() throws Exception {
        jar(dir.resolve("infra.jar"), HELLO, false);
        CliRunner.Result r = CliRunner.in(dir).run("validate", "-no-color");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.stdout()).contains("Success! The configuration is valid.");
    }

    private static final String SDK_POM = """
            <project xmlns="http://maven.apache.org/POM/4.0.0">
              <artifactId>app</artifactId>
              <dependencies>
                <dependency>
                  <groupId>dev.strata</groupId>
                  <artifactId>strata-sdk</artifactId>
                  <scope>provided</scope>
                </dependency>
              </dependencies>
            </project>
            """;

    /**
     * A Maven project that is not a stack program is a directory like any other: an aggregator that manages
     * the SDK's version (Strata's own repository root), or a project that depends on something else.
     */
    @Test
    void aMavenProjectThatDoesNotDependOnTheSdkIsNotAProgram() throws Exception {
        Path root = Files.createDirectories(dir.resolve("root"));
        Files.writeString(root.resolve("pom.xml"), """
                <project>
                  <artifactId>strata-parent</artifactId>
                  <packaging>pom</packaging>
                  <modules><module>strata-sdk</module></modules>
                  <dependencyManagement>
                    <dependencies>
                      <dependency><groupId>dev.strata</groupId><artifactId>strata-sdk</artifactId></dependency>
                    </dependencies>
                  </dependencyManagement>
                  <dependencies>
                    <dependency><groupId>dev.strata</groupId><artifactId>strata-sdk</artifactId></dependency>
                  </dependencies>
                </project>
                """);
        CliRunner.Result console = CliRunner.in(root).stdin("1 + 1\n").run("console");
        assertThat(console.exitCode()).as(console.toString()).isZero();
        assertThat(console.stdout()).contains("2");
        assertThat(console.stderr()).doesNotContain("not built");

        Path other = Files.createDirectories(dir.resolve("other"));
        Files.writeString(other.resolve("pom.xml"), SDK_POM.replace("strata-sdk", "guava"));
        assertThat(CliRunner.in(other).run("validate", "-no-color").stderr()).doesNotContain("not built");
        // A managed version alone does not make a program, nor does an unparseable pom.
        Files.writeString(
                other.resolve("pom.xml"),
                "<project><dependencyManagement><dependencies><dependency>"
                        + "<artifactId>strata-sdk</artifactId></dependency></dependencies></dependencyManagement></project>");
        assertThat(StackPrograms.isSdkProject(other)).isFalse();
        Files.writeString(other.resolve("pom.xml"), "<project><artifactId>strata-sdk</artifactId></project");
        assertThat(StackPrograms.isSdkProject(other)).isFalse();
        Files.writeString(other.resolve("pom.xml"), SDK_POM);
        assertThat(StackPrograms.isSdkProject(other)).isTrue();
    }

    @Test
    void aMavenProjectRunsItsBuiltJarFromTarget() throws Exception {
        Path app = Files.createDirectories(dir.resolve("app"));
        Files.writeString(app.resolve("pom.xml"), SDK_POM);
        CliRunner.Result unbuilt = CliRunner.in(dir).run("-chdir=app", "plan", "-no-color");
        assertThat(unbuilt.exitCode()).isEqualTo(1);
        assertThat(unbuilt.stderr())
                .contains("Error: The stack program is not built")
                .contains("mvn package");

        jar(app.resolve("target/app-1.0.jar"), HELLO, true);
        Files.writeString(app.resolve("target/app-1.0-sources.jar"), "not a jar");
        CliRunner.Result plan = CliRunner.in(dir).run("-chdir=app", "plan", "-no-color");
        assertThat(plan.exitCode()).as(plan.toString()).isZero();
        assertThat(plan.stdout()).contains("Plan: 1 to add");
    }

    @Test
    void anExceptionOfTheProgramIsADiagnosticAtItsLineWithoutAStackTrace() throws Exception {
        jar(dir.resolve("infra.jar"), """
                        stack.resource("terraform_data", "web");
                        if (stack != null) throw new IllegalStateException("no region configured");""", true);
        CliRunner.Result r = CliRunner.in(dir).width(300).run("plan", "-no-color");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.stderr())
                .contains("Error: The stack program failed")
                .contains("The program stopped at Infra.java:10 (Infra.build) with no region configured.")
                .doesNotContain("\tat ")
                .doesNotContain("java.lang.");
        assertThat(dir.resolve(".strata/sdk/main.tf.json")).doesNotExist();
    }

    @Test
    void synthesisProblemsAreDiagnosticsAtTheProgramLine() throws Exception {
        jar(dir.resolve("infra.jar"), """
                        stack.resource("terraform_data", "web");
                        stack.resource("terraform_data", "web");""", true);
        CliRunner.Result r = CliRunner.in(dir).width(300).run("plan", "-no-color");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.stderr())
                .contains("Error: Duplicate resource \"terraform_data\" configuration")
                .contains("At Infra.java:10 (Infra.build): A terraform_data resource named \"web\" was already "
                        + "declared at Infra.java:9 (Infra.build).");
    }

    @Test
    void anErrorInTheSynthesisedJsonNamesTheJavaLineThatWroteIt() throws Exception {
        jar(dir.resolve("infra.jar"), """
                        Resource web = stack.resource("terraform_data", "web");
                        web.arg("input", "x");
                        web.arg("not_an_argument", "y");""", true);
        CliRunner.Result r = CliRunner.in(dir).run("validate", "-no-color");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.stderr())
                .contains("Error: Unsupported argument")
                .contains("on main.tf.json line")
                .contains("(written by Infra.java:11 (Infra.build))");
    }

    @Test
    void aClassThatIsNotAStackProgramIsNamed() throws Exception {
        ProgramJars.build(
                dir.resolve("infra.jar"),
                Map.of("example/Other.java", "package example; public class Other {}"),
                Map.of(StackProgram.MANIFEST_ATTRIBUTE, "example.Other"),
                Map.of());
        CliRunner.Result r = CliRunner.in(dir).run("plan", "-no-color");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.stderr()).contains("Error: Invalid stack program").contains("example.Other");

        ProgramJars.build(
                dir.resolve("infra.jar"),
                Map.of("example/Other.java", "package example; public class Other {}"),
                Map.of(StackProgram.MANIFEST_ATTRIBUTE, "example.Missing"),
                Map.of());
        CliRunner.Result missing = CliRunner.in(dir).run("plan", "-no-color");
        assertThat(missing.stderr()).contains("Error: Stack program not found").contains("example.Missing");
    }

    @Test
    void aConfigurationDirectoryIsNeverTreatedAsAProgram() throws Exception {
        jar(dir.resolve("infra.jar"), HELLO, true);
        Files.writeString(dir.resolve("main.tf"), "output \"x\" { value = 1 }\n");
        CliRunner.Result r = CliRunner.in(dir).run("plan", "-no-color");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.stdout()).doesNotContain("terraform_data.web");
        assertThat(dir.resolve(".strata")).doesNotExist();
    }
}
