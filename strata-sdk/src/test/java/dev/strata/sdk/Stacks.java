package dev.strata.sdk;

import java.util.Map;

/** The stacks the golden-file and differential tests synthesise. */
final class Stacks {
    private Stacks() {}

    /** Only terraform_data and a local module: terraform validates and plans it offline. */
    static Stack basic() {
        Stack stack = new Stack();
        Variable env = stack.variable("env").type("string").defaultValue("dev").description("Deployment stage");
        env.validation(
                env.value().ne(StringValue.of("")).and(Fn.length(env.value()).lessThan(NumberValue.of(9))),
                "a short non-empty stage");
        Variable names = stack.variable("names").type("list(string)").defaultValue(ListValue.ofStrings("a", "b"));
        names.validation(Fn.length(names.value()).greaterThan(NumberValue.of(0)), "at least one name");
        Variable secret =
                stack.variable("secret").type("string").nullable(false).defaultValue("s3cret");
        StringValue prefix = stack.local("prefix", Fn.template("app-", env.value()));
        Resource network = stack.resource("terraform_data", "network")
                .arg("input", MapValue.of(Map.of("cidr", StringValue.of("10.0.0.0/16"), "name", prefix)));
        Resource subnets = stack.resource("terraform_data", "subnet").count(2);
        subnets.arg("input", Fn.cidrsubnet(network.attr("output").get("cidr").asString(), 8, subnets.countIndex()))
                .lifecycle(l -> l.createBeforeDestroy(true).ignoreChanges("input"));
        Resource named = stack.resource("terraform_data", "named").forEach(SetValue.ofStrings("blue", "green"));
        named.arg("input", Fn.template(prefix, "-", named.eachKey()))
                .arg("triggers_replace", subnets.splat("id"))
                .dependsOn(network)
                .lifecycle(l -> l.replaceTriggeredBy(network.attr("id")));
        ModuleCall echo = stack.module("echo", "./echo")
                .input(
                        "value",
                        Fn.cond(
                                env.value().eq(StringValue.of("prod")),
                                named.instance("blue").get("id").asString(),
                                StringValue.of("none")));
        stack.output("subnet_ids", Fn.forList("s", subnets.all(), s -> s.get("id")))
                .description("Subnet ids");
        stack.output("echoed", echo.output("value")).sensitive(true).dependsOn(named);
        stack.output(
                "literal",
                Fn.template(
                        "${not a template} %{x} ",
                        secret.value().eq(StringValue.of("s3cret")).asAny().asString()));
        stack.moved(Address.resource("terraform_data", "net"), network.address());
        stack.importing(network.address(), "existing-id");
        stack.removed(Address.resource("terraform_data", "legacy"), false);
        return stack;
    }

    /** The module {@link #basic()} calls. */
    static final String ECHO_MODULE = """
            variable "value" { type = string }
            output "value" { value = var.value }
            """;

    /** Providers with aliases, nested blocks and data sources (needs the AWS provider to validate). */
    static Stack aws() {
        Stack stack =
                new Stack().requireProvider("aws", "hashicorp/aws", "~> 5.0").requiredVersion(">= 1.6");
        Variable region = stack.variable("region").type("string").defaultValue("eu-west-1");
        stack.provider("aws").arg("region", region.value());
        Provider east = stack.provider("aws").alias("east").arg("region", "us-east-1");
        DataSource ami = stack.data("aws_ami", "ubuntu")
                .arg("most_recent", true)
                .arg("owners", ListValue.ofStrings("099720109477"))
                .block("filter", f -> f.arg("name", "name").arg("values", ListValue.ofStrings("ubuntu/images/*")));
        Resource vpc = stack.resource("aws_vpc", "main")
                .arg("cidr_block", "10.0.0.0/16")
                .arg("tags", MapValue.ofStrings(Map.of("Name", "main", "team-name", "core")));
        Resource sg = stack.resource("aws_security_group", "web")
                .arg("vpc_id", vpc.attr("id"))
                .block(
                        "ingress",
                        b -> b.arg("from_port", 443)
                                .arg("to_port", 443)
                                .arg("protocol", "tcp")
                                .arg("cidr_blocks", ListValue.of(vpc.attr("cidr_block"))))
                .block(
                        "ingress",
                        b -> b.arg("from_port", 80)
                                .arg("to_port", 80)
                                .arg("protocol", "tcp")
                                .arg("cidr_blocks", ListValue.ofStrings("0.0.0.0/0")));
        stack.resource("aws_instance", "web")
                .provider(east)
                .arg("ami", ami.attr("id"))
                .arg("instance_type", "t3.micro")
                .arg("vpc_security_group_ids", ListValue.of(sg.attr("id")))
                .lifecycle(l -> l.preventDestroy(true).ignoreAllChanges());
        stack.module("vpc", "terraform-aws-modules/vpc/aws")
                .version("5.0.0")
                .provider("aws", east)
                .input("cidr", vpc.attr("cidr_block"));
        return stack;
    }
}
