package dev.strata.hcl;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ChildEnvironmentTest {
    @Test
    void dropsOnlyTheCharacterTypeTheLauncherAdded() {
        Map<String, String> env = new HashMap<>(Map.of("LC_CTYPE", "C.UTF-8", "PATH", "/bin"));
        String before = System.getProperty("strata.launcher.lcCtype");
        try {
            System.clearProperty("strata.launcher.lcCtype");
            ChildEnvironment.restore(env);
            assertThat(env).as("the user's own LC_CTYPE").containsEntry("LC_CTYPE", "C.UTF-8");
            System.setProperty("strata.launcher.lcCtype", "added");
            ChildEnvironment.restore(env);
            assertThat(env).isEqualTo(Map.of("PATH", "/bin"));
        } finally {
            if (before == null) {
                System.clearProperty("strata.launcher.lcCtype");
            } else {
                System.setProperty("strata.launcher.lcCtype", before);
            }
        }
    }
}
