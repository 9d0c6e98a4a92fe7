package dev.strata.state;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.Locale;

/**
 * The operating system's reason for a failed file operation, worded as the OS (and Go's error
 * strings, hence Terraform) word it: "permission denied", "no such file or directory". Java keeps the
 * reason out of some exceptions' messages (an {@link AccessDeniedException}'s message is just the path).
 */
public final class FileErrors {
    private FileErrors() {}

    /** The reason alone, without the path: callers name the path themselves. */
    public static String reason(IOException e) {
        return switch (e) {
            case AccessDeniedException a -> "permission denied";
            case NoSuchFileException n -> "no such file or directory";
            case NotDirectoryException n -> "not a directory";
            case FileAlreadyExistsException f -> "file exists";
            case DirectoryNotEmptyException d -> "directory not empty";
            case FileSystemException f when f.getReason() != null -> lowerFirst(f.getReason());
            default -> e.getMessage() == null ? "input/output error" : e.getMessage();
        };
    }

    private static String lowerFirst(String s) {
        return s.isEmpty() ? s : s.substring(0, 1).toLowerCase(Locale.ROOT) + s.substring(1);
    }
}
