package dev.strata.tfplugin.install;

import java.util.Locale;

/** A provider package's target, the {@code os_arch} pair in the spelling Terraform and its providers use, e.g. {@code linux_amd64}. */
public record Platform(String os, String arch) {

    public static Platform current() {
        return of(System.getProperty("os.name", ""), System.getProperty("os.arch", ""));
    }

    /** Maps Java's names to Go's, because provider packages and lock files are keyed by Go's. */
    static Platform of(String javaOsName, String javaArch) {
        String n = javaOsName.toLowerCase(Locale.ROOT);
        String os;
        if (n.startsWith("linux")) {
            os = "linux";
        } else if (n.startsWith("mac") || n.startsWith("darwin")) {
            os = "darwin";
        } else if (n.startsWith("windows")) {
            os = "windows";
        } else if (n.startsWith("freebsd")) {
            os = "freebsd";
        } else if (n.startsWith("openbsd")) {
            os = "openbsd";
        } else if (n.startsWith("sunos") || n.startsWith("solaris")) {
            os = "solaris";
        } else {
            os = n.replaceAll("[^a-z0-9]", "");
        }
        String arch = switch (javaArch.toLowerCase(Locale.ROOT)) {
            case "amd64", "x86_64" -> "amd64";
            case "aarch64", "arm64" -> "arm64";
            case "x86", "i386", "i486", "i586", "i686" -> "386";
            case "arm", "arm32" -> "arm";
            case "ppc64le" -> "ppc64le";
            case "s390x" -> "s390x";
            case "riscv64" -> "riscv64";
            default -> javaArch.toLowerCase(Locale.ROOT);
        };
        return new Platform(os, arch);
    }

    @Override
    public String toString() {
        return os + "_" + arch;
    }
}
