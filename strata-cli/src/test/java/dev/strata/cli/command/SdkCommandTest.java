package dev.strata.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.cli.CliRunner;
import dev.strata.testing.TestFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code strata sdk generate}: which providers, where the sources go, and its errors. */
class SdkCommandTest {
    @TempDir
    Path dir;

    @Test
    void writesTheBindingsOfANamedBuiltInProvider() throws IOException {
        CliRunner.Result r = CliRunner.in(dir)
                .run("sdk", "generate", "-provider=hashicorp/random", "-out=gen", "-package=com.example.infra");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.stdout())
                .contains("- hashicorp/random v")
                .contains("in package com.example.infra.random")
                .contains("Java source files to gen/com/example/infra.");
        Path pet = dir.resolve("gen/com/example/infra/random/RandomPet.java");
        assertThat(pet).exists();
        assertThat(Files.readString(pet))
                .startsWith(SdkCommand.GENERATED_MARK)
                .contains("package com.example.infra.random;")
                .contains("public final class RandomPet {");
        assertThat(dir.resolve("gen/com/example/infra/random/RandomProvider.java"))
                .exists();
    }

    @Test
    void withoutProvidersTakesThoseTheConfigurationRequires() throws IOException {
        TestFiles.write(dir, "main.tf", """
                resource "terraform_data" "x" {}
                resource "random_pet" "p" {}
                """);
        CliRunner.Result r = CliRunner.in(dir).run("sdk", "generate");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(dir.resolve("bindings/random/RandomPet.java")).exists();
        assertThat(dir.resolve("bindings/terraform/TerraformData.java")).exists();
    }

    @Test
    void removesOnlyFilesItGeneratedThatNoLongerExist() throws IOException {
        TestFiles.write(dir, "bindings/random/RandomGone.java", SdkCommand.GENERATED_MARK + " from an older schema\n");
        TestFiles.write(dir, "bindings/random/Mine.java", "package bindings.random;\nclass Mine {}\n");
        CliRunner.Result r = CliRunner.in(dir).run("sdk", "generate", "-provider=hashicorp/random");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.stdout()).contains("and removed 1 it had generated before");
        assertThat(dir.resolve("bindings/random/RandomGone.java")).doesNotExist();
        assertThat(dir.resolve("bindings/random/Mine.java")).exists();
    }

    @Test
    void refusesAPackageNameThatIsNoJavaPackage() {
        CliRunner.Result r =
                CliRunner.in(dir).run("sdk", "generate", "-provider=hashicorp/random", "-package=com.default");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.stderr()).contains("Invalid package name").contains("\"com.default\"");
    }

    @Test
    void saysWhenThereIsNothingToGenerate() {
        CliRunner.Result r = CliRunner.in(dir).run("sdk", "generate");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.stderr()).contains("No providers to generate bindings for");
    }

    @Test
    void aProviderThatIsNotInstalledIsAnError() {
        CliRunner.Result r = CliRunner.in(dir).run("sdk", "generate", "-provider=acme/thing");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.stderr()).contains("No dependency lock file").contains("Run \"strata init\"");
        assertThat(dir.resolve("bindings")).doesNotExist();
    }

    @Test
    void refusesPositionalArgumentsAndUnknownSubcommands() {
        CliRunner.Result extra = CliRunner.in(dir).run("sdk", "generate", "hashicorp/random");
        assertThat(extra.exitCode()).isEqualTo(1);
        assertThat(extra.stderr()).contains("Unexpected argument");
        CliRunner.Result unknown = CliRunner.in(dir).run("sdk", "generat");
        assertThat(unknown.exitCode()).isEqualTo(1);
        assertThat(unknown.stderr()).contains("Did you mean \"generate\"?");
    }
}
