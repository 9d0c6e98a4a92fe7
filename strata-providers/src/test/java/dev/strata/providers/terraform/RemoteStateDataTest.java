package dev.strata.providers.terraform;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.lang.value.Value;
import dev.strata.provider.testkit.ProviderTester;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RemoteStateDataTest {

    @TempDir
    Path dir;

    /** remote.tfstate was written by Terraform 1.11 applying a configuration with three root outputs. */
    private Path stateFile(Path target) throws IOException {
        Files.createDirectories(target.getParent());
        try (InputStream in = getClass().getResourceAsStream("remote.tfstate")) {
            Files.copy(in, target);
        }
        return target;
    }

    private static Value config(Map<String, Value> m) {
        return Value.object(m);
    }

    @Test
    void readsRootOutputsOfALocalState() throws IOException {
        Path f = stateFile(dir.resolve("other/terraform.tfstate"));
        Value v = ProviderTester.configure(new TerraformProvider()).readData("terraform_remote_state", Map.of(
                "backend", Value.string("local"), "config", config(Map.of("path", Value.string(f.toString()))),
                "defaults", config(Map.of("plain", Value.string("fallback"), "extra", Value.number(1)))));
        Map<String, Value> out = v.attributes().get("outputs").attributes();
        assertThat(out.get("plain")).isEqualTo(Value.string("hello"));
        assertThat(out.get("extra")).isEqualTo(Value.number(1));
        assertThat(out.get("obj").attributes().get("ports")).isEqualTo(Value.tuple(List.of(Value.number(80), Value.number(443))));
        assertThat(out.get("secret").isSensitive()).isTrue();
        assertThat(out.get("secret").unmark()).isEqualTo(Value.string("s3cr3t"));
        assertThat(v.toString()).doesNotContain("s3cr3t");
    }

    @Test
    void workspacesAndMissingStates() throws IOException {
        stateFile(dir.resolve("envs/staging/terraform.tfstate"));
        Value v = ProviderTester.configure(new TerraformProvider()).readData("terraform_remote_state", Map.of(
                "backend", Value.string("local"), "workspace", Value.string("staging"),
                "config", config(Map.of("workspace_dir", Value.string(dir.resolve("envs").toString())))));
        assertThat(v.attributes().get("outputs").attributes()).containsKey("plain");
        Value none = ProviderTester.configure(new TerraformProvider()).readData("terraform_remote_state", Map.of(
                "backend", Value.string("local"), "config", config(Map.of("path", Value.string(dir.resolve("nope").toString()))),
                "defaults", config(Map.of("a", Value.string("b")))));
        assertThat(none.attributes().get("outputs")).isEqualTo(Value.objectOf("a", Value.string("b")));
        assertThat(ProviderTester.configure(new TerraformProvider()).validateDataSource("terraform_remote_state",
                Map.of("backend", Value.string("s3"))).hasErrors()).isTrue();
        Files.writeString(dir.resolve("bad.tfstate"), "{not json");
        assertThat(ProviderTester.configure(new TerraformProvider()).tryReadData("terraform_remote_state", Map.of(
                "backend", Value.string("local"), "config", config(Map.of("path", Value.string(dir.resolve("bad.tfstate").toString())))))
                .diagnostics().hasErrors()).isTrue();
    }
}
