package dev.strata.tfplugin.install;

import java.nio.file.Path;
import java.util.Map;

/**
 * Where the CLI configuration file is: {@code TF_CLI_CONFIG_FILE}, else {@code TERRAFORM_CONFIG}, else
 * {@code ~/.terraformrc}. Apart from {@link CliConfig} so that asking costs no parser classes (every command
 * asks, {@code version} included).
 */
public final class CliConfigFile {
    private CliConfigFile() {}

    public static Path location(Map<String, String> env, Path home) {
        String f = nonEmpty(env.get("TF_CLI_CONFIG_FILE"));
        if (f == null) {
            f = nonEmpty(env.get("TERRAFORM_CONFIG"));
        }
        return f != null ? Path.of(f) : home.resolve(".terraformrc");
    }

    private static String nonEmpty(String s) {
        return s == null || s.isEmpty() ? null : s;
    }
}
