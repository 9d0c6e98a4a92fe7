package dev.strata.lang.eval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Result;
import dev.strata.hcl.SourcePos;
import dev.strata.hcl.syntax.NativeSyntax;
import dev.strata.lang.funcs.FunctionContext;
import dev.strata.lang.funcs.FunctionError;
import dev.strata.lang.funcs.FunctionTable;
import dev.strata.lang.funcs.Param;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Provider-defined functions found by name through {@link FunctionTable.Resolver}. */
class ProviderFunctionResolverTest {
    private final AtomicInteger resolutions = new AtomicInteger();

    private final FunctionTable table = TemplateFunctions.builtins(FunctionContext.system(Path.of(".")))
            .withResolver(name -> {
                resolutions.incrementAndGet();
                if (name.equals("provider::fake::shout")) {
                    return new FunctionTable.Lookup.Found(dev.strata.lang.funcs.Function.builder(name)
                            .param(Param.of("s", Type.STRING))
                            .returns(Type.STRING)
                            .impl((args, rt) -> {
                                if (args.get(0).asString().isEmpty()) {
                                    throw FunctionError.call("nothing to shout");
                                }
                                return Value.string(args.get(0).asString().toUpperCase());
                            })
                            .build());
                }
                return new FunctionTable.Lookup.Missing("Unknown provider function", "not " + name);
            });

    private Result<Value> eval(String src) {
        Result<dev.strata.hcl.syntax.Expr> e =
                NativeSyntax.parseExpression(src.getBytes(StandardCharsets.UTF_8), "t.tf", SourcePos.START);
        assertThat(e.diagnostics().hasErrors()).isFalse();
        return new Evaluator(Scope.empty(table)).evaluate(e.value());
    }

    @Test
    void resolvesOnFirstUseAndOnce() {
        assertThat(eval("provider::fake::shout(\"hi\")").value()).isEqualTo(Value.string("HI"));
        assertThat(eval("provider::fake::shout(\"ho\")").value()).isEqualTo(Value.string("HO"));
        assertThat(resolutions).hasValue(1);
        assertThat(eval("upper(\"x\")").value()).isEqualTo(Value.string("X"));
        assertThat(resolutions).hasValue(1);
    }

    @Test
    void missingFunctionsUseTheResolversWordingAtTheName() {
        Diagnostic d = eval("provider::fake::nope(1)").diagnostics().asList().get(0);
        assertThat(d.summary()).isEqualTo("Unknown provider function");
        assertThat(d.detail()).isEqualTo("not provider::fake::nope");
        assertThat(d.subject().start().byteOffset()).isZero();
        assertThat(d.subject().end().byteOffset()).isEqualTo("provider::fake::nope".length());
    }

    @Test
    void withoutResolverTheProviderIsUndeclared() {
        FunctionTable plain = TemplateFunctions.builtins(FunctionContext.system(Path.of(".")));
        Result<dev.strata.hcl.syntax.Expr> e = NativeSyntax.parseExpression(
                "provider::foo::bar(\"x\")".getBytes(StandardCharsets.UTF_8), "t.tf", SourcePos.START);
        Diagnostic d = new Evaluator(Scope.empty(plain))
                .evaluate(e.value())
                .diagnostics()
                .asList()
                .get(0);
        assertThat(d.summary()).isEqualTo("Unknown provider function");
        assertThat(d.detail())
                .isEqualTo("There is no function named \"provider::foo::bar\". Ensure that provider name "
                        + "\"foo\" is declared in this module's required_providers block, and that this provider offers a "
                        + "function named \"bar\".");
    }

    @Test
    void aFailedCallPointsAtTheNameAndOpenParen() {
        Diagnostic d =
                eval("provider::fake::shout(\"\")").diagnostics().asList().get(0);
        assertThat(d.summary()).isEqualTo("Error in function call");
        assertThat(d.detail()).isEqualTo("Call to function \"provider::fake::shout\" failed: nothing to shout.");
        assertThat(d.subject().start().byteOffset()).isZero();
        assertThat(d.subject().end().byteOffset()).isEqualTo("provider::fake::shout(".length());
        assertThat(d.context().end().byteOffset()).isEqualTo("provider::fake::shout(\"\")".length());
    }
}
