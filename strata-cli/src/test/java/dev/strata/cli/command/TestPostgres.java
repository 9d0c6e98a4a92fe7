package dev.strata.cli.command;

import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A throwaway PostgreSQL server for the CLI tests of the pg backend (the twin of strata-state's test harness,
 * which that module keeps package-private): initdb in a temp dir, listening on 127.0.0.1
 * only, on a free port, fsync off, stopped when the test JVM exits. Started once per JVM; tests are
 * skipped (not failed) where PostgreSQL is not installed ({@code scripts/install-postgres.sh} installs it).
 */
final class TestPostgres {
    private static String url;
    private static String failure;

    private TestPostgres() {}

    /** A JDBC URL of the running server (user postgres, trust auth), or skips the test. */
    static synchronized String url() {
        if (url == null && failure == null) {
            try {
                url = start();
            } catch (IOException | InterruptedException | RuntimeException e) {
                failure = e.toString();
            }
        }
        assumeThat(failure).as("PostgreSQL test server: %s", failure).isNull();
        return url;
    }

    private static Path binDir() {
        String path = System.getenv("PATH");
        if (path != null) {
            for (String d : path.split(File.pathSeparator)) {
                if (Files.isExecutable(Path.of(d, "initdb"))) {
                    return Path.of(d);
                }
            }
        }
        try (Stream<Path> s = Files.list(Path.of("/usr/lib/postgresql"))) {
            return s.map(p -> p.resolve("bin")).filter(p -> Files.isExecutable(p.resolve("initdb")))
                    .max(Comparator.naturalOrder()).orElse(null);
        } catch (IOException e) {
            return null;
        }
    }

    private static String start() throws IOException, InterruptedException {
        Path bin = binDir();
        if (bin == null) {
            throw new IllegalStateException("initdb not found (run scripts/install-postgres.sh)");
        }
        Path dir = Files.createTempDirectory("strata-pg-");
        boolean root = "root".equals(System.getProperty("user.name"));
        if (root) {
            // initdb refuses to run as root: run the server as the postgres user the package creates.
            run(List.of("chown", "postgres", dir.toString()), false);
        }
        Path data = dir.resolve("data");
        run(List.of(bin.resolve("initdb").toString(), "-D", data.toString(), "-U", "postgres", "-A", "trust",
                "-E", "UTF8", "--locale=C", "--no-sync"), root);
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        run(List.of(bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-l", dir.resolve("log").toString(), "-w", "-t", "60",
                "-o", "-c listen_addresses=127.0.0.1 -p " + port + " -k " + dir + " -c fsync=off -c max_connections=60",
                "start"), root);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                run(List.of(bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-m", "immediate", "stop"), root);
                try (Stream<Path> w = Files.walk(dir)) {
                    w.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                }
            } catch (IOException | InterruptedException | RuntimeException e) {
                // best effort: the temp dir is all that is left
            }
        }));
        return "jdbc:postgresql://127.0.0.1:" + port + "/postgres?user=postgres";
    }

    private static void run(List<String> cmd, boolean asPostgres) throws IOException, InterruptedException {
        List<String> full = new ArrayList<>();
        if (asPostgres) {
            full.addAll(List.of("runuser", "-u", "postgres", "--"));
        }
        full.addAll(cmd);
        Process p = new ProcessBuilder(full).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(90, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IllegalStateException(String.join(" ", cmd) + " failed: " + new String(out, StandardCharsets.UTF_8));
        }
    }
}
