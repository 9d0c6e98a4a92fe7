package dev.strata.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.hcl.Diagnostics;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Multi-module configurations under {@code src/test/resources/fixtures/} (nested local modules,
 * count/for_each on module calls, override files, JSON files), each with its expected validation
 * result in {@code expected.txt}: one {@code file:line,col-col: summary} line per diagnostic, in
 * Strata's (sorted) order; an empty or absent file means the configuration is valid.
 */
class FixtureSetTest {
    static Stream<String> fixtures() throws IOException, URISyntaxException {
        Path root = root();
        try (Stream<Path> s = Files.list(root)) {
            return s.filter(Files::isDirectory).map(p -> p.getFileName().toString()).sorted().toList().stream();
        }
    }

    private static Path root() throws URISyntaxException {
        return Path.of(Objects.requireNonNull(FixtureSetTest.class.getResource("/fixtures"))
                .toURI());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fixtures")
    void validatesAsExpected(String name) throws IOException, URISyntaxException {
        Path dir = root().resolve(name);
        Diagnostics ds = Fixtures.validate(dir);
        Path expectedFile = dir.resolve("expected.txt");
        List<String> expected = Files.isRegularFile(expectedFile)
                ? Files.readAllLines(expectedFile).stream()
                        .filter(l -> !l.isBlank())
                        .toList()
                : List.of();
        assertThat(Fixtures.brief(ds)).as(name + ":\n" + ds).containsExactlyElementsOf(expected);
    }
}
