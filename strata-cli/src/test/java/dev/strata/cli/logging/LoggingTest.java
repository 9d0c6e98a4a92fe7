package dev.strata.cli.logging;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

class LoggingTest {
    @TempDir
    Path dir;

    private final ByteArrayOutputStream stderr = new ByteArrayOutputStream();
    private final PrintStream err = new PrintStream(stderr, true, StandardCharsets.UTF_8);

    @AfterEach
    void off() {
        Logging.shutdown();
    }

    private LogSettings settings(Map<String, String> env) {
        return LogSettings.fromEnv(env, dir);
    }

    /**
     * On a terminal the log on stderr shares the screen with the progress lines a view holds back for a
     * moment: a log line writes them first, so that it follows what happened before it.
     */
    @Test
    void aLogLineOnStderrFollowsTheProgressLinesHeldBeforeIt() {
        Logging.configure(settings(Map.of("STRATA_LOG", "info")), err, "run1");
        var terminal = new dev.strata.cli.command.CommandContext(
                dir, new java.io.ByteArrayInputStream(new byte[0]), err, err, false, 80, Map.of(), "run1");
        var a = dev.strata.addr.Addrs.parseAbsResourceInstance("terraform_data.a")
                .value();
        try (var progress = new dev.strata.cli.view.ApplyView(terminal)) {
            progress.applyStart(a, dev.strata.engine.Action.CREATE, null, null);
            LoggerFactory.getLogger("dev.strata.engine.Walk").info("logged after the start");
            progress.applyComplete(a, dev.strata.engine.Action.CREATE, "a-1", java.time.Duration.ZERO);
        }
        String text = stderr.toString(StandardCharsets.UTF_8);
        assertThat(text.indexOf("terraform_data.a: Creating...")).isNotNegative();
        assertThat(text.indexOf("terraform_data.a: Creating...")).isLessThan(text.indexOf("logged after the start"));
        assertThat(text.indexOf("logged after the start"))
                .isLessThan(text.indexOf("terraform_data.a: Creation complete"));
    }

