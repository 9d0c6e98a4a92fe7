package dev.strata.hcl;

import java.util.Map;

/**
 * The environment a program Strata starts (a provider plugin, a {@code local-exec} command, {@code git}) gets:
 * Strata's own, as Terraform passes its own, without what the launcher added for the JVM alone. Started without
 * a locale, the JVM can name no file whose name is not ASCII, and takes its file-name encoding from
 * {@code LC_CTYPE} only; so the {@code strata} launcher sets {@code LC_CTYPE=C.UTF-8} there and says so with
 * {@code -Dstrata.launcher.lcCtype=added}, and children get the environment as the user left it.
 */
public final class ChildEnvironment {
    private ChildEnvironment() {}

    /** Takes out of {@code env} (a ProcessBuilder's, a copy of Strata's) what only the JVM needed. */
    public static void restore(Map<String, String> env) {
        if ("added".equals(System.getProperty("strata.launcher.lcCtype"))) {
            env.remove("LC_CTYPE");
        }
    }
}
