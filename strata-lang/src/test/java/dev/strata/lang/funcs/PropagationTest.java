package dev.strata.lang.funcs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.lang.types.Type;
import dev.strata.lang.value.Mark;
import dev.strata.lang.value.Value;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * For every built-in function, with valid sample arguments: a sensitive argument makes the result
 * sensitive, and an unknown argument makes the result unknown (or, for the few functions that
 * look inside partially known values, at least not wrongly known).
 */
class PropagationTest {
    @TempDir
    static Path dir;

    static FunctionTable table;

    /** Sample calls: function name, then argument expressions. */
    static final Map<String, List<String>> SAMPLES = new LinkedHashMap<>();

    static void s(String name, String... args) {
        SAMPLES.put(name, List.of(args));
    }

    static {
        s("abs", "-1");
        s("ceil", "1.5");
        s("floor", "1.5");
        s("log", "8", "2");
        s("max", "1", "2");
        s("min", "1", "2");
        s("parseint", "\"ff\"", "16");
        s("pow", "2", "3");
        s("signum", "-3");
        s("chomp", "\"a\\n\"");
        s("endswith", "\"ab\"", "\"b\"");
        s("format", "\"%s-%d\"", "\"a\"", "1");
        s("formatlist", "\"%s\"", "[\"a\", \"b\"]");
        s("indent", "2", "\"a\\nb\"");
        s("join", "\",\"", "[\"a\", \"b\"]");
        s("lower", "\"A\"");
        s("regex", "\"[a-z]+\"", "\"12ab\"");
        s("regexall", "\"[a-z]\"", "\"ab\"");
        s("replace", "\"abc\"", "\"b\"", "\"x\"");
        s("split", "\",\"", "\"a,b\"");
        s("startswith", "\"ab\"", "\"a\"");
        s("strcontains", "\"ab\"", "\"b\"");
        s("strrev", "\"ab\"");
        s("substr", "\"abc\"", "1", "1");
        s("title", "\"ab\"");
        s("trim", "\"xax\"", "\"x\"");
        s("trimprefix", "\"ab\"", "\"a\"");
        s("trimsuffix", "\"ab\"", "\"b\"");
        s("trimspace", "\" a \"");
        s("upper", "\"a\"");
        s("alltrue", "[true]");
        s("anytrue", "[true]");
        s("chunklist", "[1, 2, 3]", "2");
        s("coalesce", "\"\"", "\"b\"");
        s("coalescelist", "[]", "[1]");
        s("compact", "[\"a\", \"\"]");
        s("concat", "[1]", "[2]");
        s("contains", "[1, 2]", "2");
        s("distinct", "[1, 1]");
        s("element", "[1, 2]", "1");
        s("flatten", "[[1], [2]]");
        s("index", "[1, 2]", "2");
        s("keys", "{a = 1}");
        s("length", "[1, 2]");
        s("lookup", "{a = 1}", "\"a\"", "0");
        s("matchkeys", "[1, 2]", "[\"a\", \"b\"]", "[\"b\"]");
        s("merge", "{a = 1}", "{b = 2}");
        s("one", "[1]");
        s("range", "3");
        s("reverse", "[1, 2]");
        s("setintersection", "[1, 2]", "[2]");
        s("setproduct", "[1]", "[2]");
        s("setsubtract", "[1, 2]", "[2]");
        s("setunion", "[1]", "[2]");
        s("slice", "[1, 2, 3]", "1", "2");
        s("sort", "[\"b\", \"a\"]");
        s("sum", "[1, 2]");
        s("transpose", "{a = [\"b\"]}");
        s("values", "{a = 1}");
        s("zipmap", "[\"a\"]", "[1]");
        s("base64decode", "\"YQ==\"");
        s("base64encode", "\"a\"");
        s("base64gzip", "\"a\"");
        s("csvdecode", "\"a\\n1\"");
        s("jsondecode", "\"[1]\"");
        s("jsonencode", "[1]");
        s("textdecodebase64", "\"YQ==\"", "\"UTF-8\"");
        s("textencodebase64", "\"a\"", "\"UTF-8\"");
        s("urlencode", "\"a b\"");
        s("yamldecode", "\"a: 1\"");
        s("yamlencode", "{a = 1}");
        s("abspath", "\"x\"");
        s("dirname", "\"a/b\"");
        s("pathexpand", "\"~/a\"");
        s("basename", "\"a/b\"");
        s("file", "\"hello.txt\"");
        s("fileexists", "\"hello.txt\"");
        s("fileset", "\".\"", "\"*.txt\"");
        s("filebase64", "\"hello.txt\"");
        s("formatdate", "\"YYYY\"", "\"2020-01-02T03:04:05Z\"");
        s("plantimestamp");
        s("timeadd", "\"2020-01-02T03:04:05Z\"", "\"1h\"");
        s("timecmp", "\"2020-01-02T03:04:05Z\"", "\"2020-01-02T03:04:05Z\"");
        s("timestamp");
        s("base64sha256", "\"a\"");
        s("base64sha512", "\"a\"");
        s("bcrypt", "\"a\"", "4");
        s("filebase64sha256", "\"hello.txt\"");
        s("filebase64sha512", "\"hello.txt\"");
        s("filemd5", "\"hello.txt\"");
        s("filesha1", "\"hello.txt\"");
        s("filesha256", "\"hello.txt\"");
        s("filesha512", "\"hello.txt\"");
        s("md5", "\"a\"");
        s("sha1", "\"a\"");
        s("sha256", "\"a\"");
        s("sha512", "\"a\"");
        s("uuid");
        s("uuidv5", "\"dns\"", "\"a\"");
        s("cidrhost", "\"10.0.0.0/8\"", "1");
        s("cidrnetmask", "\"10.0.0.0/8\"");
        s("cidrsubnet", "\"10.0.0.0/8\"", "8", "1");
        s("cidrsubnets", "\"10.0.0.0/8\"", "8", "8");
        s("issensitive", "1");
        s("nonsensitive", "1");
        s("sensitive", "1");
        s("tobool", "\"true\"");
        s("tolist", "[1]");
        s("tomap", "{a = 1}");
        s("tonumber", "\"1\"");
        s("toset", "[1]");
        s("tostring", "1");
        s("ephemeralasnull", "1");
    }

