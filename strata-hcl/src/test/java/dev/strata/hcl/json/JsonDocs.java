package dev.strata.hcl.json;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/**
 * Generators of JSON documents for property tests: valid documents with varied whitespace, escapes,
 * numbers, repeated names and (optionally) template sequences in strings, and the same documents
 * broken by small edits.
 */
final class JsonDocs {
    private JsonDocs() {}

    static Arbitrary<String> ws() {
        return Arbitraries.of("", "", " ", "\n", "\t", "\r\n", "  ");
    }

    static Arbitrary<String> number() {
        Arbitrary<String> intPart = Arbitraries.oneOf(
                Arbitraries.just("0"), Arbitraries.integers().between(1, 99999).map(String::valueOf));
        Arbitrary<String> frac = Arbitraries.oneOf(
                Arbitraries.just(""),
                Arbitraries.strings().numeric().ofMinLength(1).ofMaxLength(25).map(d -> "." + d));
        Arbitrary<String> exp = Arbitraries.oneOf(
                Arbitraries.just(""),
                Arbitraries.just(""),
                Combinators.combine(
                                Arbitraries.of("e", "E"),
                                Arbitraries.of("", "+", "-"),
                                Arbitraries.integers().between(0, 400))
                        .as((e, s, n) -> e + s + n));
        return Combinators.combine(Arbitraries.of("", "", "-"), intPart, frac, exp)
                .as((s, i, f, e) -> s + i + f + e);
    }

    /** Pieces of string content, as written between the quotes. */
    static Arbitrary<String> stringPiece(boolean templates) {
        Arbitrary<String> plain = Arbitraries.of(
                "a",
                "b",
                "web",
                " ",
                "-",
                "é",
                "日本",
                "😀",
                "x.y",
                "{",
                "}",
                "~",
                "\\n",
                "\\t",
                "\\\"",
                "\\\\",
                "\\/",
                "\\u00e9",
                "\\u0041",
                "\\ud83d\\ude00",
                "\\b",
                "\\f",
                "\\r",
                "\u007f");
        if (!templates) {
            return plain;
        }
        Arbitrary<String> tmpl = Arbitraries.of(
                "${var.a}",
                "${aws_instance.web.id}",
                "$${x}",
                "%%{y}",
                "${count.index + 1}",
                "%{if var.b}yes%{else}no%{endif}",
                "%{for x in var.l}${x}%{endfor}",
                "${",
                "}",
                "%{",
                "${var.}",
                "${f(1, 2)}",
                "$",
                "%",
                "${\\\"q\\\"}",
                "${~ var.a ~}");
        return Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(4, plain), net.jqwik.api.Tuple.of(1, tmpl));
    }

    static Arbitrary<String> string(boolean templates) {
        return stringPiece(templates).list().ofMaxSize(5).map(ps -> "\"" + String.join("", ps) + "\"");
    }

    /** Property names: few, so that repeats are common; never templates (see the oracle test). */
    static Arbitrary<String> name() {
        return Arbitraries.of("a", "b", "c", "//", "resource", "\\u0061", "x y", "é");
    }

    static Arbitrary<String> value(int depth, boolean templates) {
        Arbitrary<String> scalar =
                Arbitraries.oneOf(string(templates), number(), Arbitraries.of("true", "false", "null"));
        if (depth <= 0) {
            return scalar;
        }
        Arbitrary<String> element = Combinators.combine(ws(), Arbitraries.lazy(() -> value(depth - 1, templates)), ws())
                .as((a, v, b) -> a + v + b);
        Arbitrary<String> array = element.list().ofMaxSize(4).map(xs -> "[" + String.join(",", xs) + "]");
        Arbitrary<String> member = Combinators.combine(
                        ws(), name(), ws(), ws(), Arbitraries.lazy(() -> value(depth - 1, templates)), ws())
                .as((a, n, b, c, v, d) -> a + "\"" + n + "\"" + b + ":" + c + v + d);
        Arbitrary<String> object = member.list().ofMaxSize(4).map(ms -> "{" + String.join(",", ms) + "}");
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(2, scalar), net.jqwik.api.Tuple.of(1, array), net.jqwik.api.Tuple.of(2, object));
    }

    static Arbitrary<String> document(boolean templates) {
        Arbitrary<String> member = Combinators.combine(ws(), name(), ws(), value(3, templates))
                .as((a, n, b, v) -> a + "\"" + n + "\":" + b + v);
        return Combinators.combine(member.list().ofMaxSize(5), ws())
                .as((ms, w) -> "{" + String.join(",", ms) + w + "}");
    }

    /** One small edit, of the kinds that break JSON: insert, delete or replace a character, or truncate. */
    static Arbitrary<String> broken(Arbitrary<String> docs) {
        List<String> inserts = List.of(
                "{", "}", "[", "]", ",", ":", "\"", "\\", "0", "1", ".", "-", "+", "e", "t", "n", "x", " ", "\n", "$",
                "%", "=", "'", "/", "\u0001", "é");
        return Combinators.combine(
                        docs,
                        Arbitraries.integers().between(0, 3),
                        Arbitraries.doubles().between(0, 1),
                        Arbitraries.of(inserts))
                .as((d, kind, where, ch) -> {
                    int i = (int) (where * d.length());
                    int j = Math.min(d.length(), i + 1);
                    return switch (kind) {
                        case 0 -> d.substring(0, i) + ch + d.substring(i);
                        case 1 -> d.substring(0, i) + d.substring(j);
                        case 2 -> d.substring(0, i) + ch + d.substring(j);
                        default -> d.substring(0, i);
                    };
                });
    }

    /** Valid and broken documents, about half each. */
    static Arbitrary<String> validOrBroken(boolean templates) {
        Arbitrary<String> docs = document(templates);
        return Arbitraries.oneOf(docs, broken(docs));
    }
}
