package dev.strata.cloudsim;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

/**
 * {@code cloudsim [-port=N] [-state-file=PATH] [-url-file=PATH] [-consistency-delay-ms=N]
 * [-provision-delay-ms=N] [-rate=N] [-burst=N] [-fault-rate=F] [-latency-ms=N]
 * [-latency-jitter-ms=N] [-timeout-rate=F] [-timeout-ms=N] [-warm-up=N]}: runs the simulator on
 * 127.0.0.1 until it is stopped (SIGTERM or SIGINT). {@code -warm-up=N} first sends N requests to a
 * throwaway simulator in the same process (see {@link WarmUp}), so that benchmarks sharing its cores
 * are not charged for its start-up; it listens only afterwards. {@code -port=0} (the default) picks a free port; the URL is
 * printed and, with {@code -url-file}, written to that file once the simulator listens, so that a
 * script can start it in the background and wait for the file ({@code scripts/cloudsim} does).
 */
public final class Main {

    /** The behaviour flags, each the admin endpoint's setting of the same name ({@code -rate} is {@code rate_per_second}). */
    private static final Set<String> KNOB_FLAGS = Set.of(
            "consistency-delay-ms",
            "provision-delay-ms",
            "rate",
            "burst",
            "fault-rate",
            "latency-ms",
            "latency-jitter-ms",
            "timeout-rate",
            "timeout-ms");

    private Main() {}

    /** The command line, parsed. */
    record Options(int port, Path stateFile, Path urlFile, Knobs knobs, int warmUp) {}

    /** Parses the flags; an {@link IllegalArgumentException} says what is wrong with them. */
    static Options parse(String[] args) {
        int port = 0;
        Path state = null;
        Path urlFile = null;
        int warmUp = 0;
        ObjectNode settings = JsonNodeFactory.instance.objectNode();
        for (String a : args) {
            int eq = a.indexOf('=');
            if (!a.startsWith("-") || eq < 0) {
                throw new IllegalArgumentException("unexpected argument " + a);
            }
            String name = a.substring(a.startsWith("--") ? 2 : 1, eq);
            String v = a.substring(eq + 1);
            try {
                switch (name) {
                    case "port" -> port = Integer.parseInt(v);
                    case "state-file" -> state = Path.of(v);
                    case "url-file" -> urlFile = Path.of(v);
                    case "warm-up" -> warmUp = Integer.parseInt(v);
                    default -> {
                        if (!KNOB_FLAGS.contains(name)) {
                            throw new IllegalArgumentException("unknown flag -" + name);
                        }
                        settings.put(
                                name.equals("rate") ? "rate_per_second" : name.replace('-', '_'), new BigDecimal(v));
                    }
                }
            } catch (NumberFormatException | java.nio.file.InvalidPathException e) {
                throw new IllegalArgumentException("invalid value for -" + name + ": " + v);
            }
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("invalid value for -port: " + port);
        }
        if (warmUp < 0) {
            throw new IllegalArgumentException("invalid value for -warm-up: " + warmUp);
        }
        try {
            return new Options(port, state, urlFile, Knobs.DEFAULT.with(settings), warmUp);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "invalid settings: delays and counts must be >= 0, rates between 0 and 1, burst >= 1");
        }
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        Options o;
        try {
            o = parse(args);
        } catch (IllegalArgumentException e) {
            usage(e.getMessage());
            return;
        }
        Path urlFile = o.urlFile();
        WarmUp.run(o.warmUp());
        CloudSim sim = CloudSim.start(o.port(), o.stateFile(), o.knobs());
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            sim.close();
            stopped.countDown();
        }));
        if (urlFile != null) {
            Path tmp = urlFile.resolveSibling(urlFile.getFileName() + ".tmp");
            Files.writeString(tmp, sim.url() + "\n");
            Files.move(tmp, urlFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
        System.out.println("cloudsim listening on " + sim.url());
        System.out.flush();
        stopped.await();
    }

    private static void usage(String problem) {
        System.err.println("cloudsim: " + problem);
        System.err.println("usage: cloudsim [-port=N] [-state-file=PATH] [-url-file=PATH] [-consistency-delay-ms=N]"
                + " [-provision-delay-ms=N] [-rate=N] [-burst=N] [-fault-rate=F] [-latency-ms=N] [-latency-jitter-ms=N]"
                + " [-timeout-rate=F] [-timeout-ms=N] [-warm-up=N]");
        System.exit(2);
    }
}
