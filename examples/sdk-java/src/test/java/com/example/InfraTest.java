package com.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.strata.sdk.testing.PlannedStack;
import dev.strata.sdk.testing.StackTester;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class InfraTest {
    @Test
    void theSubnetsReferToTheNetwork() throws Exception {
        JsonNode json = StackTester.synthesize(new Infra().build());
        String input = json.at("/resource/terraform_data/subnet/input").asText();
        assertTrue(input.contains("terraform_data.network.output"), input);
    }

    @Test
    void thePlanCreatesANameANetworkAndThreeSubnets() throws Exception {
        PlannedStack plan = StackTester.plan(new Infra().build(), Map.of("env", "test"));
        assertEquals(
                List.of(
                        "random_pet.name",
                        "terraform_data.network",
                        "terraform_data.subnet[\"app\"]",
                        "terraform_data.subnet[\"data\"]",
                        "terraform_data.subnet[\"web\"]"),
                plan.addresses());
        assertEquals("app-test", plan.change("random_pet.name").attribute("prefix").asText());
        assertTrue(plan.change("terraform_data.network").isUnknown("output"));
    }
}
