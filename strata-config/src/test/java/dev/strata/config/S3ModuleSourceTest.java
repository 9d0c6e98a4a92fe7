package dev.strata.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.addr.Module;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Result;
import dev.strata.testing.ModuleRegistryServer;
import dev.strata.testing.S3Server;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code s3::} module sources: the address forms Terraform documents, and installation from the S3
 * test server on loopback (an S3-compatible endpoint, addressed path-style with {@code ?region=}).
 */
class S3ModuleSourceTest {
    @TempDir
    Path dir;

    @Test
    void theDocumentedAddressFormsNameBucketKeyAndRegion() {
        assertThat(ModuleSource.parse("s3::https://s3.amazonaws.com/bucket/vpc.zip"))
                .isEqualTo(new ModuleSource.S3(null, "us-east-1", "bucket", "vpc.zip", null, ""));
        assertThat(ModuleSource.parse("s3::https://s3-eu-west-1.amazonaws.com/examplecorp/vpc.zip//net?version=3"))
                .isEqualTo(new ModuleSource.S3(null, "eu-west-1", "examplecorp", "vpc.zip", "3", "net"));
        assertThat(ModuleSource.parse("s3::https://s3.eu-central-1.amazonaws.com/b/dir/m.tar.gz"))
                .isEqualTo(new ModuleSource.S3(null, "eu-central-1", "b", "dir/m.tar.gz", null, ""));
        assertThat(ModuleSource.parse("examplecorp.s3.amazonaws.com/vpc.zip"))
                .isEqualTo(new ModuleSource.S3(null, "us-east-1", "examplecorp", "vpc.zip", null, ""));
        assertThat(ModuleSource.parse("examplecorp.s3-eu-west-1.amazonaws.com/modules/vpc"))
                .isEqualTo(new ModuleSource.S3(null, "eu-west-1", "examplecorp", "modules/vpc", null, ""));
        assertThat(ModuleSource.parse("s3::http://127.0.0.1:9000/b/m.zip?region=eu-west-2"))
                .isEqualTo(new ModuleSource.S3("http://127.0.0.1:9000", "eu-west-2", "b", "m.zip", null, ""));
        assertThat(ModuleSource.parse("s3::https://s3.amazonaws.com/bucket-only"))
                .isInstanceOf(ModuleSource.Remote.class);
    }

    private static RemoteAccess access(Map<String, String> env) {
        return new RemoteAccess(new TreeMap<>(), new TreeMap<>(), env, Duration.ofSeconds(10));
    }

    private static final Map<String, String> CREDENTIALS =
            Map.of("AWS_ACCESS_KEY_ID", S3Server.ACCESS_KEY, "AWS_SECRET_ACCESS_KEY", S3Server.SECRET_KEY);

    @Test
    void anArchiveAndAKeyPrefixAreInstalledWithRelativeCallsInsideThem() throws Exception {
        String endpoint = S3Server.shared().endpoint();
        String bucket = S3Server.shared().createBucket("modules");
        S3Server.shared()
                .putObject(
                        bucket,
                        "vpc.zip",
                        ModuleRegistryServer.zip(Map.of(
                                "main.tf",
                                "module \"sub\" {\n  source = \"./modules/sub\"\n}\noutput \"o\" {\n"
                                        + "  value = module.sub.o\n}\n",
                                "modules/sub/main.tf",
                                "output \"o\" {\n  value = \"from-zip\"\n}\n")));
        S3Server.shared()
                .putObject(
                        bucket,
                        "plain/net/main.tf",
                        "output \"o\" {\n  value = \"from-prefix\"\n}\n".getBytes(StandardCharsets.UTF_8));
        String base = "s3::" + endpoint + "/" + bucket;
        Files.writeString(dir.resolve("main.tf"), """
                module "vpc" {
                  source = "%s/vpc.zip?region=us-east-1"
                }
                module "net" {
                  source = "%s/plain//net?region=us-east-1"
                }
                """.formatted(base, base));

        Result<ModuleInstaller.Installation> r =
                ModuleInstaller.install(dir, ConfigLoader.Options.DEFAULT, false, access(CREDENTIALS));
        assertThat(r.diagnostics().asList()).isEmpty();
        assertThat(r.value().steps())
                .extracting(ModuleInstaller.Step::key, ModuleInstaller.Step::action)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("net", ModuleInstaller.Action.INSTALLED),
                        org.assertj.core.groups.Tuple.tuple("vpc", ModuleInstaller.Action.INSTALLED),
                        org.assertj.core.groups.Tuple.tuple("vpc.sub", ModuleInstaller.Action.LOCAL));
        Result<ConfigTree> t = ConfigLoader.loadTree(dir, ConfigLoader.Options.DEFAULT);
        assertThat(t.diagnostics().asList()).isEmpty();
        assertThat(t.value().node(Module.ROOT.child("vpc").child("sub"))).isPresent();
        assertThat(dir.resolve(".strata/modules/net/net/main.tf")).content().contains("from-prefix");

        Result<ModuleInstaller.Installation> again =
                ModuleInstaller.install(dir, ConfigLoader.Options.DEFAULT, false, access(Map.of()));
        assertThat(again.diagnostics().asList()).isEmpty();
        assertThat(again.value().steps())
                .extracting(ModuleInstaller.Step::action)
                // The relative call inside the package is recorded in the manifest: reused too, as init
                // lists only what it installs anew (ModuleInstallerTest).
                .containsExactly(
                        ModuleInstaller.Action.REUSED, ModuleInstaller.Action.REUSED, ModuleInstaller.Action.REUSED);
    }

    @Test
    void aMissingObjectAndAnUnreachableServiceSayWhatFailed() throws Exception {
        String endpoint = S3Server.shared().endpoint();
        String bucket = S3Server.shared().createBucket("missing");
        Files.writeString(
                dir.resolve("main.tf"),
                "module \"vpc\" {\n  source = \"s3::" + endpoint + "/" + bucket + "/vpc.zip\"\n}\n");

        Result<ModuleInstaller.Installation> r =
                ModuleInstaller.install(dir, ConfigLoader.Options.DEFAULT, false, access(CREDENTIALS));
        assertThat(r.diagnostics().asList())
                .extracting(Diagnostic::summary)
                .containsExactly("Failed to download module");
        assertThat(r.diagnostics().asList().getFirst().detail())
                .contains("Could not download module \"vpc\" (main.tf:1)")
                .contains("there is no object \"vpc.zip\" in the bucket \"" + bucket + "\"");

        int closed;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            closed = s.getLocalPort();
        }
        Files.writeString(
                dir.resolve("main.tf"),
                "module \"vpc\" {\n  source = \"s3::http://127.0.0.1:" + closed + "/b/vpc.zip\"\n}\n");
        Result<ModuleInstaller.Installation> down =
                ModuleInstaller.install(dir, ConfigLoader.Options.DEFAULT, false, access(CREDENTIALS));
        assertThat(down.diagnostics().asList())
                .extracting(Diagnostic::summary)
                .containsExactly("Failed to download module");
        assertThat(down.diagnostics().asList().getFirst().detail())
                .contains("could not reach S3 at http://127.0.0.1:" + closed)
                .doesNotContain(S3Server.SECRET_KEY);
    }
}
