package dev.strata.stacks.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.hcl.Result;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StackStorageTest {
    @TempDir
    Path dir;

    @Test
    void nothingRecordedMeansLocalFiles() {
        assertThat(StackStorage.readChoice(dir).value()).isEqualTo(StackStorage.Choice.LOCAL);
        StackStorage s = StackStorage.open(dir, Map.of(), "1.0.0").value();
        assertThat(s.deployment("dev").dir()).isEqualTo(dir.resolve(".strata/stacks/dev"));
        assertThat(s.deploymentsWithState().value()).isEmpty();
    }

    @Test
    void aChoiceIsRecordedForTheOwnerOnlyAndReadBack() throws Exception {
        TreeMap<String, String> config =
                new TreeMap<>(Map.of("schema_name", "stacks", "conn_str", "postgres://u:secret@h/db"));
        StackStorage.Choice pg = new StackStorage.Choice("pg", config);
        assertThat(StackStorage.writeChoice(dir, pg).hasErrors()).isFalse();
        Path f = dir.resolve(StackStorage.SETTINGS_FILE);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(f)))
                .isEqualTo("rw-------");
        assertThat(StackStorage.readChoice(dir).value()).isEqualTo(pg);
        assertThat(pg.describe()).isEqualTo("pg (schema stacks)").doesNotContain("secret");
    }

    @Test
    void aDamagedSettingsFileIsAnErrorNotASilentFallBackToLocal() throws Exception {
        Files.createDirectories(dir.resolve(".strata/stacks"));
        Files.writeString(dir.resolve(StackStorage.SETTINGS_FILE), "{not json");
        Result<StackStorage> r = StackStorage.open(dir, Map.of(), "1.0.0");
        assertThat(r.value()).isNull();
        assertThat(r.diagnostics().asList().getFirst().summary()).isEqualTo("Invalid Stack backend settings");
        assertThat(r.diagnostics().asList().getFirst().detail()).contains("it is not valid JSON");
    }

    @Test
    void aPgChoiceWithoutAConnectionStringSaysWhereToGiveIt() {
        Result<StackStorage> r =
                StackStorage.connect(dir, new StackStorage.Choice("pg", new TreeMap<>()), Map.of(), "1.0.0");
        assertThat(r.value()).isNull();
        assertThat(r.diagnostics().asList().getFirst().summary()).isEqualTo("Missing PostgreSQL connection string");
    }
}
