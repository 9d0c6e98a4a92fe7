package dev.strata.state;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/** The operating system's reason for a failed file operation, worded as the OS words it, never a Java class name. */
final class IoReasons {
    private IoReasons() {}

    static String of(IOException e) {
        return switch (e) {
            case AccessDeniedException a -> "permission denied";
            case NoSuchFileException n -> "no such file or directory";
            case FileAlreadyExistsException f -> "file exists";
            case NotDirectoryException n -> "not a directory";
            case DirectoryNotEmptyException d -> "directory not empty";
            case FileSystemException f when f.getReason() != null -> f.getReason().toLowerCase(java.util.Locale.ROOT);
            default -> e.getMessage() == null ? "input/output error" : e.getMessage();
        };
    }
}
