package dev.strata.testing;

import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A throwaway PostgreSQL server: initdb in a temp dir, listening on 127.0.0.1 only, on a free port, fsync off,
 * stopped when the test JVM exits. Two of them at most per JVM, each started on first use: one that trusts every
 * local connection (the pg state backend's tests) and one that wants the superuser's password (the postgresql
 * provider's tests). Tests are skipped, not failed, where PostgreSQL is not installed or cannot start
 * ({@code scripts/install-postgres.sh} installs it).
 */
public final class PostgresServer {
    public static final String SUPERUSER = "postgres";
    /** The superuser's password on {@link #withPassword()}. */
    public static final String PASSWORD = "strata-test-only";

    private static final PostgresServer TRUSTING = new PostgresServer(false);
    private static final PostgresServer WITH_PASSWORD = new PostgresServer(true);

    private final boolean password;
    private Integer port;
    private String failure;

    private PostgresServer(boolean password) {
        this.password = password;
    }

    /** The server with trust authentication: any user, no password. */
    public static PostgresServer trusting() {
        return TRUSTING;
    }

    /** The server with password (SCRAM) authentication: {@link #SUPERUSER} / {@link #PASSWORD}. */
    public static PostgresServer withPassword() {
        return WITH_PASSWORD;
    }

    /** The port of the running server, or skips the calling test. */
    public synchronized int port() {
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

    /** A JDBC URL of the running server's {@code postgres} database as the superuser (no password in it). */
    public String url() {
        return "jdbc:postgresql://127.0.0.1:" + port() + "/postgres?user=" + SUPERUSER;
    }

    private static Path binDir() {
        Path onPath = Executables.onPath("initdb").map(Path::getParent).orElse(null);
        if (onPath != null) {
            return onPath;
        }
        try (Stream<Path> s = Files.list(Path.of("/usr/lib/postgresql"))) {
            return s.map(p -> p.resolve("bin"))
                    .filter(p -> Files.isExecutable(p.resolve("initdb")))
                    .max(Comparator.naturalOrder())
                    .orElse(null);
        } catch (IOException e) {
            return null;
        }
    }

    private int start() throws IOException, InterruptedException {
        Path bin = binDir();
        if (bin == null) {
            throw new IllegalStateException("initdb not found (scripts/install-postgres.sh installs it)");
        }
        Path dir = Files.createTempDirectory("strata-pg-");
        boolean root = "root".equals(System.getProperty("user.name"));
        List<String> auth = new ArrayList<>(List.of("-A", "trust"));
        if (password) {
            Path pw = dir.resolve("pw");
            Files.writeString(pw, PASSWORD + "\n");
            auth = List.of("-A", "scram-sha-256", "--pwfile=" + pw);
        }
        if (root) {
            // initdb refuses to run as root: run the server as the postgres user the package creates.
            run(List.of("chown", "-R", "postgres", dir.toString()), false);
        }
        Path data = dir.resolve("data");
        List<String> initdb =
                new ArrayList<>(List.of(bin.resolve("initdb").toString(), "-D", data.toString(), "-U", SUPERUSER));
        initdb.addAll(auth);
        initdb.addAll(List.of("-E", "UTF8", "--locale=C", "--no-sync"));
        run(initdb, root);
        int free;
        try (ServerSocket s = new ServerSocket(0)) {
            free = s.getLocalPort();
        }
        run(
                List.of(
                        bin.resolve("pg_ctl").toString(),
                        "-D",
                        data.toString(),
                        "-l",
                        dir.resolve("log").toString(),
                        "-w",
                        "-t",
                        "60",
                        "-o",
                        "-c listen_addresses=127.0.0.1 -p " + free + " -k " + dir
                                + " -c fsync=off -c max_connections=60",
                        "start"),
                root);
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
        return free;
    }

    private static void run(List<String> cmd, boolean asPostgres) throws IOException, InterruptedException {
        List<String> full = new ArrayList<>();
        if (asPostgres) {
            full.addAll(List.of("runuser", "-u", "postgres", "--"));
        }
        full.addAll(cmd);
        ProcessResult r =
                Processes.run(new ProcessBuilder(full).redirectErrorStream(true), null, Duration.ofSeconds(90));
        if (r.exitCode() != 0) {
            throw new IllegalStateException(String.join(" ", cmd) + " failed: " + r.stdout());
        }
    }
}
