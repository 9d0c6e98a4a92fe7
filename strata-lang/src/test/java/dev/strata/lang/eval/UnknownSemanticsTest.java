package dev.strata.lang.eval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import dev.strata.hcl.SourcePos;
import dev.strata.hcl.Traversal;
import dev.strata.hcl.syntax.NativeSyntax;
import dev.strata.lang.funcs.FunctionContext;
import dev.strata.lang.funcs.FunctionTable;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.ConsoleFormat;
import dev.strata.lang.value.Value;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Unknown values as Terraform 1.11 treats them (each expected rendering and type taken from
 * {@code terraform console}): {@code d} is an unknown of unknown type (what
 * {@code try(unknown, "")} gives), {@code u} an unknown string. A function given a dynamically
 * typed argument its parameter does not accept returns a wholly unknown value of unknown type;
 * unknown set elements never equal one another; a conditional with a dynamically typed result has
 * an unknown result type.
 */
class UnknownSemanticsTest {
    private static final Map<String, Value> NAMES = Map.of("d", Value.DYNAMIC_UNKNOWN, "u", Value.unknown(Type.STRING));
    private static final FunctionTable FUNCTIONS = TemplateFunctions.builtins(FunctionContext.system(Path.of(".")));

    private static final Scope SCOPE = new Scope() {
        @Override
        public Result<Resolved> resolve(Traversal traversal) {
            return Result.of(new Resolved(NAMES.get(traversal.rootName()), 1), Diagnostics.NONE);
        }

        @Override
        public FunctionTable functions() {
            return FUNCTIONS;
        }
    };

    record Case(String expr, String rendered, String type) {
        @Override
        public String toString() {
            return expr;
        }
    }

    static List<Case> cases() {
        String unknown = "(known after apply)";
        return List.of(
                // functions whose parameter does not take a dynamically typed argument
                new Case("format(\"%s-x\", d)", unknown, "dynamic"),
                new Case("formatlist(\"%s\", d)", unknown, "dynamic"),
                new Case("format(\"%v\", null)", unknown, "dynamic"),
                new Case("contains(d, \"a\")", unknown, "dynamic"),
                new Case("contains([\"a\"], d)", unknown, "dynamic"),
                new Case("index(d, \"a\")", unknown, "dynamic"),
                new Case("sum([d])", unknown, "number"),
                new Case("sum(d)", unknown, "dynamic"),
                new Case("parseint(d, 10)", unknown, "dynamic"),
                new Case("templatestring(u, d)", unknown, "dynamic"),
                // a literal template is rejected only once the call runs, which unknown vars skip
                new Case("templatestring(\"hello\", d)", unknown, "dynamic"),
                // a typed null is a value to format: %v prints it as null
                new Case("format(\"%v\", tostring(null))", "\"null\"", "string"),
                new Case("format(\"%v\", tostring(null), d)", unknown, "dynamic"),
                new Case(
                        "formatlist(\"%v %v\", tolist(null), [\"a\", null])",
                        "tolist([\n  \"null a\",\n  \"null null\",\n])", "list(string)"),
                // ... and the wholly unknown result travels on: flatten of a tuple of dynamic unknowns
                new Case(
                        "[for v in [\"a\", \"b\"] : format(v, d)]",
                        "[\n  " + unknown + ",\n  " + unknown + ",\n]",
                        "tuple([\n    dynamic,\n    dynamic,\n])"),
                new Case("flatten([for v in [\"a\", \"b\"] : format(v, d)])", unknown, "dynamic"),
                // functions that do take one keep their own result type
                new Case("length(d)", unknown, "number"),
                new Case("coalesce(d, \"a\")", unknown, "string"),
                new Case("jsonencode(d)", unknown, "string"),
                new Case("format(\"%s-x\", u)", unknown, "string"),
                new Case("format(\"%v\", \"a\")", "\"a\"", "string"),
                new Case("lookup({a = \"b\"}, \"a\", d)", "\"b\"", "string"),
                new Case("lookup({a = \"b\"}, \"c\", d)", unknown, "dynamic"),
                // for expressions
                new Case("[for v in d : v]", unknown, "dynamic"),
                new Case("[for v in [\"a\"] : v if d]", unknown, "dynamic"),
                // conditionals
                new Case("d ? \"a\" : d", unknown, "dynamic"),
                new Case("true ? d : 1", unknown, "dynamic"),
                new Case("false ? d : 1", "1", "number"),
                new Case("d ? \"a\" : \"b\"", unknown, "string"),
                new Case("true ? null : 1", "tonumber(null)", "number"),
                // operators
                new Case("d + 1", unknown, "number"),
                new Case("d == 1", unknown, "bool"),
                // no short-circuit in 1.11: a deciding operand still gives unknown beside an unknown one
                new Case("false && u == \"x\"", unknown, "bool"),
                new Case("u == \"x\" && false", unknown, "bool"),
                new Case("true || d", unknown, "bool"),
                new Case("d || true", unknown, "bool"),
                new Case("false && true", "false", "bool"),
                new Case("\"a${d}\"", unknown, "string"),
                // sets: unknown elements stay distinct; a lone unknown still counts one
                new Case(
                        "toset([u, \"${u}/*\"])", "toset([\n  " + unknown + ",\n  " + unknown + ",\n])", "set(string)"),
                new Case("toset([d, d])", "toset([\n  " + unknown + ",\n  " + unknown + ",\n])", "set(dynamic)"),
                new Case("length(toset([u, \"${u}/*\"]))", unknown, "number"),
                new Case("length(toset([u]))", "1", "number"),
                new Case("length(toset([{a = u}, {a = u}]))", unknown, "number"),
                new Case(
                        "toset([u, null, \"b\", \"a\"])",
                        "toset([\n  \"a\",\n  \"b\",\n  " + unknown + ",\n  tostring(null),\n])",
                        "set(string)"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void asTerraform(Case c) {
        Result<Value> r = eval(c.expr());
        assertThat(r.diagnostics().hasErrors()).as(r.diagnostics().toString()).isFalse();
        assertThat(ConsoleFormat.render(r.value())).isEqualTo(c.rendered());
        assertThat(r.value().type().consoleTypeString()).isEqualTo(c.type());
    }

    private static Result<Value> eval(String src) {
        return new Evaluator(SCOPE)
                .evaluate(NativeSyntax.parseExpression(src.getBytes(StandardCharsets.UTF_8), "t", SourcePos.START)
                        .value());
    }
}
