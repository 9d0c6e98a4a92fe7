package com.example;

import dev.strata.sdk.Fn;
import dev.strata.sdk.MapValue;
import dev.strata.sdk.Resource;
import dev.strata.sdk.SetValue;
import dev.strata.sdk.Stack;
import dev.strata.sdk.StackProgram;
import dev.strata.sdk.StringValue;
import dev.strata.sdk.Variable;

/**
 * A small stack on Strata's built-in providers: a random name, a network and one subnet per tier, all
 * derived from one variable. Replace the resources with your own (aws_vpc, ...) and keep the shape.
 */
public final class Infra implements StackProgram {
    @Override
    public Stack build() {
        Stack stack = new Stack();
        stack.requireProvider("random", "hashicorp/random", ">= 3.0");

        Variable env = stack.variable("env").type("string").defaultValue("dev").description("Deployment stage");
        StringValue prefix = stack.local("prefix", Fn.template("app-", env.value()));

        Resource name = stack.resource("random_pet", "name").arg("prefix", prefix).arg("length", 2);

        // The network's id and CIDR are references: Strata writes ${terraform_data.network.output...}
        // and orders the subnets after the network without a depends_on.
        Resource network = stack.resource("terraform_data", "network")
                .arg("input", MapValue.of(java.util.Map.of(
                        "name", name.attr("id").asString(), "cidr", StringValue.of("10.0.0.0/16"))));

        Resource subnets = stack.resource("terraform_data", "subnet").forEach(SetValue.ofStrings("app", "data", "web"));
        subnets.arg(
                "input",
                Fn.cidrsubnet(
                        network.attr("output").get("cidr").asString(),
                        8,
                        Fn.call("index", Fn.call("sort", SetValue.ofStrings("app", "data", "web")), subnets.eachKey())
                                .asNumber()));

        stack.output("name", name.attr("id"));
        // {for tier, subnet in terraform_data.subnet : tier => subnet.output}
        stack.output("subnets", Fn.forMap("tier", "subnet", subnets.all(), (tier, subnet) -> tier.asString(), (tier, subnet) -> subnet.get("output")));
        return stack;
    }
}
