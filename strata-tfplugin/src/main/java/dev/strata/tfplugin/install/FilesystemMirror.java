package dev.strata.tfplugin.install;

import dev.strata.addr.Provider;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * A directory laid out as Terraform's filesystem mirror: a package is either unpacked at
 * {@code HOSTNAME/NAMESPACE/TYPE/VERSION/OS_ARCH/} or packed at
 * {@code HOSTNAME/NAMESPACE/TYPE/terraform-provider-TYPE_VERSION_OS_ARCH.zip}.
 */
public record FilesystemMirror(Path root) {

    /** One package found in the mirror. */
    public record Package(Provider address, String version, Platform platform, Path location, boolean packed) {
        /** The plugin executable of an unpacked package: the file named {@code terraform-provider-TYPE...}. */
        public Optional<Path> executable() throws IOException {
            if (packed) {
                return Optional.empty();
            }
            try (DirectoryStream<Path> s =
                    Files.newDirectoryStream(location, "terraform-provider-" + address.type() + "*")) {
                for (Path p : s) {
                    if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                        return Optional.of(p);
                    }
                }
            }
            return Optional.empty();
        }

        public String h1() throws IOException {
            return packed ? PackageHashes.h1OfZip(location) : PackageHashes.h1OfDirectory(location);
        }
    }

    private Path providerDir(Provider a) {
        return root.resolve(a.hostname()).resolve(a.namespace()).resolve(a.type());
    }

    /** Every version of the provider the mirror holds for the platform, in either layout. */
    public List<Package> packages(Provider address, Platform platform) throws IOException {
        Path dir = providerDir(address);
        List<Package> out = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return out;
        }
        String zipPrefix = "terraform-provider-" + address.type() + "_";
        String zipSuffix = "_" + platform + ".zip";
        TreeSet<String> seen = new TreeSet<>();
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir)) {
            for (Path p : s) {
                String name = p.getFileName().toString();
                Path unpacked = p.resolve(platform.toString());
                if (Files.isDirectory(p) && Files.isDirectory(unpacked) && seen.add(name)) {
                    out.add(new Package(address, name, platform, unpacked, false));
                } else if (Files.isRegularFile(p) && name.startsWith(zipPrefix) && name.endsWith(zipSuffix)) {
                    String version = name.substring(zipPrefix.length(), name.length() - zipSuffix.length());
                    if (seen.add(version)) {
                        out.add(new Package(address, version, platform, p, true));
                    }
                }
            }
        }
        out.sort((a, b) -> compareVersions(a.version(), b.version()));
        return out;
    }

    /** Semantic-version order: numeric components compared as numbers, a pre-release before its release. */
    static int compareVersions(String a, String b) {
        String[] pa = a.split("-", 2);
        String[] pb = b.split("-", 2);
        String[] na = pa[0].split("\\.");
        String[] nb = pb[0].split("\\.");
        for (int i = 0; i < Math.max(na.length, nb.length); i++) {
            long x = i < na.length ? parseOrZero(na[i]) : 0;
            long y = i < nb.length ? parseOrZero(nb[i]) : 0;
            if (x != y) {
                return Long.compare(x, y);
            }
        }
        if (pa.length != pb.length) {
            return pa.length == 1 ? 1 : -1;
        }
        return pa.length == 1 ? 0 : pa[1].compareTo(pb[1]);
    }

    private static long parseOrZero(String s) {
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    public Optional<Package> find(Provider address, String version, Platform platform) throws IOException {
        return packages(address, platform).stream()
                .filter(p -> p.version().equals(version))
                .findFirst();
    }
}
