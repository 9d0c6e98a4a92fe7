package dev.strata.cli;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The public API of the modules meant for others (ADR "public API"): the provider SPI and SDK, the
 * engine and strata-resilience. The ADR's lists are the record of what is public; this test reads
 * them, so a type that becomes public, or a listed type that is gone or hidden, fails here until
 * the ADR says so. It runs in strata-cli because this module's tests see every module.
 */
class ApiSurfaceTest {

    /**
     * Packages whose public types are API and therefore listed. The provider test kit is its own
     * module with its own (test-scope) API and is not listed.
     */
    private static final List<String> GUARDED =
            List.of("dev.strata.provider..", "dev.strata.engine..", "dev.strata.resilience..", "dev.strata.sdk..");

    private static final String TESTKIT = "dev.strata.provider.testkit..";
    /** The fenced blocks of the ADR that hold the lists: one fully qualified type per line, {@code #} comments. */
    private static final String FENCE = "```public-api";

    private static JavaClasses main;

    @BeforeAll
    static void importMainClasses() {
        main = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.strata");
    }

    @Test
    void thePublicTypesOfTheApiModulesAreTheOnesTheAdrLists() throws IOException {
        Path adr = adr();
        SortedSet<String> listed = listed(adr);
        SortedSet<String> actual = new TreeSet<>();
        for (JavaClass c : main) {
            if (resideInAnyPackage(GUARDED.toArray(String[]::new)).test(c)
                    && !resideInAPackage(TESTKIT).test(c)
                    && isPublicApi(c)) {
                actual.add(c.getName().replace('$', '.'));
            }
        }
        assertThat(actual).as("classes were imported from the guarded packages").isNotEmpty();

        SortedSet<String> unlisted = new TreeSet<>(actual);
        unlisted.removeAll(listed);
        SortedSet<String> gone = new TreeSet<>(listed);
        gone.removeAll(actual);
        // Both directions at once, so that one run names everything the list has to change for.
        SoftAssertions.assertSoftly(soft -> {
            soft.assertThat(unlisted)
                    .as(
                            "public types that %s does not list: make them package-private, or add them to its list if "
                                    + "they are meant as API for other modules",
                            adr.getFileName())
                    .isEmpty();
            soft.assertThat(gone)
                    .as(
                            "types %s lists as public API that are no longer public (or no longer exist): remove them "
                                    + "from its list",
                            adr.getFileName())
                    .isEmpty();
        });
    }

    @Test
    void onlyTheCliUsesTheEngine() {
        noClasses()
                .that()
                .resideOutsideOfPackages(
                        "dev.strata.engine..",
                        "dev.strata.cli..",
                        "dev.strata.stacks.runtime..",
                        "dev.strata.sdk.testing..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("dev.strata.engine..")
                .because("the engine's API is for the applications that run it (the CLI, the Stacks runtime, the SDK's "
                        + "testing helpers that plan in-process), through the same facade; providers, the plugin "
                        + "client, state and configuration stay below it")
                .check(main);
    }

    @Test
    void otherModulesUseTheProviderModuleOnlyThroughTheSpiAndTheSdk() {
        noClasses()
                .that()
                .resideOutsideOfPackage("dev.strata.provider..")
                .should()
                .dependOnClassesThat(resideInAPackage("dev.strata.provider..")
                        .and(not(resideInAnyPackage("dev.strata.provider", "dev.strata.provider.sdk"))))
                .because("dev.strata.provider (SPI) and dev.strata.provider.sdk (SDK) are the provider module's "
                        + "API; anything else in it is internal, and the test kit is for tests only")
                .check(main);
    }

    @Test
    void providersAreWrittenAgainstTheSpiAndSdkNotTheEngine() {
        noClasses()
                .that()
                .resideInAPackage("dev.strata.providers..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "dev.strata.engine..", "dev.strata.config..", "dev.strata.tfplugin..", "dev.strata.cli..")
                .because("a built-in provider is a provider like any other: it sees what the SPI hands it")
                .check(main);
    }

    /** Public, and reachable: every class it is nested in is public too. Synthetic classes are not API. */
    private static boolean isPublicApi(JavaClass c) {
        if (c.getSimpleName().equals("package-info")
                || c.getModifiers().contains(JavaModifier.SYNTHETIC)
                || c.isAnonymousClass()
                || c.isLocalClass()) {
            return false;
        }
        for (Optional<JavaClass> k = Optional.of(c); k.isPresent(); k = k.get().getEnclosingClass()) {
            if (!k.get().getModifiers().contains(JavaModifier.PUBLIC)) {
                return false;
            }
        }
        return true;
    }

    /** Every type named in the ADR's public-api blocks. */
    private static SortedSet<String> listed(Path adr) throws IOException {
        SortedSet<String> names = new TreeSet<>();
        boolean inList = false;
        for (String line : Files.readAllLines(adr)) {
            String t = line.replaceFirst("#.*", "").strip();
            if (t.equals(FENCE)) {
                inList = true;
            } else if (t.startsWith("```")) {
                inList = false;
            } else if (inList && !t.isEmpty()) {
                assertThat(names.add(t))
                        .as("%s lists %s twice", adr.getFileName(), t)
                        .isTrue();
            }
        }
        assertThat(names).as("%s has %s blocks", adr.getFileName(), FENCE).isNotEmpty();
        return names;
    }

    /**
     * The ADR, found by its name so that renumbering it needs no change here: the tests run in the
     * module directory, the ADRs live at the root of the repository.
     */
    private static Path adr() throws IOException {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            Path dir = d.resolve("docs/adr");
            if (Files.isDirectory(dir)) {
                List<Path> found = new ArrayList<>();
                try (Stream<Path> s = Files.list(dir)) {
                    s.filter(p -> p.getFileName().toString().endsWith("-public-api.md"))
                            .forEach(found::add);
                }
                assertThat(found).as("one ADR named *-public-api.md in %s", dir).hasSize(1);
                return found.get(0);
            }
        }
        throw new AssertionError("no docs/adr directory above " + Path.of("").toAbsolutePath());
    }
}
