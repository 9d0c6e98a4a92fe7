package dev.strata.state;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Crash-safe replacement of a file: readers (and a process restarted after {@code kill -9} or power
 * loss) see either the complete old content or the complete new content, never a mix or a prefix.
 */
final class AtomicFiles {
    static final String TEMP_MARKER = ".strata-tmp-";

    private AtomicFiles() {}

    /**
     * Writes to a temporary file in the same directory (rename is only atomic within one file system),
     * forces it to disk, renames it over {@code target}, then forces the directory so the rename itself
     * survives a power loss.
     */
    static void write(Path target, byte[] content) throws IOException {
        Path dir = target.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path tmp = dir.resolve("." + target.getFileName() + TEMP_MARKER
                + Long.toHexString(ThreadLocalRandom.current().nextLong()));
        try {
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                ByteBuffer buf = ByteBuffer.wrap(content);
                while (buf.hasRemaining()) {
                    ch.write(buf);
                }
                ch.force(true);
            }
            try {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                throw new IOException("the file system of " + dir + " cannot rename files atomically", e);
            }
            forceDirectory(dir);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    static void forceDirectory(Path dir) {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException e) {
            // Some platforms (Windows) cannot open directories; the rename is still atomic there.
        }
    }

    /** Removes temporary files an interrupted writer left behind; only call while holding the lock. */
    static void removeLeftovers(Path target) {
        Path dir = target.toAbsolutePath().getParent();
        if (!Files.isDirectory(dir)) {
            return;
        }
        String prefix = "." + target.getFileName() + TEMP_MARKER;
        try (DirectoryStream<Path> ds =
                Files.newDirectoryStream(dir, p -> p.getFileName().toString().startsWith(prefix))) {
            for (Path p : ds) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            // Leftovers are harmless; they only take space.
        }
    }
}
