package dev.strata.providers.postgresql;

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
 * A throwaway PostgreSQL server for the provider's acceptance tests: initdb in a temp dir with
 * password (SCRAM) authentication, listening on 127.0.0.1 only, on a free port, stopped when the
 * JVM exits. Tests are skipped, not failed, where PostgreSQL is not installed or cannot start.
 */
public final class PostgresServer {

    public static final String SUPERUSER = "postgres";
    public static final String PASSWORD = "strata-test-only";

    private static Integer port;
    private static String failure;

    private PostgresServer() {}

    /** The port of the running server, or skips the calling test. */
    public static synchronized int port() {
        if (port == null && failure == null) {
            try {
                port = start();
            } catch (IOException | InterruptedException | RuntimeException e) {
                failure = e.toString();
            }
        }
        assumeThat(failure).as("PostgreSQL test server: %s", failure).isNull();
        return port;
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

    private static int start() throws IOException, InterruptedException {
        Path bin = binDir();
        if (bin == null) {
            throw new IllegalStateException("initdb not found (scripts/install-postgres.sh installs it)");
        }
        Path dir = Files.createTempDirectory("strata-pgprov-");
        boolean root = "root".equals(System.getProperty("user.name"));
        Path pw = dir.resolve("pw");
        Files.writeString(pw, PASSWORD + "\n");
        if (root) {
            // initdb refuses to run as root: run the server as the postgres user the package creates.
            run(List.of("chown", "-R", "postgres", dir.toString()), false);
        }
        Path data = dir.resolve("data");
        run(List.of(bin.resolve("initdb").toString(), "-D", data.toString(), "-U", SUPERUSER, "-A", "scram-sha-256",
                "--pwfile=" + pw, "-E", "UTF8", "--locale=C", "--no-sync"), root);
        int p;
        try (ServerSocket s = new ServerSocket(0)) {
            p = s.getLocalPort();
        }
        run(List.of(bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-l", dir.resolve("log").toString(), "-w", "-t", "60",
                "-o", "-c listen_addresses=127.0.0.1 -p " + p + " -k " + dir + " -c fsync=off -c max_connections=40", "start"), root);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                run(List.of(bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-m", "immediate", "stop"), root);
                try (Stream<Path> w = Files.walk(dir)) {
                    w.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
                }
            } catch (IOException | InterruptedException | RuntimeException e) {
                // best effort: only the temp dir is left behind
            }
        }));
        return p;
    }

    private static void run(List<String> cmd, boolean asPostgres) throws IOException, InterruptedException {
        List<String> full = new ArrayList<>();
        if (asPostgres) {
            full.addAll(List.of("runuser", "-u", "postgres", "--"));
        }
        full.addAll(cmd);
        Process proc = new ProcessBuilder(full).redirectErrorStream(true).start();
        byte[] out = proc.getInputStream().readAllBytes();
        if (!proc.waitFor(90, TimeUnit.SECONDS) || proc.exitValue() != 0) {
            proc.destroyForcibly();
            throw new IllegalStateException(String.join(" ", cmd) + " failed: " + new String(out, StandardCharsets.UTF_8));
        }
    }
}
