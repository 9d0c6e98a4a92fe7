package dev.strata.cli.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.strata.cli.CliRunner;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code strata validate -json} against {@code terraform validate -json} on small broken
 * configurations that need no provider but the built-in one (so {@code terraform init} works
 * offline). Every diagnostic Terraform reports must be reported by Strata with the same severity,
 * summary and range; Strata's additional diagnostics are listed per case (checks Terraform leaves to
 * plan time). Skipped when no {@code terraform} binary is on the PATH.
 */
class ValidateDifferentialTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("undeclared", """
                        variable "region" {}
                        locals { name = "x" }
                        resource "terraform_data" "web" {}
                        output "a" { value = var.regoin }
                        output "b" { value = local.nmae }
                        output "c" { value = terraform_data.webb.id }
                        output "d" { value = module.nope.x }
                        """, List.of()),
                Arguments.of("instancing", """
                        resource "terraform_data" "counted" { count = 2 }
                        resource "terraform_data" "keyed" { for_each = toset(["a"]) }
                        resource "terraform_data" "single" {}
                        output "a" { value = terraform_data.counted.id }
                        output "b" { value = terraform_data.keyed.output }
                        output "c" { value = terraform_data.single[0].id }
                        output "d" { value = terraform_data.counted[*].id }
                        """, List.of()),
                Arguments.of("contexts", """
                        resource "terraform_data" "a" {
                          input = count.index
                        }
                        resource "terraform_data" "b" {
                          input = each.key
                        }
                        output "o" { value = self.id }
                        """, List.of()),
                Arguments.of("duplicates", """
                        variable "x" {}
                        variable "x" {}
                        resource "terraform_data" "r" {}
                        resource "terraform_data" "r" {}
                        output "o" { value = 1 }
                        output "o" { value = 2 }
                        """, List.of()),
                Arguments.of("literals", """
                        resource "terraform_data" "a" { count = -1 }
                        resource "terraform_data" "b" { count = 1.5 }
                        resource "terraform_data" "c" { for_each = ["a"] }
                        resource "terraform_data" "e" { for_each = toset([1]) }
                        """, List.of()),
                Arguments.of("functions", """
                        locals {
                          a = lenght([1])
                          b = 1 + "x"
                        }
                        """, List.of()),
                Arguments.of("defaults", """
                        variable "v" {
                          type    = number
                          default = "abc"
                        }
                        """, List.of()),
                Arguments.of("keys", """
                        resource "terraform_data" "c" { count = 2 }
                        output "a" { value = terraform_data.c[5].id }
                        output "b" { value = terraform_data.c["x"].id }
                        """, List.of(
                        "error|Invalid resource instance key|main.tf:2,22-2,41",
                        "error|Invalid resource instance key|main.tf:3,22-3,43")),
                Arguments.of("imports", """
                        import {
                          to = terraform_data.missing
                          id = "x"
                        }
                        """, List.of("error|Configuration for import target does not exist|main.tf:2,8-2,30")),
                Arguments.of("module outputs", """
                        module "m" { source = "./m" }
                        output "o" { value = module.m.nope }
                        """, List.of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void terraformsDiagnosticsAreStratasToo(String name, String main, List<String> stratasExtras)
            throws IOException, InterruptedException {
        Optional<Path> terraform = terraform();
        assumeTrue(terraform.isPresent(), "terraform is not on the PATH");
        Files.writeString(dir.resolve("main.tf"), main);
        Files.createDirectories(dir.resolve("m"));
        Files.writeString(dir.resolve("m/main.tf"), "output \"out\" { value = 1 }\n");
        TreeSet<String> theirs = brief(terraform(terraform.get(), "validate", "-json"));
        CliRunner.Result r = CliRunner.in(dir).run("validate", "-json");
        TreeSet<String> ours = brief(r.stdout());
        assertThat(ours).as("Strata's diagnostics").containsAll(theirs);
        List<String> extras = new ArrayList<>(ours);
        extras.removeAll(theirs);
        assertThat(extras).as("diagnostics only Strata reports").containsExactlyInAnyOrderElementsOf(stratasExtras);
    }

    private String terraform(Path exe, String... args) throws IOException, InterruptedException {
        run(exe, "init", "-backend=false", "-input=false", "-no-color");
        return run(exe, args);
    }

    private String run(Path exe, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(exe.toString());
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("CHECKPOINT_DISABLE", "1");
        pb.environment().put("TF_IN_AUTOMATION", "1");
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        return new String(out, StandardCharsets.UTF_8);
    }

    private static TreeSet<String> brief(String json) throws IOException {
        TreeSet<String> out = new TreeSet<>();
        for (JsonNode d : JSON.readTree(json).path("diagnostics")) {
            JsonNode r = d.path("range");
            String where = r.isMissingNode() ? "" : r.path("filename").asText() + ":"
                    + r.path("start").path("line").asInt() + "," + r.path("start").path("column").asInt() + "-"
                    + r.path("end").path("line").asInt() + "," + r.path("end").path("column").asInt();
            out.add(d.path("severity").asText() + "|" + d.path("summary").asText() + "|" + where);
        }
        return out;
    }

    static Optional<Path> terraform() {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String p : path.split(File.pathSeparator)) {
            Path exe = Path.of(p, "terraform");
            if (Files.isExecutable(exe)) {
                return Optional.of(exe);
            }
        }
        return Optional.empty();
    }
}