    /** rsadecrypt needs a generated key; it is covered in CryptoFuncsTest. */
    static final Set<String> COVERED_ELSEWHERE = Set.of("rsadecrypt");

    /** Arguments that need not be known when the result does not depend on them. */
    static final Set<String> UNKNOWN_IGNORED = Set.of("lookup arg 2", "coalesce arg 1", "coalescelist arg 1");

    /** Functions whose job is to look at or change marks themselves. */
    static final Set<String> MARK_FUNCTIONS = Set.of("issensitive", "nonsensitive", "sensitive");

    @BeforeAll
    static void setUp() throws Exception {
        Files.writeString(dir.resolve("hello.txt"), "hello");
        table = Functions.builtins(new FunctionContext(
                dir,
                Path.of("/home/test"),
                Clock.fixed(Instant.parse("2024-01-02T03:04:05Z"), ZoneOffset.UTC),
                Optional.empty(),
                () -> UUID.fromString("00000000-0000-4000-8000-000000000000")));
    }

    static List<Value> args(String name) {
        List<Value> out = new ArrayList<>();
        for (String a : SAMPLES.get(name)) {
            dev.strata.hcl.Result<dev.strata.hcl.syntax.Expr> e = dev.strata.hcl.syntax.NativeSyntax.parseExpression(
                    a.getBytes(java.nio.charset.StandardCharsets.UTF_8), "sample", dev.strata.hcl.SourcePos.START);
            dev.strata.hcl.Result<Value> v =
                    new dev.strata.lang.eval.Evaluator(dev.strata.lang.eval.Scope.empty(table)).evaluate(e.value());
            if (e.hasErrors() || v.hasErrors()) {
                throw new IllegalArgumentException("sample " + a + ": " + e.diagnostics() + v.diagnostics());
            }
            out.add(v.value());
        }
        return out;
    }

