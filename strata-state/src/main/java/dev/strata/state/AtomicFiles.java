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
    /** Bytes handed to a channel per write call; see {@link #writeFully}. */
    private static final int WRITE_SLICE = 1 << 20;

    /**
     * Writes all of {@code content} at the channel's position, a slice at a time: a channel copies a
     * heap buffer into a temporary direct buffer of the buffer's whole remaining size (and keeps it cached
     * per thread), so a 100 MB state written in one call would take 100 MB more native memory.
     */
    static void writeFully(FileChannel ch, byte[] content) throws IOException {
        writeFully(ch, content, 0);
    }

    /** {@link #writeFully(FileChannel, byte[])} of {@code content} from {@code from} on. */
    static void writeFully(FileChannel ch, byte[] content, int from) throws IOException {
        for (int off = from; off < content.length; ) {
            ByteBuffer buf = ByteBuffer.wrap(content, off, Math.min(WRITE_SLICE, content.length - off));
            while (buf.hasRemaining()) {
                off += ch.write(buf);
            }
        }
    }

    static void write(Path target, byte[] content) throws IOException {
        Path dir = target.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path tmp = dir.resolve("." + target.getFileName() + TEMP_MARKER
                + Long.toHexString(ThreadLocalRandom.current().nextLong()));
        try {
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                writeFully(ch, content);
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
