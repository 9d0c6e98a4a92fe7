package dev.strata.tfplugin.install;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.Enumeration;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * The hashes a lock file records for a provider package. {@code h1:} is Go's module "dirhash"
 * (hash 1) of the package's files, the same whether the package is unpacked in a directory or
 * still in its zip; {@code zh:} is the SHA-256 of the zip archive itself, as registries publish it.
 */
public final class PackageHashes {
    private PackageHashes() {}

    /** {@code h1:} of an unpacked package directory. */
    public static String h1OfDirectory(Path dir) throws IOException {
        Path root = dir.toRealPath();
        List<String> names = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                if (Files.isRegularFile(f)) {
                    names.add(root.relativize(f).toString().replace(java.io.File.separatorChar, '/'));
                }
            }
        } catch (java.io.UncheckedIOException e) {
            // A directory the walk could not read (or one that went away meanwhile): a file error like any other.
            throw e.getCause();
        }
        Collections.sort(names);
        MessageDigest summary = sha256();
        for (String n : names) {
            try (InputStream in = Files.newInputStream(root.resolve(n))) {
                summary.update(summaryLine(n, in));
            }
        }
        return "h1:" + Base64.getEncoder().encodeToString(summary.digest());
    }

    /** {@code h1:} of a packed package: the dirhash over the archive's entries. */
    public static String h1OfZip(Path zip) throws IOException {
        try (ZipFile z = new ZipFile(zip.toFile())) {
            List<String> names = new ArrayList<>();
            for (Enumeration<? extends ZipEntry> e = z.entries(); e.hasMoreElements(); ) {
                ZipEntry entry = e.nextElement();
                if (!entry.isDirectory()) {
                    names.add(entry.getName());
                }
            }
            Collections.sort(names);
            MessageDigest summary = sha256();
            for (String n : names) {
                try (InputStream in = z.getInputStream(z.getEntry(n))) {
                    summary.update(summaryLine(n, in));
                }
            }
            return "h1:" + Base64.getEncoder().encodeToString(summary.digest());
        }
    }

    /** {@code zh:} of a packed package: the archive's SHA-256 in hex. */
    public static String zh(Path zip) throws IOException {
        try (InputStream in = Files.newInputStream(zip)) {
            return "zh:" + HexFormat.of().formatHex(digest(in));
        }
    }

    private static byte[] summaryLine(String name, InputStream content) throws IOException {
        if (name.contains("\n")) {
            throw new IOException("file name with a newline cannot be hashed: " + name.replace("\n", "\\n"));
        }
        return (HexFormat.of().formatHex(digest(content)) + "  " + name + "\n").getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] digest(InputStream in) throws IOException {
        MessageDigest d = sha256();
        byte[] buf = new byte[1 << 16];
        for (int n = in.read(buf); n > 0; n = in.read(buf)) {
            d.update(buf, 0, n);
        }
        return d.digest();
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
