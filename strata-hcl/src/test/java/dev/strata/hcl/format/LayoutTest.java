package dev.strata.hcl.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The layout rules, one probe each. Every expectation is what HashiCorp's hclwrite printed for the
 * input (\n, \t and \r written as escapes).
 */
class LayoutTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '\'', textBlock = """
            a=1\\nbb = 2                         | a  = 1\\nbb = 2
            x = [1,2]                            | x = [1, 2]
            x = f( a , b )                       | x = f(a, b)
            x = {a=-1}                           | x = { a = -1 }
            x = {}                               | x = {}
            x = a*-1                             | x = a * -1
            x = f(a)-1                           | x = f(a) - 1
            x = a-1                              | x = a-1
            x = a ? -1 : - 2                     | x = a ? -1 : -2
            x = "${-1}"                          | x = "${- 1}"
            x = ! a && ! b                       | x = !a && !b
            x = a [0] . b (c)                    | x = a[0].b(c)
            x = "a"[0]                           | x = "a" [0]
            x = [for x in [y]:x]                 | x = [for x in [y] : x]
            x = {for k,v in m:k=>v...}           | x = { for k, v in m : k => v... }
            x = "%{ if a }b%{ endif }"           | x = "%{if a}b%{endif}"
            x = "${ {a=1} }"                     | x = "${ { a = 1 } }"
            x=a[ * ].b                           | x = a[*].b
            x = a/*c*/+ b                        | x = a /*c*/ + b
            a = 1   # c\\nbbb = 2 # d            | a   = 1 # c\\nbbb = 2 # d
            a = "ää" # c\\nbbbbbb = 2 # d        | a      = "ää" # c\\nbbbbbb = 2    # d
            /* x */ a = 1\\nbb = 2               | /* x */ a = 1\\nbb        = 2
            a = 1\\n b {\\n c = 2\\n }           | a = 1\\nb {\\n  c = 2\\n}
            x = [\\n1,\\n2]                      | x = [\\n  1,\\n2]
            x = {\\na = {\\nb = 1 }\\n}          | x = {\\n  a = {\\n  b = 1 }\\n}
            a = <<EOT\\n  foo  \\nEOT\\nbb = 2   | a  = <<EOT\\n  foo  \\nEOT\\nbb = 2
            a = 1\\t\\t                          | 'a = 1  '
            a = 1\\n   \\n                       | a = 1\\n\\n
            a = 1\\r\\nbb = 2 # x\\r\\n          | a  = 1\\r\\nbb = 2 # x\\r\\n
            \\uFEFFa=1\\n                        | a = 1\\n
            """)
    void layoutMatchesHclwrite(String input, String expected) {
        byte[] src = unescape(input).getBytes(StandardCharsets.UTF_8);
        assertThat(new String(Formatter.layout(src), StandardCharsets.UTF_8)).isEqualTo(unescape(expected));
    }

    private static String unescape(String s) {
        return s.replace("\\n", "\n").replace("\\t", "\t").replace("\\r", "\r").replace("\\uFEFF", "\uFEFF");
    }
}
