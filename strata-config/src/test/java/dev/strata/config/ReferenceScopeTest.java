package dev.strata.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.addr.ForEachAttr;
import dev.strata.addr.InputVariable;
import dev.strata.addr.InstanceKey;
import dev.strata.addr.LocalValue;
import dev.strata.addr.ModuleCall;
import dev.strata.addr.PathAttr;
import dev.strata.addr.Reference;
import dev.strata.addr.Resource;
import dev.strata.addr.TerraformAttr;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import dev.strata.hcl.SourcePos;
import dev.strata.hcl.Traversal;
import dev.strata.hcl.syntax.Expr;
import dev.strata.hcl.syntax.NativeSyntax;
import dev.strata.lang.eval.Scope;
import dev.strata.lang.eval.TemplateFunctions;
import dev.strata.lang.funcs.FunctionContext;
import dev.strata.lang.funcs.FunctionTable;
import dev.strata.lang.value.Value;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The one scope: each kind of reference reaches the phase's data once, with the steps it consumed. */
class ReferenceScopeTest {

    /** Answers every question with the question itself, as a string, and records it. */
    private static class EchoData implements ScopeData {
        final List<String> asked = new ArrayList<>();
        Set<String> absentKeys = Set.of();

        private Result<Value> echo(String question, Reference ref) {
            asked.add(question + " @" + ref.range().start().column() + "-"
                    + ref.range().end().column());
            return Result.of(Value.string(question));
        }

        @Override
        public FunctionTable functions() {
            return TemplateFunctions.builtins(FunctionContext.system(Path.of(".")));
        }

        @Override
        public Result<Value> inputVariable(InputVariable variable, Reference ref) {
            return echo("var " + variable.name(), ref);
        }

        @Override
        public Result<Value> localValue(LocalValue local, Reference ref) {
            return echo("local " + local.name(), ref);
        }

        @Override
        public Result<Value> resource(Resource resource, InstanceKey key, Reference ref) {
            return echo("resource " + resource + " " + key, ref);
        }

        @Override
        public Result<Value> moduleCall(ModuleCall call, InstanceKey key, String output, Reference ref) {
            return echo("module " + call.name() + " " + key + " " + output, ref);
        }

        @Override
        public Result<Value> countIndex(Reference ref) {
            return echo("count.index", ref);
        }

        @Override
        public Result<Value> forEachAttr(ForEachAttr attr, Reference ref) {
            return echo("each." + attr.name(), ref);
        }

        @Override
        public Result<Value> pathAttr(PathAttr attr, Reference ref) {
            return echo("path." + attr.name(), ref);
        }

        @Override
        public Result<Value> terraformAttr(TerraformAttr attr, Reference ref) {
            return echo("terraform." + attr.name(), ref);
        }

        @Override
        public Result<Value> self(Reference ref) {
            // No value: the scope stands in an unknown, keeping the data's diagnostics.
            asked.add("self");
            return Result.of(null, Diagnostics.of(Diagnostic.error("No self", "Not here.", ref.range())));
        }

        @Override
        public boolean resourceKeyAbsent(Resource resource, InstanceKey key) {
            return absentKeys.contains(resource + key.toString());
        }

        @Override
        public boolean moduleKeyAbsent(ModuleCall call, InstanceKey key) {
            return absentKeys.contains(call + key.toString());
        }
    }

    private static Traversal traversal(String src) {
        Expr e = NativeSyntax.parseExpression(src.getBytes(StandardCharsets.UTF_8), "t.tf", SourcePos.START)
                .value();
        return ((Expr.ScopeTraversal) e).traversal();
    }

    static Stream<Arguments> references() {
        return Stream.of(
                Arguments.of("var.region", "var region @1-11", 2),
                Arguments.of("var.tags.name", "var tags @1-9", 2),
                Arguments.of("local.x[0]", "local x @1-8", 2),
                Arguments.of("aws_instance.web", "resource aws_instance.web null @1-17", 2),
                Arguments.of("aws_instance.web[1].id", "resource aws_instance.web [1] @1-20", 3),
                Arguments.of("data.aws_ami.a.id", "resource data.aws_ami.a null @1-15", 3),
                Arguments.of("module.net", "module net null null @1-11", 2),
                Arguments.of("module.net[\"a\"]", "module net [\"a\"] null @1-16", 3),
                Arguments.of("module.net.vpc_id.x", "module net  vpc_id @1-18", 3),
                Arguments.of("count.index", "count.index @1-12", 2),
                Arguments.of("each.value.name", "each.value @1-11", 2),
                Arguments.of("path.module", "path.module @1-12", 2),
                Arguments.of("terraform.workspace", "terraform.workspace @1-20", 2));
    }

    @ParameterizedTest
    @MethodSource("references")
    void dispatchesEachReferenceOnceWithTheStepsItNames(String src, String asked, int consumed) {
        EchoData data = new EchoData();
        Result<Scope.Resolved> r = new ReferenceScope(data).resolve(traversal(src));
        assertThat(data.asked).containsExactly(asked);
        assertThat(r.value().stepsConsumed()).isEqualTo(consumed);
        assertThat(r.value().value()).isEqualTo(Value.string(asked.substring(0, asked.indexOf(" @"))));
        assertThat(r.diagnostics().asList()).isEmpty();
    }

    @Test
    void aMissingValueIsUnknownWithTheDatasDiagnostics() {
        EchoData data = new EchoData();
        Result<Scope.Resolved> r = new ReferenceScope(data).resolve(traversal("self.id"));
        assertThat(data.asked).containsExactly("self");
        assertThat(r.value()).isEqualTo(new Scope.Resolved(Value.DYNAMIC_UNKNOWN, 1));
        assertThat(r.diagnostics().asList()).extracting(Diagnostic::summary).containsExactly("No self");
    }

    @Test
    void anAbsentInstanceKeyLeavesTheIndexToTheEvaluator() {
        EchoData data = new EchoData();
        data.absentKeys = Set.of("aws_instance.web[5]", "module.net[\"z\"]");
        ReferenceScope scope = new ReferenceScope(data);
        assertThat(scope.resolve(traversal("aws_instance.web[5].id")).value().stepsConsumed())
                .isEqualTo(2);
        assertThat(scope.resolve(traversal("module.net[\"z\"]")).value().stepsConsumed())
                .isEqualTo(2);
        assertThat(scope.resolve(traversal("module.net[\"z\"].out")).value().stepsConsumed())
                .isEqualTo(2);
        assertThat(data.asked)
                .containsExactly(
                        "resource aws_instance.web null @1-20",
                        "module net null null @1-16",
                        "module net null null @1-20");
    }

    @Test
    void anInvalidReferenceIsTheDatasToReport() {
        EchoData reporting = new EchoData();
        Result<Scope.Resolved> r = new ReferenceScope(reporting).resolve(traversal("count.foo.bar"));
        assertThat(reporting.asked).isEmpty();
        assertThat(r.value()).isEqualTo(new Scope.Resolved(Value.DYNAMIC_UNKNOWN, 3));
        assertThat(r.diagnostics().asList())
                .extracting(Diagnostic::summary)
                .containsExactly("Invalid \"count\" attribute");

        ScopeData silent = new EchoData() {
            @Override
            public Diagnostics invalidReference(Traversal traversal, Diagnostics problems) {
                return Diagnostics.NONE;
            }
        };
        assertThat(new ReferenceScope(silent)
                        .resolve(traversal("var"))
                        .diagnostics()
                        .asList())
                .isEmpty();
    }
}
