package dev.strata.tfplugin.install;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UserCacheTest {
    private static final Path HOME = Path.of("/home/u");

    @Test
    void strataCacheDirWinsThenXdgThenHome() {
        assertThat(UserCache.dir(Map.of("STRATA_CACHE_DIR", "/c", "XDG_CACHE_HOME", "/x"), HOME))
                .contains(Path.of("/c"));
        assertThat(UserCache.dir(Map.of("XDG_CACHE_HOME", "/x"), HOME)).contains(Path.of("/x/strata"));
        assertThat(UserCache.dir(Map.of(), HOME)).contains(Path.of("/home/u/.cache/strata"));
    }

    @Test
    void aRelativeXdgCacheHomeIsIgnoredAsTheSpecificationSays() {
        assertThat(UserCache.dir(Map.of("XDG_CACHE_HOME", "rel"), HOME)).contains(Path.of("/home/u/.cache/strata"));
    }

    @Test
    void withoutAHomeThereIsNone() {
        assertThat(UserCache.dir(Map.of(), null)).isEmpty();
    }
}
