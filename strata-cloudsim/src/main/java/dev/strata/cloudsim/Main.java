package dev.strata.cloudsim;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * {@code java -cp ... dev.strata.cloudsim.Main [-port=N] [-state-file=PATH] [-consistency-delay-ms=N]
 * [-provision-delay-ms=N] [-rate=N] [-burst=N] [-fault-rate=F] [-latency-ms=N] [-latency-jitter-ms=N]
 * [-timeout-rate=F] [-timeout-ms=N]}: runs the simulator on 127.0.0.1 until killed.
 */
public final class Main {

    private Main() {}

    public static void main(String[] args) throws IOException, InterruptedException {
        int port = 8080;
        Path state = null;
        Knobs k = Knobs.DEFAULT;
        for (String a : args) {
            int eq = a.indexOf('=');
            if (!a.startsWith("-") || eq < 0) {
                usage("unexpected argument " + a);
                return;
            }
            String name = a.substring(a.startsWith("--") ? 2 : 1, eq);
            String v = a.substring(eq + 1);
            try {
                switch (name) {
                    case "port" -> port = Integer.parseInt(v);
                    case "state-file" -> state = Path.of(v);
                    case "consistency-delay-ms" -> k = new Knobs(Long.parseLong(v), k.provisionDelayMs(), k.ratePerSecond(), k.burst(), k.faultRate(), k.latencyMs(), k.latencyJitterMs(), k.timeoutRate(), k.timeoutMs());
                    case "provision-delay-ms" -> k = new Knobs(k.consistencyDelayMs(), Long.parseLong(v), k.ratePerSecond(), k.burst(), k.faultRate(), k.latencyMs(), k.latencyJitterMs(), k.timeoutRate(), k.timeoutMs());
                    case "rate" -> k = new Knobs(k.consistencyDelayMs(), k.provisionDelayMs(), Double.parseDouble(v), k.burst(), k.faultRate(), k.latencyMs(), k.latencyJitterMs(), k.timeoutRate(), k.timeoutMs());
                    case "burst" -> k = new Knobs(k.consistencyDelayMs(), k.provisionDelayMs(), k.ratePerSecond(), Integer.parseInt(v), k.faultRate(), k.latencyMs(), k.latencyJitterMs(), k.timeoutRate(), k.timeoutMs());
                    case "fault-rate" -> k = new Knobs(k.consistencyDelayMs(), k.provisionDelayMs(), k.ratePerSecond(), k.burst(), Double.parseDouble(v), k.latencyMs(), k.latencyJitterMs(), k.timeoutRate(), k.timeoutMs());
                    case "latency-ms" -> k = new Knobs(k.consistencyDelayMs(), k.provisionDelayMs(), k.ratePerSecond(), k.burst(), k.faultRate(), Long.parseLong(v), k.latencyJitterMs(), k.timeoutRate(), k.timeoutMs());
                    case "latency-jitter-ms" -> k = new Knobs(k.consistencyDelayMs(), k.provisionDelayMs(), k.ratePerSecond(), k.burst(), k.faultRate(), k.latencyMs(), Long.parseLong(v), k.timeoutRate(), k.timeoutMs());
                    case "timeout-rate" -> k = new Knobs(k.consistencyDelayMs(), k.provisionDelayMs(), k.ratePerSecond(), k.burst(), k.faultRate(), k.latencyMs(), k.latencyJitterMs(), Double.parseDouble(v), k.timeoutMs());
                    case "timeout-ms" -> k = new Knobs(k.consistencyDelayMs(), k.provisionDelayMs(), k.ratePerSecond(), k.burst(), k.faultRate(), k.latencyMs(), k.latencyJitterMs(), k.timeoutRate(), Long.parseLong(v));
                    default -> {
                        usage("unknown flag -" + name);
                        return;
                    }
                }
            } catch (IllegalArgumentException e) {
                usage("invalid value for -" + name + ": " + v);
                return;
            }
        }
        CloudSim sim = CloudSim.start(port, state, k);
        System.out.println("cloudsim listening on " + sim.url());
        new CountDownLatch(1).await();
    }

    private static void usage(String problem) {
        System.err.println("cloudsim: " + problem);
        System.err.println("usage: cloudsim [-port=N] [-state-file=PATH] [-consistency-delay-ms=N] [-provision-delay-ms=N]"
                + " [-rate=N] [-burst=N] [-fault-rate=F] [-latency-ms=N] [-latency-jitter-ms=N] [-timeout-rate=F] [-timeout-ms=N]");
        System.exit(2);
    }
}