    @Test
    void jsonLinesInAFileCarryTheRunIdFromEveryThreadAndLogger() throws Exception {
        Path file = dir.resolve("strata.log");
        var warnings = Logging.configure(
                settings(
                        Map.of("STRATA_LOG", "debug", "STRATA_LOG_PATH", file.toString(), "STRATA_LOG_FORMAT", "json")),
                err,
                "run123abc");
        assertThat(warnings).isEmpty();

        LoggerFactory.getLogger("dev.strata.engine.Walk").info("planned {} of {}", 3, "aws_vpc.main");
        LoggerFactory.getLogger("dev.strata.state.Local").trace("below the level");
        ExecutorService pool = Executors.newSingleThreadExecutor(r -> new Thread(r, "apply-worker"));
        try {
            pool.submit(() -> LoggerFactory.getLogger("dev.strata.provider.Random")
                            .warn("with \"quotes\"\nand a newline", new IllegalStateException("boom")))
                    .get();
        } finally {
            pool.shutdown();
        }
        Logging.shutdown();

        List<String> lines = Files.readAllLines(file);
        assertThat(lines).hasSize(2);
        ObjectMapper mapper = new ObjectMapper();
        JsonNode first = mapper.readTree(lines.get(0));
        List<String> fields = new ArrayList<>();
        first.fieldNames().forEachRemaining(fields::add);
        assertThat(fields).containsExactly("timestamp", "level", "logger", "message", "run_id", "thread");
        assertThat(first.get("timestamp").asText()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z");
        assertThat(first.get("level").asText()).isEqualTo("INFO");
        assertThat(first.get("logger").asText()).isEqualTo("dev.strata.engine.Walk");
        assertThat(first.get("message").asText()).isEqualTo("planned 3 of aws_vpc.main");
        assertThat(first.get("run_id").asText()).isEqualTo("run123abc");

        JsonNode second = mapper.readTree(lines.get(1));
        assertThat(second.get("thread").asText()).isEqualTo("apply-worker");
        assertThat(second.get("run_id").asText()).isEqualTo("run123abc");
        assertThat(second.get("message").asText()).isEqualTo("with \"quotes\"\nand a newline");
        assertThat(second.get("exception").asText()).contains("IllegalStateException: boom");
        assertThat(stderr.toString(StandardCharsets.UTF_8)).isEmpty();
    }

    @Test
    void fileIsAppendedNotTruncated() throws Exception {
        Path file = dir.resolve("a.log");
        for (String run : List.of("first", "second")) {
            Logging.configure(settings(Map.of("STRATA_LOG", "info", "STRATA_LOG_PATH", "a.log")), err, run);
            LoggerFactory.getLogger("dev.strata.x").info("hello");
            Logging.shutdown();
        }
        List<String> lines = Files.readAllLines(file);
        assertThat(lines).hasSize(2);
        assertThat(lines.get(0)).contains(" [INFO] run=first [").endsWith("dev.strata.x: hello");
        assertThat(lines.get(1)).contains("run=second");
    }

    @Test
    void theHttpClientsRequestAndAnswerLinesStayOutOfATraceLog() {
        // Its wire and header lines (DEBUG) carry request bodies, which may hold sensitive values.
        Logging.configure(settings(Map.of("STRATA_LOG", "trace")), err, "r1");
        LoggerFactory.getLogger("org.apache.hc.client5.http.wire").debug("http-outgoing-0 >> body");
        LoggerFactory.getLogger("org.apache.hc.client5.http.impl.classic.HttpRequestRetryExec")
                .info("recoverable");
        LoggerFactory.getLogger("dev.strata.z").trace("traced");
        String out = stderr.toString(StandardCharsets.UTF_8);
        assertThat(out).doesNotContain("body").contains("recoverable").contains("traced");
    }

    @Test
    void humanLinesGoToStderrWhenNoPathIsSet() {
        Logging.configure(settings(Map.of("STRATA_LOG", "warn")), err, "r1");
        Logger log = LoggerFactory.getLogger("dev.strata.y");
        log.info("not shown");
        log.warn("shown");
        String out = stderr.toString(StandardCharsets.UTF_8);
        assertThat(out).doesNotContain("not shown");
        assertThat(out).matches("\\S+Z \\[WARN] run=r1 \\[[^]]+] dev\\.strata\\.y: shown\n");
    }

    @Test
    void offUnsetAndInvalidLevelsLogNothing() {
        for (Map<String, String> env : List.of(
                Map.<String, String>of(),
                Map.of("STRATA_LOG", "off"),
                Map.of("STRATA_LOG", ""),
                Map.of("STRATA_LOG", "verbose"))) {
            stderr.reset();
            Logging.configure(settings(env), err, "r");
            LoggerFactory.getLogger("dev.strata.z").error("never");
            assertThat(stderr.toString(StandardCharsets.UTF_8))
                    .as(env.toString())
                    .isEmpty();
            Logging.shutdown();
        }
    }

    @Test
    void invalidValuesAreWarningsNamingTheValidOnes() {
        LogSettings s = settings(Map.of("STRATA_LOG", "verbose", "STRATA_LOG_FORMAT", "xml"));
        assertThat(s.level()).isEqualTo(LogSettings.Level.OFF);
        assertThat(s.format()).isEqualTo(LogSettings.Format.HUMAN);
        assertThat(s.warnings()).hasSize(2);
        assertThat(s.warnings().get(0).detail())
                .contains("\"verbose\"")
                .contains("trace, debug, info, warn, error and off");
        assertThat(s.warnings().get(1).detail()).contains("human and json");
        assertThat(settings(Map.of("STRATA_LOG", "Debug")).level()).isEqualTo(LogSettings.Level.DEBUG);
    }

    @Test
    void unwritableFileFallsBackToStderrWithAWarning() throws Exception {
        Files.writeString(dir.resolve("blocker"), "");
        var warnings = Logging.configure(
                settings(Map.of("STRATA_LOG", "info", "STRATA_LOG_PATH", "blocker/sub/x.log")), err, "r9");
        assertThat(warnings)
                .singleElement()
                .satisfies(w -> assertThat(w.summary()).isEqualTo("Cannot write the log file"));
        LoggerFactory.getLogger("dev.strata.w").info("still logged");
        assertThat(stderr.toString(StandardCharsets.UTF_8)).contains("run=r9").contains("still logged");
    }

    @Test
    void sensitiveValuesRenderRedacted() throws Exception {
        Path file = dir.resolve("s.log");
        Logging.configure(settings(Map.of("STRATA_LOG", "trace", "STRATA_LOG_PATH", "s.log")), err, "r");
        Sensitive<String> password = Sensitive.of("hunter2");
        LoggerFactory.getLogger("dev.strata.p").info("configured provider with password {}", password);
        Logging.shutdown();
        String text = Files.readString(file);
        assertThat(text).contains("password (sensitive value)").doesNotContain("hunter2");
        assertThat(password.reveal()).isEqualTo("hunter2");
        assertThat("" + password).isEqualTo("(sensitive value)");
        assertThat(Sensitive.of("a")).isEqualTo(Sensitive.of("a"));
    }

    @Test
    void runIdsAreShortAndDistinct() {
        String a = RunId.generate();
        assertThat(a).matches("[0-9a-f]{12}");
        assertThat(RunId.generate()).isNotEqualTo(a);
    }
}
