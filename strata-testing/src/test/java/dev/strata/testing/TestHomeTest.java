package dev.strata.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TestHomeTest {

    @Test
    void isATemporaryDirectoryOfItsOwn() {
        assertThat(TestHome.dir()).isDirectory().isNotEqualTo(Path.of(System.getProperty("user.home")));
        assertThat(TestHome.cacheDir()).isEqualTo(TestHome.dir().resolve(".cache/strata"));
    }

    @Test
    void anInjectedEnvironmentGetsTheHomeUnlessTheTestChoseOne() {
        assertThat(TestHome.withDefaults(Map.of("A", "1")))
                .containsEntry("HOME", TestHome.dir().toString())
                .containsEntry("A", "1");
        assertThat(TestHome.withDefaults(Map.of("HOME", "/h"))).isEqualTo(Map.of("HOME", "/h"));
        assertThat(TestHome.withDefaults(Map.of("STRATA_CACHE_DIR", "/c"))).doesNotContainKey("HOME");
    }

    @Test
    void aProcessInheritsNoPathToTheUsersOwnCachesOrConfiguration() {
        ProcessBuilder pb = new ProcessBuilder(List.of("true"));
        pb.environment().put("XDG_CACHE_HOME", "/elsewhere");
        pb.environment().put("TF_CLI_CONFIG_FILE", "/etc/tfrc");
        pb.environment().put("STRATA_CACHE_DIR", "/c");
        TestHome.apply(pb);
        assertThat(pb.environment())
                .containsEntry("HOME", TestHome.dir().toString())
                .doesNotContainKeys("XDG_CACHE_HOME", "TF_CLI_CONFIG_FILE", "STRATA_CACHE_DIR");
    }
}
