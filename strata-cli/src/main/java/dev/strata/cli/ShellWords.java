package dev.strata.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Splits {@code TF_CLI_ARGS} values into words the way Terraform does: blanks (space, tab, newline)
 * separate words; single quotes keep everything literally; double quotes keep everything but a
 * backslash, which takes the next character literally (as it does outside quotes); backticks and
 * {@code $(...)} are kept with their content as written, never run. An unquoted {@code ;}, {@code &},
 * {@code |}, {@code <} or {@code >} ends the arguments (what follows is ignored), and an unclosed quote,
 * a trailing backslash or a bare parenthesis makes the string invalid.
 */
final class ShellWords {
    private ShellWords() {}

    /** The words of {@code line}, or empty when it is not a valid command line string. */
    static Optional<List<String>> split(String line) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean inWord = false;
        int i = 0;
        int n = line.length();
        while (i < n) {
            char c = line.charAt(i);
            switch (c) {
                case ' ', '\t', '\n', '\r' -> {
                    if (inWord) {
                        words.add(word.toString());
                        word.setLength(0);
                        inWord = false;
                    }
                    i++;
                }
                case '\\' -> {
                    if (i + 1 >= n) {
                        return Optional.empty();
                    }
                    word.append(line.charAt(i + 1));
                    inWord = true;
                    i += 2;
                }
                case '\'' -> {
                    int end = line.indexOf('\'', i + 1);
                    if (end < 0) {
                        return Optional.empty();
                    }
                    word.append(line, i + 1, end);
                    inWord = true;
                    i = end + 1;
                }
                case '"' -> {
                    int j = i + 1;
                    while (j < n && line.charAt(j) != '"') {
                        if (line.charAt(j) == '\\') {
                            if (j + 1 >= n) {
                                return Optional.empty();
                            }
                            j++;
                        }
                        word.append(line.charAt(j));
                        j++;
                    }
                    if (j >= n) {
                        return Optional.empty();
                    }
                    inWord = true;
                    i = j + 1;
                }
                case '`' -> {
                    int end = line.indexOf('`', i + 1);
                    if (end < 0) {
                        return Optional.empty();
                    }
                    word.append(line, i, end + 1);
                    inWord = true;
                    i = end + 1;
                }
                case '$' -> {
                    if (i + 1 < n && line.charAt(i + 1) == '(') {
                        int end = line.indexOf(')', i + 2);
                        if (end < 0) {
                            return Optional.empty();
                        }
                        word.append(line, i, end + 1);
                        i = end + 1;
                    } else {
                        word.append(c);
                        i++;
                    }
                    inWord = true;
                }
                case '(', ')' -> {
                    return Optional.empty();
                }
                case ';', '&', '|', '<', '>' -> {
                    // A shell would start another command or a redirection here; Terraform takes
                    // the arguments before it and ignores the rest.
                    if (inWord) {
                        words.add(word.toString());
                    }
                    return Optional.of(List.copyOf(words));
                }
                default -> {
                    word.append(c);
                    inWord = true;
                    i++;
                }
            }
        }
        if (inWord) {
            words.add(word.toString());
        }
        return Optional.of(List.copyOf(words));
    }
}
