package dev.strata.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class PackageFetcherTest {

    @Test
    void aProgramsOutputAndExitCodeAreReturned() throws Exception {
        PackageFetcher.Ran r = PackageFetcher.run(
                List.of("sh", "-c", "echo out; echo err >&2; exit 3"), null, "sh", Duration.ofSeconds(30));

        assertEquals(3, r.exitCode());
        assertEquals("out\nerr\n", r.output());
    }

    @Test
    void aProgramThatDoesNotEndIsStoppedAtTheDeadline() {
        // The program keeps its output open while it sleeps: reading the output to its end first would
        // wait for the whole sleep, past the deadline.
        FetchException e = assertTimeoutPreemptively(
                Duration.ofSeconds(60),
                () -> assertThrows(
                        FetchException.class,
                        () -> PackageFetcher.run(
                                List.of("sh", "-c", "echo started; exec sleep 600"),
                                null,
                                "git",
                                Duration.ofSeconds(1))));

        assertEquals("git did not finish within 1 second", e.getMessage());
    }

    @Test
    void aProgramItStartedThatHoldsTheOutputOpenDoesNotHoldTheFetch() throws Exception {
        // sh ends at once, but the sleep it left behind (no longer its descendant) still has the output pipe.
        PackageFetcher.Ran r = assertTimeoutPreemptively(
                Duration.ofSeconds(60),
                () -> PackageFetcher.run(
                        List.of("sh", "-c", "echo done; sleep 30 & exit 0"), null, "git", Duration.ofSeconds(30)));

        assertEquals(0, r.exitCode());
        assertTrue(r.output().startsWith("done\n"), r.output());
    }
}
