package dev.strata.hcl;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonLocation;
import java.io.EOFException;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Words for failed reads and writes that a user can act on: the operating system's reason as the
 * OS (and Go, hence Terraform) says it ("no such file or directory", "permission denied", "is a
 * directory"), and JSON syntax errors as a position and what was expected. Java's exception messages
 * are not fit for that: a {@link NoSuchFileException}'s message is only the path, and Jackson's name
 * its own classes and features.
 */
public final class IoProblems {
    private IoProblems() {}

    /** {@code PATH: reason}, the form Terraform uses for file errors. */
    public static String describe(Object path, IOException e) {
        return path + ": " + reason(e);
    }

    /** {@code PATH: reason} with the path the exception names, or just the reason when it names none. */
    public static String describe(IOException e) {
        return e instanceof FileSystemException f && f.getFile() != null ? describe(f.getFile(), e) : reason(e);
    }

    /** The operating system's reason for {@code e}, in lower case, without the path. */
    public static String reason(IOException e) {
        return switch (e) {
            case AccessDeniedException a -> "permission denied";
            case NoSuchFileException n -> "no such file or directory";
            case NotDirectoryException n -> "not a directory";
            case FileAlreadyExistsException f -> "file exists";
            case DirectoryNotEmptyException d -> "directory not empty";
            case FileSystemLoopException l -> "too many levels of symbolic links";
            case FileSystemException f when f.getReason() != null -> osWords(f.getReason());
            case EOFException eof -> "unexpected end of file";
            case JacksonException j -> json(j);
            default ->
                e.getMessage() == null || e.getMessage().isBlank() ? "input/output error" : osWords(e.getMessage());
        };
    }

    /**
     * A JSON syntax error as {@code line L, column C: problem}, without Jackson's source excerpt,
     * feature names or class names.
     */
    public static String json(JacksonException e) {
        String problem = e.getOriginalMessage() == null ? "invalid JSON" : clean(e.getOriginalMessage());
        JsonLocation at = e.getLocation();
        if (at == null || at.getLineNr() < 1) {
            return problem;
        }
        return "line " + at.getLineNr() + ", column " + at.getColumnNr() + ": " + problem;
    }

    private static final Pattern SOURCE = Pattern.compile("\\s*(at )?\\[Source: [^\\]]*\\]");
    private static final Pattern FEATURE_HINT = Pattern.compile("\\s*\\([^()]*Feature\\.[A-Z_]+[^()]*\\)");
    private static final Pattern FEATURE = Pattern.compile("`?\\b\\w+Feature\\.[A-Z_]+`?");
    private static final Pattern MARKER = Pattern.compile("\\s*\\((start marker|for \\w+ starting) at\\s*\\)");
    private static final Pattern JAVA_NAME = Pattern.compile("\\b(java|com\\.fasterxml)\\.[\\w.$]+");

    private static String clean(String message) {
        String m = SOURCE.matcher(message).replaceAll("");
        m = FEATURE_HINT.matcher(m).replaceAll("");
        m = FEATURE.matcher(m).replaceAll("");
        m = MARKER.matcher(m).replaceAll("");
        m = JAVA_NAME.matcher(m).replaceAll("value").strip();
        int nl = m.indexOf('\n');
        if (nl >= 0) {
            m = m.substring(0, nl).strip();
        }
        return m.isEmpty() ? "invalid JSON" : lowerFirst(m);
    }

    /** The JDK passes the C library's wording ("No such file or directory"); Go's is lower case. */
    private static String osWords(String reason) {
        return lowerFirst(reason.strip());
    }

    private static String lowerFirst(String s) {
        if (s.length() > 1 && Character.isUpperCase(s.charAt(0)) && Character.isUpperCase(s.charAt(1))) {
            return s; // an acronym
        }
        return s.isEmpty() ? s : s.substring(0, 1).toLowerCase(Locale.ROOT) + s.substring(1);
    }
}
