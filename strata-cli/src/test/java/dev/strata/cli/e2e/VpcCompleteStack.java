package dev.strata.cli.e2e;

import static java.util.Map.entry;

import dev.strata.sdk.AnyValue;
import dev.strata.sdk.BoolValue;
import dev.strata.sdk.DataSource;
import dev.strata.sdk.Fn;
import dev.strata.sdk.ListValue;
import dev.strata.sdk.MapValue;
import dev.strata.sdk.ModuleCall;
import dev.strata.sdk.NumberValue;
import dev.strata.sdk.ObjectValue;
import dev.strata.sdk.Resource;
import dev.strata.sdk.Stack;
import dev.strata.sdk.StackProgram;
import dev.strata.sdk.StringValue;
import dev.strata.sdk.Value;
import java.util.List;
import java.util.Map;

/**
 * The corpus module terraform-aws-vpc's {@code examples/complete} written in Java with the SDK, as adapted
 * for the AWS provider 5.100 by {@code AwsExamples.adaptTo5} (the provider requirement {@code >= 5.0}).
 * Synthesised into the example's directory, it calls the module at {@code ../../} like the HCL original.
 */
final class VpcCompleteStack implements StackProgram {
    /** The outputs that pass a {@code module.vpc} output of the same name through. */
    static final List<String> VPC_OUTPUTS = List.of(
            "vpc_id",
            "vpc_arn",
            "vpc_cidr_block",
            "default_security_group_id",
            "default_network_acl_id",
            "default_route_table_id",
            "vpc_instance_tenancy",
            "vpc_enable_dns_support",
            "vpc_enable_dns_hostnames",
            "vpc_main_route_table_id",
            "vpc_ipv6_association_id",
            "vpc_ipv6_cidr_block",
            "vpc_secondary_cidr_blocks",
            "vpc_owner_id",
            "private_subnets",
            "private_subnet_arns",
            "private_subnets_cidr_blocks",
            "private_subnets_ipv6_cidr_blocks",
            "public_subnets",
            "public_subnet_arns",
            "public_subnets_cidr_blocks",
            "public_subnets_ipv6_cidr_blocks",
            "outpost_subnets",
            "outpost_subnet_arns",
            "outpost_subnets_cidr_blocks",
            "outpost_subnets_ipv6_cidr_blocks",
            "database_subnets",
            "database_subnet_arns",
            "database_subnets_cidr_blocks",
            "database_subnets_ipv6_cidr_blocks",
            "database_subnet_group",
            "database_subnet_group_name",
            "redshift_subnets",
            "redshift_subnet_arns",
            "redshift_subnets_cidr_blocks",
            "redshift_subnets_ipv6_cidr_blocks",
            "redshift_subnet_group",
            "elasticache_subnets",
            "elasticache_subnet_arns",
            "elasticache_subnets_cidr_blocks",
            "elasticache_subnets_ipv6_cidr_blocks",
            "intra_subnets",
            "intra_subnet_arns",
            "intra_subnets_cidr_blocks",
            "intra_subnets_ipv6_cidr_blocks",
            "elasticache_subnet_group",
            "elasticache_subnet_group_name",
            "public_route_table_ids",
            "private_route_table_ids",
            "database_route_table_ids",
            "redshift_route_table_ids",
            "elasticache_route_table_ids",
            "intra_route_table_ids",
            "public_internet_gateway_route_id",
            "public_internet_gateway_ipv6_route_id",
            "database_internet_gateway_route_id",
            "database_nat_gateway_route_ids",
            "database_ipv6_egress_route_id",
            "private_nat_gateway_route_ids",
            "private_ipv6_egress_route_ids",
            "private_route_table_association_ids",
            "database_route_table_association_ids",
            "redshift_route_table_association_ids",
            "redshift_public_route_table_association_ids",
            "elasticache_route_table_association_ids",
            "intra_route_table_association_ids",
            "public_route_table_association_ids",
            "dhcp_options_id",
            "nat_ids",
            "nat_public_ips",
            "natgw_ids",
            "igw_id",
            "igw_arn",
            "egress_only_internet_gateway_id",
            "cgw_ids",
            "cgw_arns",
            "this_customer_gateway",
            "vgw_id",
            "vgw_arn",
            "default_vpc_id",
            "default_vpc_arn",
            "default_vpc_cidr_block",
            "default_vpc_default_security_group_id",
            "default_vpc_default_network_acl_id",
            "default_vpc_default_route_table_id",
            "default_vpc_instance_tenancy",
            "default_vpc_enable_dns_support",
            "default_vpc_enable_dns_hostnames",
            "default_vpc_main_route_table_id",
            "public_network_acl_id",
            "public_network_acl_arn",
            "private_network_acl_id",
            "private_network_acl_arn",
            "outpost_network_acl_id",
            "outpost_network_acl_arn",
            "intra_network_acl_id",
            "intra_network_acl_arn",
            "database_network_acl_id",
            "database_network_acl_arn",
            "redshift_network_acl_id",
            "redshift_network_acl_arn",
            "elasticache_network_acl_id",
            "elasticache_network_acl_arn");

