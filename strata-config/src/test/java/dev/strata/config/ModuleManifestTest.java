package dev.strata.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The manifest of installed modules: written as Terraform writes {@code modules.json}, read back either way. */
class ModuleManifestTest {
    private static final ModuleManifest MANIFEST = new ModuleManifest(List.of(
            new ModuleManifest.Entry("", "", null, "."),
            new ModuleManifest.Entry("vpc", "registry.terraform.io/acme/vpc/aws", "5.1.0", ".strata/modules/vpc"),
            new ModuleManifest.Entry(
                    "vpc.odd",
                    "git::https://example.com/a\"b\\c?ref=<v1>&x=\u00e9\u2028\u0001\t/d",
                    null,
                    ".strata/modules/vpc.odd/caf\u00e9 \ud83d\ude00")));

    @Test
    void writesCompactJsonWithOneObjectPerModuleAndATrailingNewline() {
        assertThat(new ModuleManifest(List.of(
                                new ModuleManifest.Entry("", "", null, "."),
                                new ModuleManifest.Entry("net", "acme/net/aws", "1.0.0", ".strata/modules/net")))
                        .toJson())
                .isEqualTo("{\"Modules\":[{\"Key\":\"\",\"Source\":\"\",\"Dir\":\".\"},"
                        + "{\"Key\":\"net\",\"Source\":\"acme/net/aws\",\"Version\":\"1.0.0\","
                        + "\"Dir\":\".strata/modules/net\"}]}\n");
        assertThat(ModuleManifest.EMPTY.toJson()).isEqualTo("{\"Modules\":[]}\n");
    }

    /**
     * The streaming writer keeps the bytes the object mapper wrote before it, escapes included, but for the
     * characters Go's encoder also escapes ({@code < > &}, U+2028, U+2029), as terraform 1.11 writes them.
     */
    @Test
    void writesTheSameBytesAsTheObjectMapperDid() throws IOException {
        String go = mapperJson(MANIFEST)
                .replace("<", "\\u003c")
                .replace(">", "\\u003e")
                .replace("&", "\\u0026")
                .replace("\u2028", "\\u2028");
        assertThat(MANIFEST.toJson()).isEqualTo(go).contains("?ref=\\u003cv1\\u003e\\u0026x=\u00e9\\u2028\\u0001\\t/d");
        assertThat(ModuleManifest.EMPTY.toJson()).isEqualTo(mapperJson(ModuleManifest.EMPTY));
        // As terraform 1.11 records a Git source with two arguments.
        assertThat(new ModuleManifest(List.of(new ModuleManifest.Entry(
                                "m", "git::file:///r.git//net?ref=main&depth=1", null, ".strata/modules/m/net")))
                        .toJson())
                .isEqualTo("{\"Modules\":[{\"Key\":\"m\",\"Source\":\"git::file:///r.git//net?ref=main\\u0026depth=1\","
                        + "\"Dir\":\".strata/modules/m/net\"}]}\n");
    }

    @Test
    void readsBackWhatItWrites() throws IOException {
        assertThat(ModuleManifest.parse(MANIFEST.toJson())).isEqualTo(MANIFEST);
    }

    @Test
    void readsTerraformsManifestIgnoringFieldsItDoesNotKnow() throws IOException {
        String terraform = """
                {"Modules":[{"Key":"","Source":"","Dir":"."},\
                {"Key":"vpc","Source":"registry.terraform.io/acme/vpc/aws","Version":"5.1.0",\
                "Dir":".terraform/modules/vpc","Extra":{"nested":[1,2]}}],"Other":[{"Key":"x"}]}
                """;
        assertThat(ModuleManifest.parse(terraform).entries())
                .containsExactly(
                        new ModuleManifest.Entry("", "", null, "."),
                        new ModuleManifest.Entry(
                                "vpc", "registry.terraform.io/acme/vpc/aws", "5.1.0", ".terraform/modules/vpc"));
    }

    @Test
    void missingNullAndOddFieldsTakeTheirDefaults() throws IOException {
        assertThat(ModuleManifest.parse("""
                        {"Modules":[
                          {"Key":null,"Source":null,"Version":null,"Dir":null},
                          {"Version":""},
                          {"Key":7,"Source":true,"Version":[1],"Dir":{"a":"b"}},
                          null,
                          "text"
                        ]}""").entries())
                .containsExactly(
                        new ModuleManifest.Entry("", "", null, "."),
                        new ModuleManifest.Entry("", "", null, "."),
                        new ModuleManifest.Entry("7", "true", null, ""),
                        new ModuleManifest.Entry("", "", null, "."),
                        new ModuleManifest.Entry("", "", null, "."));
    }

    @Test
    void aDocumentWithoutAModulesArrayIsEmpty() throws IOException {
        for (String json : List.of("", "[]", "\"x\"", "{}", "{\"Modules\":null}", "{\"Modules\":[{}],\"Modules\":1}")) {
            assertThat(ModuleManifest.parse(json).entries()).as(json).isEmpty();
        }
        assertThatThrownBy(() -> ModuleManifest.parse("{\"Modules\":[{\"Key\":"))
                .isInstanceOf(IOException.class);
    }

    /** What toJson wrote before it was streamed: the manifest as maps, through Jackson's object mapper. */
    private static String mapperJson(ModuleManifest manifest) throws IOException {
        List<Map<String, String>> modules = new ArrayList<>();
        for (ModuleManifest.Entry e : manifest.entries()) {
            Map<String, String> m = new LinkedHashMap<>();
            m.put("Key", e.key());
            m.put("Source", e.source());
            if (e.version() != null) {
                m.put("Version", e.version());
            }
            m.put("Dir", e.dir());
            modules.add(m);
        }
        return new ObjectMapper().writeValueAsString(Map.of("Modules", modules)) + "\n";
    }
}
