package dev.strata.providers.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.addr.Provider;
import dev.strata.addr.VersionConstraint;
import dev.strata.lang.value.Value;
import dev.strata.provider.ProviderDiagnostic;
import dev.strata.provider.ProviderDiagnostics;
import dev.strata.provider.ProviderRegistry;
import dev.strata.provider.testkit.Action;
import dev.strata.provider.testkit.ProviderTester;
import dev.strata.provider.testkit.ResourceTester;
import dev.strata.provider.testkit.Step;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalProviderTest {

    @TempDir
    Path dir;

    private static ProviderTester tester() {
        return ProviderTester.configure(ProviderRegistry.load()
                .resolve(
                        Provider.impliedFor("local_file"),
                        VersionConstraint.parse("~> 2.4").value())
                .value()
                .create());
    }

    /** The diagnostics of a {@code local_file} named "x" with more string arguments (alternating names and values). */
    private static ProviderDiagnostics validateFile(String... more) {
        Map<String, Value> config = new java.util.HashMap<>(Map.of("filename", Value.string("x")));
        for (int i = 0; i < more.length; i += 2) {
            config.put(more[i], Value.string(more[i + 1]));
        }
        return tester().validateResource("local_file", config);
    }

    private static String hex(String alg, byte[] b) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance(alg).digest(b));
    }

    @Test
    void localFileLifecycleWithChecksumsAndDrift() throws Exception {
        Path f = dir.resolve("sub/dir/hello.txt");
        ResourceTester r = tester().resource("local_file");
        Step s = r.apply(Map.of("filename", Value.string(f.toString()), "content", Value.string("hello\n")));
        byte[] bytes = "hello\n".getBytes(StandardCharsets.UTF_8);
        assertThat(Files.readAllBytes(f)).isEqualTo(bytes);
        Value st = s.state();
        assertThat(st.attributes().get("id").asString()).isEqualTo(hex("SHA-1", bytes));
        assertThat(st.attributes().get("content_md5").asString()).isEqualTo(hex("MD5", bytes));
        assertThat(st.attributes().get("content_sha256").asString()).isEqualTo(hex("SHA-256", bytes));
        assertThat(st.attributes().get("content_base64sha512").asString())
                .isEqualTo(Base64.getEncoder()
                        .encodeToString(MessageDigest.getInstance("SHA-512").digest(bytes)));
        assertThat(st.attributes().get("file_permission")).isEqualTo(Value.string("0777"));
        // Permissions are applied before the umask, so only bits the umask cannot remove are certain.
        assertThat(Files.getPosixFilePermissions(f))
                .contains(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);

        Files.writeString(f, "changed outside");
        assertThat(r.refresh().isNull()).isTrue();
        assertThat(r.apply(Map.of("filename", Value.string(f.toString()), "content", Value.string("hello\n")))
                        .action())
                .isEqualTo(Action.CREATE);
        assertThat(Files.readString(f)).isEqualTo("hello\n");
        Files.delete(f);
        assertThat(r.refresh().isNull()).isTrue();
        r.apply(Map.of("filename", Value.string(f.toString()), "content", Value.string("hello\n")));

        Step changed = r.apply(Map.of(
                "filename",
                Value.string(f.toString()),
                "content",
                Value.string("bye\n"),
                "file_permission",
                Value.string("0600")));
        assertThat(changed.action()).isEqualTo(Action.REPLACE);
        assertThat(Files.readString(f)).isEqualTo("bye\n");
        assertThat(Files.getPosixFilePermissions(f))
                .containsExactlyInAnyOrder(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);
        assertThat(r.importErrors(f.toString()).asList())
                .extracting(ProviderDiagnostic::summary)
                .containsExactly("Resource Import Not Implemented");
        r.destroy();
        assertThat(f).doesNotExist();
    }

    @Test
    void relativeFileNamesResolveAgainstTheWorkingDirectoryTheEngineGives() throws Exception {
        Path work = dir.resolve("chdir-target");
        Files.createDirectories(work);
        Files.writeString(work.resolve("template.txt"), "from source");
        ProviderTester t = ProviderTester.configure(new LocalProvider(), Map.of(), work, Map.of());
        ResourceTester r = t.resource("local_file");
        Step s = r.apply(Map.of("filename", Value.string("out/copy.txt"), "source", Value.string("template.txt")));
        assertThat(Files.readString(work.resolve("out/copy.txt"))).isEqualTo("from source");
        assertThat(Path.of("out/copy.txt").toAbsolutePath())
                .as("nothing lands in the JVM's directory")
                .doesNotExist();
        assertThat(s.state().attributes().get("filename"))
                .as("the state keeps the name as written")
                .isEqualTo(Value.string("out/copy.txt"));
        Value data = t.readData("local_file", Map.of("filename", Value.string("out/copy.txt")));
        assertThat(data.attributes().get("content")).isEqualTo(Value.string("from source"));
        Files.delete(work.resolve("out/copy.txt"));
        assertThat(r.refresh().isNull())
                .as("drift is looked for where the file was written")
                .isTrue();
        r.apply(Map.of("filename", Value.string("out/copy.txt"), "source", Value.string("template.txt")));
        r.destroy();
        assertThat(work.resolve("out/copy.txt")).doesNotExist();
    }

    @Test
    void contentFromBase64AndSource() throws Exception {
        Path src = dir.resolve("src.bin");
        Files.write(src, new byte[] {0, 1, 2, (byte) 255});
        Path out = dir.resolve("copy.bin");
        ResourceTester r = tester().resource("local_file");
        r.apply(Map.of("filename", Value.string(out.toString()), "source", Value.string(src.toString())));
        assertThat(Files.readAllBytes(out)).isEqualTo(new byte[] {0, 1, 2, (byte) 255});
        Path b64 = dir.resolve("b64.bin");
        tester().resource("local_file")
                .apply(Map.of("filename", Value.string(b64.toString()), "content_base64", Value.string("AAEC/w==")));
        assertThat(Files.readAllBytes(b64)).isEqualTo(new byte[] {0, 1, 2, (byte) 255});
    }

    @Test
    void exactlyOneContentSourceAndValidModes() {
        assertThat(validateFile().asList())
                .extracting(ProviderDiagnostic::summary)
                .containsExactly("Invalid Attribute Combination");
        assertThat(validateFile("content", "a", "source", "b").hasErrors()).isTrue();
        assertThat(validateFile("content", "a", "file_permission", "0999").asList())
                .extracting(ProviderDiagnostic::detail)
                .containsExactly("bad mode for file - must be octal number: 0999");
        assertThat(validateFile("content", "a", "sensitive_content", "b").hasErrors())
                .isTrue();
    }

    @Test
    void sensitiveFileDefaultsToOwnerOnly() throws Exception {
        Path f = dir.resolve("secret.txt");
        ResourceTester r = tester().resource("local_sensitive_file");
        Value st = r.apply(Map.of("filename", Value.string(f.toString()), "content", Value.string("s3cr3t")))
                .state();
        assertThat(st.attributes().get("file_permission")).isEqualTo(Value.string("0700"));
        assertThat(Files.getPosixFilePermissions(f))
                .doesNotContain(PosixFilePermission.GROUP_READ, PosixFilePermission.OTHERS_READ);
        var schema = tester().provider()
                .schema()
                .resourceType("local_sensitive_file")
                .block();
        assertThat(schema.attribute("content").sensitive()).isTrue();
        r.destroy();
        assertThat(f).doesNotExist();
    }

    @Test
    void dataSourcesReadFiles() throws Exception {
        Path f = dir.resolve("data.txt");
        Files.writeString(f, "data ✓");
        Value d = tester().readData("local_file", Map.of("filename", Value.string(f.toString())));
        assertThat(d.attributes().get("content")).isEqualTo(Value.string("data ✓"));
        assertThat(d.attributes().get("content_base64").asString())
                .isEqualTo(Base64.getEncoder().encodeToString("data ✓".getBytes(StandardCharsets.UTF_8)));
        assertThat(d.attributes().get("id").asString())
                .isEqualTo(hex("SHA-1", "data ✓".getBytes(StandardCharsets.UTF_8)));
        Value s = tester().readData("local_sensitive_file", Map.of("filename", Value.string(f.toString())));
        assertThat(s.attributes().get("content")).isEqualTo(Value.string("data ✓"));
        assertThat(tester().provider()
                        .schema()
                        .dataSource("local_sensitive_file")
                        .block()
                        .attribute("content")
                        .sensitive())
                .isTrue();
        var missing = tester().tryReadData(
                        "local_file",
                        Map.of("filename", Value.string(dir.resolve("nope").toString())));
        assertThat(missing.diagnostics().asList())
                .extracting(ProviderDiagnostic::summary)
                .containsExactly("Read local file data source error");
    }

    @Test
    void unchangedConfigurationIsANoOp() throws Exception {
        Path f = dir.resolve("same.txt");
        ResourceTester r = tester().resource("local_file");
        Map<String, Value> cfg = Map.of("filename", Value.string(f.toString()), "content", Value.string("x"));
        r.apply(cfg);
        assertThat(r.apply(cfg).action()).isEqualTo(Action.NO_OP);
        assertThat(Set.of(r.state().attributes().get("directory_permission"))).containsExactly(Value.string("0777"));
    }
}
