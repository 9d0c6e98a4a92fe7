package dev.strata.lang.funcs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.lang.value.Numbers;
import dev.strata.lang.value.Value;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class CodecProperties {
    static final FunctionTable T = ConsoleCasesTest.table();

    static Value call(String name, Value... args) {
        return T.lookup(name).orElseThrow().call(args).value();
    }

    @Provide
    Arbitrary<Value> documents() {
        Arbitrary<Value> scalars = Arbitraries.oneOf(
                Arbitraries.strings().ofMaxLength(8).map(Value::string),
                Arbitraries.strings().withChars("ab \n\t:#-'\"").ofMaxLength(8).map(Value::string),
                Arbitraries.bigDecimals()
                        .between(new BigDecimal("-1e9"), new BigDecimal("1e9"))
                        .ofScale(4)
                        .map(Value::number),
                Arbitraries.of(Value.TRUE, Value.FALSE, Value.NULL));
        Arbitrary<Value> lists = scalars.list().ofMaxSize(4).map(Value::tuple);
        Arbitrary<Value> inner = Arbitraries.oneOf(scalars, lists);
        return Arbitraries.maps(Arbitraries.strings().alpha().ofMinLength(1).ofMaxLength(5), inner)
                .ofMaxSize(5)
                .map(m -> Value.object(new LinkedHashMap<>(m)));
    }

    @Property
    void yamlRoundTrips(@ForAll("documents") Value doc) {
        Value text = call("yamlencode", doc);
        assertThat(call("yamldecode", text)).isEqualTo(doc);
    }

    @Property
    void jsonRoundTrips(@ForAll("documents") Value doc) {
        Value text = call("jsonencode", doc);
        assertThat(call("jsondecode", text)).isEqualTo(doc);
    }

    @Property
    void base64RoundTrips(@ForAll String s) {
        Value v = Value.string(s);
        assertThat(call("base64decode", call("base64encode", v))).isEqualTo(v);
        assertThat(call(
                        "textdecodebase64",
                        call("textencodebase64", v, Value.string("UTF-16LE")),
                        Value.string("UTF-16LE")))
                .isEqualTo(v);
    }

    @Property
    void round512IsStableAndKeepsTheBinaryValue(@ForAll("decimals") BigDecimal x) {
        BigDecimal r = Numbers.round512(x);
        assertThat(Numbers.round512(r)).isEqualByComparingTo(r);
        assertThat(Numbers.binary512(r)).isEqualByComparingTo(Numbers.binary512(x));
        assertThat(r.precision()).isLessThanOrEqualTo(Math.max(x.precision(), 156));
    }

    @Provide
    Arbitrary<BigDecimal> decimals() {
        return Arbitraries.bigDecimals()
                .between(new BigDecimal("-1e40"), new BigDecimal("1e40"))
                .ofScale(30);
    }

    @Property
    void formatlistMatchesFormatPerElement(@ForAll("words") List<String> words) {
        List<Value> vs = words.stream().map(Value::string).toList();
        Value list = call("formatlist", Value.string("<%s>"), Value.tuple(vs));
        for (int i = 0; i < vs.size(); i++) {
            assertThat(list.elements().get(i)).isEqualTo(call("format", Value.string("<%s>"), vs.get(i)));
        }
    }

    @Provide
    Arbitrary<List<String>> words() {
        return Arbitraries.strings().ofMaxLength(6).list().ofMaxSize(6);
    }

    @Property
    void base64gzipIsValidGzip(@ForAll String s) throws Exception {
        byte[] gz = java.util.Base64.getDecoder()
                .decode(call("base64gzip", Value.string(s)).asString());
        try (var in = new java.util.zip.GZIPInputStream(new java.io.ByteArrayInputStream(gz))) {
            assertThat(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8))
                    .isEqualTo(Value.string(s).asString());
        }
    }
}
