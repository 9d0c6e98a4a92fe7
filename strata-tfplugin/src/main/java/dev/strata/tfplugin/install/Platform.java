package dev.strata.tfplugin.install;

import java.util.Locale;

/** A provider package's target, in Go's names: {@code linux_amd64}, {@code darwin_arm64}. */
public record Platform(String os, String arch) {
    public static Platform current() {
        String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
        String goOs = os.startsWith("mac") || os.startsWith("darwin") ? "darwin"
            : os.startsWith("windows") ? "windows" : os.startsWith("freebsd") ? "freebsd" : "linux";
        String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
        String goArch = switch (arch) {
            case "amd64", "x86_64" -> "amd64";
            case "aarch64", "arm64" -> "arm64";
            case "x86", "i386", "i686" -> "386";
            default -> arch;
        };
        return new Platform(goOs, goArch);
    }

    @Override
    public String toString() {
        return os + "_" + arch;
    }
}