    @Override
    public Stack build() {
        Stack stack = new Stack();
        stack.requiredVersion(">= 1.0");
        stack.requireProvider("aws", "hashicorp/aws", ">= 5.0");

        StringValue region = stack.local("region", StringValue.of("eu-west-1"));
        stack.provider("aws").arg("region", region);
        DataSource available = stack.data("aws_availability_zones", "available");

        StringValue name = stack.local("name", Fn.template("ex-", Fn.call("basename", stack.pathCwd())));
        StringValue vpcCidr = stack.local("vpc_cidr", StringValue.of("10.0.0.0/16"));
        ListValue azs = stack.local(
                "azs",
                Fn.call("slice", available.attr("names"), NumberValue.of(0), NumberValue.of(3))
                        .asList());
        MapValue tags = stack.local(
                "tags",
                MapValue.of(Map.of(
                        "Example", name,
                        "GithubRepo", StringValue.of("terraform-aws-vpc"),
                        "GithubOrg", StringValue.of("terraform-aws-modules"))));

        // ---- VPC module ----
        ModuleCall vpc = stack.module("vpc", "../../")
                .input("name", name)
                .input("cidr", vpcCidr)
                .input("azs", azs)
                .input("private_subnets", subnets(azs, vpcCidr, 0))
                .input("public_subnets", subnets(azs, vpcCidr, 4))
                .input("database_subnets", subnets(azs, vpcCidr, 8))
                .input("elasticache_subnets", subnets(azs, vpcCidr, 12))
                .input("redshift_subnets", subnets(azs, vpcCidr, 16))
                .input("intra_subnets", subnets(azs, vpcCidr, 20))
                .input("private_subnet_names", ListValue.ofStrings("Private Subnet One", "Private Subnet Two"))
                .input("database_subnet_names", ListValue.ofStrings("DB Subnet One"))
                .input(
                        "elasticache_subnet_names",
                        ListValue.ofStrings("Elasticache Subnet One", "Elasticache Subnet Two"))
                .input(
                        "redshift_subnet_names",
                        ListValue.ofStrings("Redshift Subnet One", "Redshift Subnet Two", "Redshift Subnet Three"))
                .input("intra_subnet_names", ListValue.ofStrings())
                .arg("create_database_subnet_group", false)
                .arg("manage_default_network_acl", false)
                .arg("manage_default_route_table", false)
                .arg("manage_default_security_group", false)
                .arg("enable_dns_hostnames", true)
                .arg("enable_dns_support", true)
                .arg("enable_nat_gateway", true)
                .arg("single_nat_gateway", true)
                .input(
                        "customer_gateways",
                        MapValue.of(Map.of(
                                "IP1",
                                object(
                                        entry("bgp_asn", NumberValue.of(65112)),
                                        entry("ip_address", StringValue.of("1.2.3.4")),
                                        entry("device_name", StringValue.of("some_name"))),
                                "IP2",
                                object(
                                        entry("bgp_asn", NumberValue.of(65112)),
                                        entry("ip_address", StringValue.of("5.6.7.8"))),
                                "IP3",
                                object(
                                        entry("bgp_asn_extended", NumberValue.of(2147483648L)),
                                        entry("ip_address", StringValue.of("5.6.7.8"))))))
                .arg("enable_vpn_gateway", true)
                .arg("enable_dhcp_options", true)
                .arg("dhcp_options_domain_name", "service.consul")
                .input("dhcp_options_domain_name_servers", ListValue.ofStrings("127.0.0.1", "10.10.0.2"))
                .input("tags", tags);

        // ---- supporting resources ----
        DataSource dynamodbPolicy = denyOutsideVpc(
                stack.data("aws_iam_policy_document", "dynamodb_endpoint_policy"), "dynamodb:*", "aws:sourceVpc", vpc);
        DataSource genericPolicy = denyOutsideVpc(
                stack.data("aws_iam_policy_document", "generic_endpoint_policy"), "*", "aws:SourceVpc", vpc);

        Resource rds = stack.resource("aws_security_group", "rds")
                .arg("name_prefix", Fn.template(name, "-rds"))
                .arg("description", "Allow PostgreSQL inbound traffic")
                .arg("vpc_id", vpc.output("vpc_id"))
                .block(
                        "ingress",
                        b -> b.arg("description", "TLS from VPC")
                                .arg("from_port", 5432)
                                .arg("to_port", 5432)
                                .arg("protocol", "tcp")
                                .arg("cidr_blocks", ListValue.of(vpc.output("vpc_cidr_block")))
                                // ingress is an attribute written as blocks in HCL; in JSON syntax Terraform
                                // reads it as the attribute, whose objects need every attribute: the ones
                                // the HCL block leaves out are null.
                                .arg("ipv6_cidr_blocks", AnyValue.nullValue())
                                .arg("prefix_list_ids", AnyValue.nullValue())
                                .arg("security_groups", AnyValue.nullValue())
                                .arg("self", AnyValue.nullValue()))
                .arg("tags", tags);

        // ---- VPC endpoints module ----
        AnyValue privateSubnets = vpc.output("private_subnets");
        ModuleCall endpoints = stack.module("vpc_endpoints", "../../modules/vpc-endpoints")
                .input("vpc_id", vpc.output("vpc_id"))
                .arg("create_security_group", true)
                .input("security_group_name_prefix", Fn.template(name, "-vpc-endpoints-"))
                .arg("security_group_description", "VPC endpoint security group")
                .input(
                        "security_group_rules",
                        MapValue.of(Map.of(
                                "ingress_https",
                                object(
                                        entry("description", StringValue.of("HTTPS from VPC")),
                                        entry("cidr_blocks", ListValue.of(vpc.output("vpc_cidr_block")))))))
                .input(
                        "endpoints",
                        MapValue.of(Map.ofEntries(
                                entry(
                                        "s3",
                                        object(
                                                entry("service", StringValue.of("s3")),
                                                entry("private_dns_enabled", BoolValue.of(true)),
                                                entry(
                                                        "dns_options",
                                                        object(entry(
                                                                "private_dns_only_for_inbound_resolver_endpoint",
                                                                BoolValue.of(false)))),
                                                entry("tags", MapValue.ofStrings(Map.of("Name", "s3-vpc-endpoint"))))),
                                entry(
                                        "dynamodb",
                                        object(
                                                entry("service", StringValue.of("dynamodb")),
                                                entry("service_type", StringValue.of("Gateway")),
                                                entry(
                                                        "route_table_ids",
                                                        Fn.call(
                                                                "flatten",
                                                                ListValue.of(
                                                                        vpc.output("intra_route_table_ids"),
                                                                        vpc.output("private_route_table_ids"),
                                                                        vpc.output("public_route_table_ids")))),
                                                entry("policy", dynamodbPolicy.attr("json")),
                                                entry(
                                                        "tags",
                                                        MapValue.ofStrings(Map.of("Name", "dynamodb-vpc-endpoint"))))),
                                entry(
                                        "ecs",
                                        object(
                                                entry("service", StringValue.of("ecs")),
                                                entry("private_dns_enabled", BoolValue.of(true)),
                                                entry("subnet_ids", privateSubnets),
                                                entry(
                                                        "subnet_configurations",
                                                        Fn.forList(
                                                                "v",
                                                                vpc.output("private_subnet_objects"),
                                                                v -> object(
                                                                        entry(
                                                                                "ipv4",
                                                                                Fn.call(
                                                                                        "cidrhost",
                                                                                        v.get("cidr_block"),
                                                                                        NumberValue.of(10))),
                                                                        entry("subnet_id", v.get("id"))))))),
                                entry(
                                        "ecs_telemetry",
                                        object(
                                                entry("create", BoolValue.of(false)),
                                                entry("service", StringValue.of("ecs-telemetry")),
                                                entry("private_dns_enabled", BoolValue.of(true)),
                                                entry("subnet_ids", privateSubnets))),
                                entry("ecr_api", privateEndpoint("ecr.api", privateSubnets, genericPolicy)),
                                entry("ecr_dkr", privateEndpoint("ecr.dkr", privateSubnets, genericPolicy)),
                                entry(
                                        "rds",
                                        object(
                                                entry("service", StringValue.of("rds")),
                                                entry("private_dns_enabled", BoolValue.of(true)),
                                                entry("subnet_ids", privateSubnets),
                                                entry("security_group_ids", ListValue.of(rds.attr("id"))))))))
                .input(
                        "tags",
                        Fn.call("merge", tags, MapValue.ofStrings(Map.of("Project", "Secret", "Endpoint", "true"))));

        stack.module("vpc_endpoints_nocreate", "../../modules/vpc-endpoints").arg("create", false);

        // ---- outputs ----
        for (String output : VPC_OUTPUTS) {
            stack.output(output, vpc.output(output));
        }
        stack.output("vpc_endpoints", endpoints.output("endpoints"));
        stack.output("vpc_endpoints_security_group_arn", endpoints.output("security_group_arn"));
        stack.output("vpc_endpoints_security_group_id", endpoints.output("security_group_id"));
        return stack;
    }