    static CallResult call(String name, List<Value> args) {
        return table.lookup(name).orElseThrow().call(args);
    }

    @Test
    void everyBuiltinHasASample() {
        Set<String> missing = new TreeSet<>(table.names());
        missing.removeAll(SAMPLES.keySet());
        missing.removeAll(COVERED_ELSEWHERE);
        assertThat(missing).isEmpty();
    }

    @TestFactory
    Stream<DynamicTest> samplesSucceed() {
        return SAMPLES.keySet().stream()
                .map(n -> DynamicTest.dynamicTest(n, () -> {
                    CallResult r = call(n, args(n));
                    assertThat(r.isSuccess()).as(r.toString()).isTrue();
                    if (!n.equals("sensitive")) {
                        assertThat(r.value().deepMarks()).isEmpty();
                    }
                }));
    }

    @TestFactory
    Stream<DynamicTest> sensitiveArgumentGivesSensitiveResult() {
        return SAMPLES.keySet().stream()
                .filter(n -> !MARK_FUNCTIONS.contains(n))
                .flatMap(n -> java.util.stream.IntStream.range(0, SAMPLES.get(n).size())
                        .mapToObj(i -> DynamicTest.dynamicTest(n + " arg " + i, () -> {
                            List<Value> a = args(n);
                            a.set(i, a.get(i).mark(Mark.SENSITIVE));
                            CallResult r = call(n, a);
                            assertThat(r.isSuccess()).as(r.toString()).isTrue();
                            assertThat(r.value().hasMarkDeep(Mark.SENSITIVE))
                                    .as(n)
                                    .isTrue();
                        })));
    }

    @TestFactory
    Stream<DynamicTest> unknownArgumentGivesUnknownResult() {
        return SAMPLES.keySet().stream()
                .filter(n -> !MARK_FUNCTIONS.contains(n))
                .flatMap(n -> java.util.stream.IntStream.range(0, SAMPLES.get(n).size())
                        .mapToObj(i -> DynamicTest.dynamicTest(n + " arg " + i, () -> {
                            List<Value> a = args(n);
                            Value known = a.get(i);
                            a.set(i, Value.unknown(known.type()));
                            CallResult r = call(n, a);
                            assertThat(r.isSuccess()).as(r.toString()).isTrue();
                            Value v = r.value();
                            if (UNKNOWN_IGNORED.contains(n + " arg " + i)) {
                                return;
                            }
                            assertThat(v.isWhollyKnown()).as(n + " gave " + v).isFalse();
                            Value expected = call(n, args(n)).value();
                            if (!v.isKnown() && !(v.type() instanceof dev.strata.lang.types.DynamicType)) {
                                assertThat(Convert(expected.type(), v.type()))
                                        .as(n + " type")
                                        .isTrue();
                            }
                        })));
    }

    /** The unknown result's type must be the known result's type, or one it converts to. */
    private static boolean Convert(Type known, Type unknown) {
        return known.equals(unknown) || dev.strata.lang.value.Convert.canConvert(known, unknown);
    }

    @Test
    void sensitiveAndIssensitive() {
        Value s = call("sensitive", List.of(Value.number(1))).value();
        assertThat(s.isSensitive()).isTrue();
        assertThat(call("issensitive", List.of(s)).value()).isEqualTo(Value.TRUE);
        assertThat(call("issensitive", List.of(Value.number(1))).value()).isEqualTo(Value.FALSE);
        assertThat(call("issensitive", List.of(Value.unknown(Type.NUMBER)))
                        .value()
                        .isKnown())
                .isFalse();
        assertThat(call("issensitive", List.of(Value.unknown(Type.NUMBER).mark(Mark.SENSITIVE)))
                        .value())
                .isEqualTo(Value.TRUE);
        Value n = call("nonsensitive", List.of(s)).value();
        assertThat(n).isEqualTo(Value.number(1));
    }

