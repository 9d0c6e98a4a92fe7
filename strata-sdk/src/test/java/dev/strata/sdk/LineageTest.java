package dev.strata.sdk;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class LineageTest {
    private final Stack stack = new Stack();

    private static String text(Value v) {
        return Render.text(v.expr());
    }

    @Test
    void resourceAttributesMembersIndexesAndKeys() {
        Resource web = stack.resource("aws_instance", "web");
        assertThat(web.attr("id").lineage().orElseThrow().text()).isEqualTo("aws_instance.web.id");
        assertThat(text(web.attr("ebs_block_device").get(0).get("volume_id")))
                .isEqualTo("aws_instance.web.ebs_block_device[0].volume_id");
        assertThat(text(web.attr("tags").key("Environment"))).isEqualTo("aws_instance.web.tags[\"Environment\"]");
        assertThat(text(web.attr("tags").key("a\"${b}"))).isEqualTo("aws_instance.web.tags[\"a\\\"$${b}\"]");
        assertThat(text(web.attr("weird-name"))).isEqualTo("aws_instance.web.weird-name");
        assertThat(text(web.attr("9lives"))).isEqualTo("aws_instance.web[\"9lives\"]");
    }

    @Test
    void lineageIsImmutable() {
        Lineage base = stack.resource("aws_vpc", "main").attr("id").lineage().orElseThrow();
        Lineage longer = base.member("x");
        assertThat(base.text()).isEqualTo("aws_vpc.main.id");
        assertThat(longer.text()).isEqualTo("aws_vpc.main.id.x");
        assertThat(base.segments()).hasSize(2);
    }

    @Test
    void dataVariablesLocalsModules() {
        assertThat(text(stack.data("aws_ami", "x").attr("id"))).isEqualTo("data.aws_ami.x.id");
        assertThat(text(stack.variable("region").value())).isEqualTo("var.region");
        StringValue name = stack.local("name", StringValue.of("web"));
        assertThat(text(name)).isEqualTo("local.name");
        ModuleCall vpc = stack.module("vpc", "./vpc");
        assertThat(text(vpc.output("private_subnets").asList().get(0))).isEqualTo("module.vpc.private_subnets[0]");
        assertThat(text(vpc.instance(1).get("id"))).isEqualTo("module.vpc[1].id");
    }

    @Test
    void instancesSplatsAndRepetitionValues() {
        Resource subnets = stack.resource("aws_subnet", "a").count(3);
        assertThat(text(subnets.splat("id"))).isEqualTo("aws_subnet.a[*].id");
        assertThat(text(subnets.instance(2).get("arn"))).isEqualTo("aws_subnet.a[2].arn");
        assertThat(text(subnets.countIndex())).isEqualTo("count.index");
        assertThat(text(subnets.instance(subnets.countIndex()).get("id"))).isEqualTo("aws_subnet.a[count.index].id");
        Resource keyed = stack.resource("aws_subnet", "b").forEach(SetValue.ofStrings("x", "y"));
        assertThat(text(keyed.eachKey())).isEqualTo("each.key");
        assertThat(text(keyed.eachValue().get("cidr"))).isEqualTo("each.value.cidr");
        assertThat(text(keyed.instance("x").get("id"))).isEqualTo("aws_subnet.b[\"x\"].id");
        assertThat(text(keyed.all())).isEqualTo("aws_subnet.b");
    }

    @Test
    void literalsStayLiterals() {
        ListValue list = ListValue.ofStrings("a", "b");
        assertThat(list.get(1).expr()).isEqualTo(new Expr.Str("b"));
        assertThat(list.isLiteral()).isTrue();
        MapValue tags = MapValue.ofStrings(Map.of("Name", "x"));
        assertThat(tags.get("Name").expr()).isEqualTo(new Expr.Str("x"));
        assertThat(StringValue.of("x").lineage()).isEmpty();
        assertThat(stack.resource("a_b", "c").attr("id").isLiteral()).isFalse();
    }

    @Test
    void expressionsComposeLineages() {
        Resource vpc = stack.resource("aws_vpc", "main");
        Resource subnets = stack.resource("aws_subnet", "a").count(2);
        StringValue cidr = Fn.cidrsubnet(vpc.attr("cidr_block").asString(), 8, subnets.countIndex());
        assertThat(text(cidr)).isEqualTo("cidrsubnet(aws_vpc.main.cidr_block, 8, count.index)");
        assertThat(Exprs.refs(cidr.expr()))
                .extracting(r -> r.lineage().text())
                .containsExactly("aws_vpc.main.cidr_block", "count.index");
        Variable env = stack.variable("env");
        StringValue size =
                Fn.cond(env.value().eq(StringValue.of("prod")), StringValue.of("large"), StringValue.of("small"));
        assertThat(text(size)).isEqualTo("(var.env == \"prod\") ? \"large\" : \"small\"");
        StringValue name = Fn.template("web-${literal}-", env.value(), "%{x}");
        assertThat(text(name)).isEqualTo("\"web-$${literal}-${var.env}%%{x}\"");
        assertThat(Render.json(name.expr()).textValue()).isEqualTo("web-$${literal}-${var.env}%%{x}");
        ListValue ids = Fn.forList(
                "s", subnets.all(), s -> s.get("id"), s -> s.get("public").asBool());
        assertThat(text(ids)).isEqualTo("[for s in aws_subnet.a : s.id if s.public]");
        MapValue byName = Fn.forMap("s", subnets.all(), s -> s.get("name").asString(), s -> s.get("id"));
        assertThat(text(byName)).isEqualTo("{for s in aws_subnet.a : s.name => s.id}");
        MapValue byKey = Fn.forMap("k", "s", subnets.all(), (k, s) -> k.asString(), (k, s) -> s.get("id"));
        assertThat(text(byKey)).isEqualTo("{for k, s in aws_subnet.a : k => s.id}");
        ListValue indexed = Fn.forList(
                "k",
                "v",
                names(stack),
                (k, v) -> Fn.cidrsubnet(
                        StringValue.of("10.0.0.0/16"), 8, k.asNumber().plus(4)));
        assertThat(text(indexed)).isEqualTo("[for k, v in var.names : cidrsubnet(\"10.0.0.0/16\", 8, k + 4)]");
        assertThat(text(Fn.template("ex-", Fn.call("basename", stack.pathCwd()))))
                .isEqualTo("\"ex-${basename(path.cwd)}\"");
        assertThat(text(stack.pathModule())).isEqualTo("path.module");
        assertThat(text(stack.pathRoot())).isEqualTo("path.root");
        assertThat(text(stack.workspace())).isEqualTo("terraform.workspace");
        assertThat(text(Fn.call("split", StringValue.of(","), env.value()).get(0)))
                .isEqualTo("split(\",\", var.env)[0]");
        assertThat(text(Fn.length(subnets.all()).plus(1).greaterThan(NumberValue.of(2))))
                .isEqualTo("(length(aws_subnet.a) + 1) > 2");
    }

    @Test
    void sitesPointAtTheCallerNotTheSdk() {
        AnyValue id = stack.resource("x_y", "z").attr("id");
        assertThat(id.site().file()).isEqualTo("LineageTest.java");
        assertThat(id.site().className()).isEqualTo(LineageTest.class.getName());
        assertThat(id.site().method()).isEqualTo("sitesPointAtTheCallerNotTheSdk");
        assertThat(id.site().line()).isPositive();
    }

    private static AnyValue names(Stack stack) {
        return stack.variable("names").value();
    }
}