    /** {@code [for k, v in local.azs : cidrsubnet(local.vpc_cidr, 8, k + offset)]}. */
    private static ListValue subnets(ListValue azs, StringValue cidr, long offset) {
        return Fn.forList(
                "k",
                "v",
                azs,
                (k, v) -> Fn.cidrsubnet(
                        cidr, 8, offset == 0 ? k.asNumber() : k.asNumber().plus(offset)));
    }

    /** The policy both endpoint policies are: deny {@code action} to anyone from outside the VPC. */
    private static DataSource denyOutsideVpc(DataSource doc, String action, String variable, ModuleCall vpc) {
        return doc.block(
                "statement",
                s -> s.arg("effect", "Deny")
                        .arg("actions", ListValue.ofStrings(action))
                        .arg("resources", ListValue.ofStrings("*"))
                        .block("principals", p -> p.arg("type", "*").arg("identifiers", ListValue.ofStrings("*")))
                        .block(
                                "condition",
                                c -> c.arg("test", "StringNotEquals")
                                        .arg("variable", variable)
                                        .arg("values", ListValue.of(vpc.output("vpc_id")))));
    }

    private static ObjectValue privateEndpoint(String service, Value subnets, DataSource policy) {
        return object(
                entry("service", StringValue.of(service)),
                entry("private_dns_enabled", BoolValue.of(true)),
                entry("subnet_ids", subnets),
                entry("policy", policy.attr("json")));
    }

    @SafeVarargs
    private static ObjectValue object(Map.Entry<String, ? extends Value>... attributes) {
        return ObjectValue.of(Map.ofEntries(attributes));
    }
}