    @Test
    void lengthOfKnownListWithUnknownElementsIsKnown() {
        Value l = Value.list(Type.STRING, List.of(Value.unknown(Type.STRING), Value.string("a")));
        assertThat(call("length", List.of(l)).value()).isEqualTo(Value.number(2));
        Value t = Value.tuple(List.of(Value.DYNAMIC_UNKNOWN));
        assertThat(call("length", List.of(t)).value()).isEqualTo(Value.number(1));
        assertThat(call("length", List.of(Value.DYNAMIC_UNKNOWN)).value().isKnown())
                .isFalse();
    }

    @Test
    void keysOfObjectWithUnknownValuesAreKnown() {
        Value o = Value.objectOf("b", Value.unknown(Type.STRING), "a", Value.number(1));
        assertThat(call("keys", List.of(o)).value())
                .isEqualTo(Value.tuple(List.of(Value.string("a"), Value.string("b"))));
    }

    @Test
    void ephemeralValuesBecomeNull() {
        Value o = Value.objectOf("a", Value.string("x").mark(Mark.EPHEMERAL), "b", Value.string("y"));
        Value r = call("ephemeralasnull", List.of(o)).value();
        assertThat(r).isEqualTo(Value.objectOf("a", Value.nullValue(Type.STRING), "b", Value.string("y")));
    }

    @Test
    void sensitiveArgumentIsNotQuotedInErrors() {
        CallResult r = call("parseint", List.of(Value.string("s3cr3t").mark(Mark.SENSITIVE), Value.number(10)));
        assertThat(r).isInstanceOf(CallResult.Failure.class);
        CallResult.Failure f = (CallResult.Failure) r;
        assertThat(f.detail()).doesNotContain("s3cr3t");
        assertThat(f.argIndex()).isEqualTo(0);
        CallResult t = call("tonumber", List.of(Value.string("s3cr3t").mark(Mark.SENSITIVE)));
        assertThat(((CallResult.Failure) t).detail())
                .isEqualTo("Invalid value for \"v\" parameter: cannot convert this sensitive string to number.");
    }

    @Test
    void sensitiveNumbersAreNotQuotedInErrors() {
        CallResult r = call(
                "cidrhost",
                List.of(Value.string("10.0.0.0/30"), Value.number(987654).mark(Mark.SENSITIVE)));
        CallResult.Failure f = (CallResult.Failure) r;
        assertThat(f.detail()).doesNotContain("987654");
        CallResult g = call("format", List.of(Value.string("%z").mark(Mark.SENSITIVE)));
        assertThat(((CallResult.Failure) g).detail()).doesNotContain("%z");
    }

    /** An argument whose type is not known yet either (after an upstream error) must not break a call. */
    @TestFactory
    Stream<DynamicTest> dynamicUnknownArgumentGivesUnknownResult() {
        return SAMPLES.keySet().stream()
                .filter(n -> !MARK_FUNCTIONS.contains(n))
                .flatMap(n -> java.util.stream.IntStream.range(0, SAMPLES.get(n).size())
                        .mapToObj(i -> DynamicTest.dynamicTest(n + " arg " + i, () -> {
                            List<Value> a = args(n);
                            a.set(i, Value.DYNAMIC_UNKNOWN);
                            CallResult r = call(n, a);
                            assertThat(r.isSuccess()).as(r.toString()).isTrue();
                            if (!UNKNOWN_IGNORED.contains(n + " arg " + i)) {
                                assertThat(r.value().isWhollyKnown())
                                        .as(n + " gave " + r.value())
                                        .isFalse();
                            }
                        })));
    }

    /** typeCheck works for every sample: the result type of a call with only unknown arguments. */
    @TestFactory
    Stream<DynamicTest> typeCheckAgreesWithCall() {
        return SAMPLES.keySet().stream()
                .map(n -> DynamicTest.dynamicTest(n, () -> {
                    List<Value> a = args(n);
                    CallResult checked = table.lookup(n).orElseThrow().typeCheck(a);
                    assertThat(checked.isSuccess()).as(checked.toString()).isTrue();
                    Value known = call(n, a).value();
                    Type t = checked.value().type();
                    assertThat(t instanceof dev.strata.lang.types.DynamicType || Convert(known.type(), t))
                            .as(n + ": " + known.type() + " vs " + t)
                            .isTrue();
                }));
    }
}
