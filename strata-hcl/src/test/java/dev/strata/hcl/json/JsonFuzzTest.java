package dev.strata.hcl.json;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.hcl.Attribute;
import dev.strata.hcl.AttributeSchema;
import dev.strata.hcl.Block;
import dev.strata.hcl.BlockHeaderSchema;
import dev.strata.hcl.BodyContent;
import dev.strata.hcl.BodySchema;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.HclFile;
import dev.strata.hcl.Result;
import dev.strata.hcl.SourceRange;
import java.nio.charset.StandardCharsets;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** No input makes the JSON syntax throw, and every diagnostic points inside the file. */
class JsonFuzzTest {
    static final BodySchema SCHEMA = new BodySchema(
            List.of(AttributeSchema.optional("a")),
            List.of(BlockHeaderSchema.of("resource", "type", "name"), BlockHeaderSchema.of("b")));

    @Property(tries = 2000)
    void randomBytesNeverThrow(@ForAll byte[] src) {
        exercise(src);
    }

    @Property(tries = 1000)
    void nearlyValidDocumentsNeverThrow(@ForAll("docs") String doc) {
        exercise(doc.getBytes(StandardCharsets.UTF_8));
    }

    @Provide
    Arbitrary<String> docs() {
        return JsonDocs.validOrBroken(true);
    }

    static void exercise(byte[] src) {
        Result<HclFile> r = JsonSyntax.parse(src, "f.tf.json");
        checkRanges(r.diagnostics(), src);
        Result<BodyContent> c = r.value().body().content(SCHEMA);
        checkRanges(c.diagnostics(), src);
        c.value().attributes().values().forEach(a -> exercise(a, src));
        for (Block b : c.value().blocks()) {
            Result<java.util.Map<String, Attribute>> attrs = b.body().justAttributes();
            checkRanges(attrs.diagnostics(), src);
            attrs.value().values().forEach(a -> exercise(a, src));
            checkRanges(b.body().content(SCHEMA).diagnostics(), src);
        }
        Result<java.util.Map<String, Attribute>> all = r.value().body().justAttributes();
        checkRanges(all.diagnostics(), src);
        all.value().values().forEach(a -> exercise(a, src));
    }

    static void exercise(Attribute a, byte[] src) {
        checkRanges(a.expr().syntax().diagnostics(), src);
        a.expr().variables().forEach(t -> checkRange(t.range(), src));
        checkRanges(a.expr().asTraversal().diagnostics(), src);
        a.expr().asKeyword();
        a.expr().asList();
        a.expr().asMap();
        checkRanges(((JsonExpression) a.expr()).literalSyntax().diagnostics(), src);
    }

    static void checkRanges(Diagnostics ds, byte[] src) {
        for (Diagnostic d : ds) {
            if (d.subject() != null) {
                checkRange(d.subject(), src);
            }
            if (d.context() != null) {
                checkRange(d.context(), src);
            }
        }
    }

    static void checkRange(SourceRange r, byte[] src) {
        assertThat(r.start().byteOffset()).isBetween(0, src.length);
        assertThat(r.end().byteOffset()).isBetween(r.start().byteOffset(), src.length);
        assertThat(r.start().line()).isPositive();
        assertThat(r.start().column()).isPositive();
    }
}
