package dev.strata.config;

import static dev.strata.config.Fixtures.brief;
import static dev.strata.config.Fixtures.load;
import static dev.strata.config.Fixtures.validate;
import static dev.strata.config.Fixtures.write;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Terraform 1.14 {@code action} blocks and {@code lifecycle { action_trigger }} blocks. */
class ActionConfigTest {
    @TempDir
    Path dir;

    @Test
    void actionsAndTriggersAreDecoded() {
        write(dir, "main.tf", """
                variable "id" {
                  type = string
                }
                action "testing_action" "notify" {
                  count    = 2
                  provider = testing.west
                  config {
                    message = "created ${var.id}"
                  }
                }
                resource "testing_resource" "main" {
                  lifecycle {
                    action_trigger {
                      events    = [before_create, after_create, before_update, after_update]
                      condition = var.id != ""
                      actions   = [action.testing_action.notify[0], action.testing_action.notify[1]]
                    }
                  }
                }
                """);
        var r = load(dir);
        assertThat(r.diagnostics().asList()).isEmpty();
        ModuleConfig m = r.value().root().module();
        ActionConfig a = m.actions().get("testing_action.notify");
        assertThat(a.address()).isEqualTo("action.testing_action.notify");
        assertThat(a.count()).isNotNull();
        assertThat(a.provider().config().toString()).isEqualTo("testing.west");
        assertThat(a.config()).isNotNull();
        ActionTrigger t = m.resources()
                .values()
                .iterator()
                .next()
                .lifecycle()
                .actionTriggers()
                .getFirst();
        assertThat(t.events())
                .containsExactly(
                        ActionTrigger.Event.BEFORE_CREATE,
                        ActionTrigger.Event.AFTER_CREATE,
                        ActionTrigger.Event.BEFORE_UPDATE,
                        ActionTrigger.Event.AFTER_UPDATE);
        assertThat(t.condition()).isNotNull();
        assertThat(t.actions())
                .extracting(Object::toString)
                .containsExactly("action.testing_action.notify[0]", "action.testing_action.notify[1]");
        assertThat(validate(dir).asList()).isEmpty();
    }

    @Test
    void triggersMustNameDeclaredActionsAndValidEvents() {
        write(dir, "main.tf", """
                action "testing_action" "notify" {}
                resource "testing_resource" "main" {
                  lifecycle {
                    action_trigger {
                      events  = [after_create, before_destroy]
                      actions = [action.testing_action.missing, testing_resource.main, action.testing_action.notify]
                    }
                  }
                }
                """);
        assertThat(brief(load(dir).diagnostics()))
                .containsExactlyInAnyOrder(
                        "main.tf:5,32-46: Invalid action_trigger event",
                        "main.tf:6,49-70: Invalid action reference",
                        "main.tf:6,18-47: Reference to undeclared action");
    }

    @Test
    void blockShapesAreChecked() {
        write(dir, "main.tf", """
                action "testing_action" "notify" {
                  count    = 1
                  for_each = {}
                  config {}
                  config {}
                }
                action "testing_action" "notify" {}
                data "testing_data" "d" {
                  lifecycle {
                    action_trigger {
                      events  = [after_create]
                      actions = [action.testing_action.notify]
                    }
                  }
                }
                resource "testing_resource" "main" {
                  lifecycle {
                    action_trigger {
                      events = [after_create]
                    }
                  }
                }
                """);
        assertThat(brief(load(dir).diagnostics()))
                .containsExactlyInAnyOrder(
                        "main.tf:3,3-11: Invalid combination of \"count\" and \"for_each\"",
                        "main.tf:5,3-9: Duplicate config block",
                        "main.tf:7,1-33: Duplicate action \"testing_action\" configuration",
                        "main.tf:10,5-19: Unsupported block type",
                        "main.tf:18,20-20: Missing required argument");
    }

    @Test
    void aBareConfigurationAliasAsksForTheDefaultConfiguration() {
        write(dir, "main.tf", """
                terraform {
                  required_providers {
                    testing = {
                      source                = "hashicorp/testing"
                      configuration_aliases = [testing, testing.west]
                    }
                  }
                }
                """);
        var r = load(dir);
        assertThat(r.diagnostics().asList()).isEmpty();
        assertThat(r.value().root().module().requiredProviders().get("testing").configurationAliases())
                .extracting(Object::toString)
                .containsExactly("testing.west");
    }
}
