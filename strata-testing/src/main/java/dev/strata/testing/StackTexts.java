package dev.strata.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Pieces of small Terraform Stacks that tests of {@code strata stacks} share, with the built-in provider only. */
public final class StackTexts {
    private StackTexts() {}

    /** A module that records its input {@code name} and outputs it once applied. */
    public static final String NAME_MODULE = """
            variable "name" {
              type = string
            }
            resource "terraform_data" "this" {
              input = var.name
            }
            output "name" {
              value = terraform_data.this.output
            }
            """;

    /** The head of a component file: the built-in {@code terraform} provider and its configuration "main". */
    public static final String TERRAFORM_PROVIDER = """
            required_providers {
              terraform = {
                source = "terraform.io/builtin/terraform"
              }
            }
            provider "terraform" "main" {}
            """;

    /**
     * A component block {@code name} of the module at {@code source} (which must not need a version), its input
     * {@code name} set to {@code input} and its {@code terraform} provider the configuration "main" of
     * {@link #TERRAFORM_PROVIDER}: five lines, the source on the second.
     */
    public static String component(String name, String source, String input) {
        return """
                component "%s" {
                  source    = "%s"
                  inputs    = { name = "%s" }
                  providers = { terraform = provider.terraform.main }
                }
                """.formatted(name, source, input);
    }

    /** A deployment file with one deployment, "one", of no inputs. */
    public static final String ONE_DEPLOYMENT = "deployment \"one\" {\n  inputs = {}\n}\n";

    /**
     * Writes the Stack into {@code stack} (created): {@code main.tfcomponent.hcl} of {@link #TERRAFORM_PROVIDER}
     * and {@code components}, and {@code main.tfdeploy.hcl} of {@link #ONE_DEPLOYMENT}. Returns {@code stack}.
     */
    public static Path write(Path stack, String components) throws IOException {
        Files.createDirectories(stack);
        Files.writeString(stack.resolve("main.tfcomponent.hcl"), TERRAFORM_PROVIDER + components);
        Files.writeString(stack.resolve("main.tfdeploy.hcl"), ONE_DEPLOYMENT);
        return stack;
    }
}
