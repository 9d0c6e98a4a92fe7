package dev.strata.cli.view;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Dependencies between the CLI's packages run one way: commands call views, never the reverse. Views
 * may use the version and logging packages, and nothing else of the CLI (not the commands, not the
 * launcher in the root package).
 */
class PackageDependencyTest {
    private static final Path VIEWS = Path.of("src/main/java/dev/strata/cli/view");
    private static final Pattern CLI_REFERENCE = Pattern.compile("\\bdev\\.strata\\.cli\\.(\\w+)");
    private static final List<String> ALLOWED = List.of("view", "version", "logging");

    @Test
    void viewsDoNotDependOnCommands() throws IOException {
        List<String> offending = new ArrayList<>();
        List<Path> sources;
        try (Stream<Path> files = Files.list(VIEWS)) {
            sources = files.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        }
        assertThat(sources).as("view sources under %s", VIEWS.toAbsolutePath()).isNotEmpty();
        for (Path source : sources) {
            List<String> lines = Files.readAllLines(source);
            for (int i = 0; i < lines.size(); i++) {
                Matcher m = CLI_REFERENCE.matcher(lines.get(i));
                while (m.find()) {
                    if (!ALLOWED.contains(m.group(1))) {
                        offending.add(source.getFileName() + ":" + (i + 1) + ": "
                                + lines.get(i).strip());
                    }
                }
            }
        }
        assertThat(offending)
                .as("references from dev.strata.cli.view to other CLI packages")
                .isEmpty();
    }
}
