package dev.strata.tfplugin;

import com.google.protobuf.Empty;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import dev.strata.tfplugin.proto.goplugin.GRPCControllerGrpc;
import dev.strata.tfplugin.proto.goplugin.GRPCStdioGrpc;
import dev.strata.tfplugin.proto.goplugin.GoPluginProto;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.grpc.netty.NegotiationType;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.Epoll;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollDomainSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.unix.DomainSocketAddress;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContext;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContextBuilder;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslProvider;
import io.grpc.stub.StreamObserver;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One running provider plugin: the child process, its handshake, and the gRPC channel to it.
 * Started with {@link #start(PluginLaunch)}; {@link #close()} shuts it down through go-plugin's
 * controller and kills it if it does not exit in time, so a plugin never outlives its owner.
 */
public final class PluginProcess implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PluginProcess.class);
    /** Terraform's magic cookie: a plugin started without it prints a notice and exits. */
    static final String MAGIC_COOKIE_KEY = "TF_PLUGIN_MAGIC_COOKIE";

    static final String MAGIC_COOKIE_VALUE = "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2";
    /** The AWS provider's schema alone is tens of megabytes; Terraform allows 256 MiB messages. */
    static final int MAX_MESSAGE_BYTES = 256 << 20;

    private static final int STDERR_LINES_KEPT = 25;
    private static final AtomicLong RUN_IDS = new AtomicLong();

    private final PluginLaunch launch;
    private final Process process;
    private final Handshake handshake;
    private final ManagedChannel channel;
    private final EventLoopGroup eventLoop;
    private final StderrTail stderr;
    private final Thread stderrPump;
    private final long runId;
    private final LogRedactor redactor;
    private final AtomicBoolean closed = new AtomicBoolean();
    private Diagnostic crash;

    private PluginProcess(
            PluginLaunch launch,
            Process process,
            Handshake handshake,
            ManagedChannel channel,
            EventLoopGroup eventLoop,
            StderrTail stderr,
            Thread stderrPump,
            long runId,
            LogRedactor redactor) {
        this.launch = launch;
        this.process = process;
        this.handshake = handshake;
        this.channel = channel;
        this.eventLoop = eventLoop;
        this.stderr = stderr;
        this.stderrPump = stderrPump;
        this.runId = runId;
        this.redactor = redactor;
    }

    /** What keeps the secrets sent to this plugin out of the lines it writes. */
    LogRedactor redactor() {
        return redactor;
    }

    /**
     * Starts the plugin and completes the handshake. Failures (missing binary, crash before the
     * handshake, a bad handshake line, a timeout) come back as an error diagnostic naming the
     * provider, with the plugin's last stderr lines; the process is never left running.
     */
    public static Result<PluginProcess> start(PluginLaunch launch) {
        long runId = RUN_IDS.incrementAndGet();
        ClientIdentity identity = ClientIdentity.generate();
        ProcessBuilder pb = new ProcessBuilder(launch.executable().toString());
        Map<String, String> env = pb.environment();
        if (launch.environment() != null) {
            env.clear();
            env.putAll(launch.environment());
        }
        dev.strata.hcl.ChildEnvironment.restore(env);
        if (launch.workingDirectory() != null) {
            pb.directory(launch.workingDirectory().toFile());
        }
        env.putAll(launch.extraEnvironment());
        env.put(MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE);
        env.put(
                "PLUGIN_PROTOCOL_VERSIONS",
                String.join(
                        ",",
                        launch.protocolVersions().stream().map(String::valueOf).toList()));
        env.put("PLUGIN_CLIENT_CERT", identity.certificatePem());
        pb.redirectInput(ProcessBuilder.Redirect.PIPE);

        Process process;
        long started = System.nanoTime();
        try {
            process = pb.start();
        } catch (IOException e) {
            return failure(
                    launch,
                    "Failed to start provider " + launch.providerName(),
                    "Could not run the plugin executable " + launch.executable() + ": " + e.getMessage());
        }
        PluginReaper.started(process);
        // The plugin reads nothing from stdin; closing it lets a plugin that waits on it see EOF.
        closeQuietly(process.getOutputStream());
        String logName = launch.providerName() + " (pid " + process.pid() + ", run " + runId + ")";
        LOG.debug(
                "started provider {} from {}, offering protocols {}",
                logName,
                launch.executable(),
                launch.protocolVersions());
        StderrTail tail = new StderrTail(STDERR_LINES_KEPT);
        LogRedactor redactor = new LogRedactor();
        Thread stderrPump = pump(
                "plugin-stderr-" + process.pid(),
                process.getErrorStream(),
                raw -> {
                    String line = redactor.redact(raw);
                    tail.add(line);
                    LOG.debug("{}: {}", logName, line);
                },
                () -> {});
        CompletableFuture<String> firstLine = new CompletableFuture<>();
        pump(
                "plugin-stdout-" + process.pid(),
                process.getInputStream(),
                line -> {
                    if (!firstLine.complete(line)) {
                        LOG.debug("{} stdout: {}", logName, redactor.redact(line));
                    }
                },
                () -> firstLine.completeExceptionally(new ProcessExited()));

        String line;
        try {
            line = firstLine.get(launch.startTimeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            kill(process);
            return failure(
                    launch,
                    "Provider " + launch.providerName() + " did not start in time",
                    "The plugin did not print its handshake within "
                            + launch.startTimeout().toSeconds() + " seconds, so Strata stopped it."
                            + stderrSuffix(stderrPump, tail));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            kill(process);
            return failure(launch, "Provider " + launch.providerName() + " start interrupted", "");
        } catch (ExecutionException e) {
            kill(process);
            String status = process.isAlive() ? "closed its output" : "exited with status " + exitValue(process);
            return failure(
                    launch,
                    "Provider " + launch.providerName() + " crashed while starting",
                    "The plugin " + status + " before completing the handshake." + stderrSuffix(stderrPump, tail));
        }

        Handshake hs;
        try {
            hs = Handshake.parse(line, launch.protocolVersions());
        } catch (Handshake.HandshakeException e) {
            kill(process);
            return failure(
                    launch,
                    "Provider " + launch.providerName() + " sent an invalid handshake",
                    "The plugin's first line was \"" + abbreviate(line) + "\": " + e.getMessage() + "."
                            + stderrSuffix(stderrPump, tail));
        }
        EventLoopGroup group = null;
        ManagedChannel channel;
        try {
            NettyChannelBuilder b;
            if (hs.network().equals("unix")) {
                if (!Epoll.isAvailable()) {
                    throw new IOException("unix sockets need Netty's epoll transport, which is unavailable here: "
                            + Epoll.unavailabilityCause());
                }
                group = new EpollEventLoopGroup(1);
                b = NettyChannelBuilder.forAddress(new DomainSocketAddress(hs.address()))
                        .eventLoopGroup(group)
                        .channelType(EpollDomainSocketChannel.class);
            } else {
                int colon = hs.address().lastIndexOf(':');
                if (colon < 0) {
                    throw new IOException("tcp address \"" + hs.address() + "\" has no port");
                }
                b = NettyChannelBuilder.forAddress(
                        hs.address().substring(0, colon),
                        Integer.parseInt(hs.address().substring(colon + 1)));
            }
            b.maxInboundMessageSize(MAX_MESSAGE_BYTES);
            if (hs.serverCertificate().isPresent()) {
                // The JDK's TLS, not the bundled BoringSSL: go-plugin's server certificate is ECDSA
                // P-521, whose signature scheme BoringSSL does not offer by default, so the
                // server would find no common signature algorithm.
                SslContext ssl = GrpcSslContexts.configure(SslContextBuilder.forClient(), SslProvider.JDK)
                        .keyManager(identity.privateKey(), identity.certificate())
                        .trustManager(hs.serverCertificate().get())
                        .build();
                // go-plugin's server certificate is issued for "localhost", whatever the socket.
                b.sslContext(ssl).negotiationType(NegotiationType.TLS).overrideAuthority("localhost");
            } else {
                b.usePlaintext();
            }
            channel = b.build();
        } catch (IOException | NumberFormatException e) {
            kill(process);
            if (group != null) {
                group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            }
            return failure(
                    launch,
                    "Cannot connect to provider " + launch.providerName(),
                    "The handshake named " + hs.network() + " address " + hs.address() + ": " + e.getMessage());
        }
        LOG.debug(
                "{} serves protocol {} on {} {} ({}); handshake complete {} ms after start",
                logName,
                hs.protocolVersion(),
                hs.network(),
                hs.address(),
                hs.serverCertificate().isPresent() ? "mutual TLS" : "plaintext",
                (System.nanoTime() - started) / 1_000_000);
        PluginProcess p = new PluginProcess(launch, process, hs, channel, group, tail, stderrPump, runId, redactor);
        p.forwardStdio(logName);
        return Result.of(p);
    }

    /** go-plugin drains the plugin's Go-level stdout/stderr into this stream; log it like stderr. */
    private void forwardStdio(String logName) {
        GRPCStdioGrpc.newStub(channel).streamStdio(Empty.getDefaultInstance(), new StreamObserver<>() {
            @Override
            public void onNext(GoPluginProto.StdioData d) {
                for (String raw : d.getData().toString(StandardCharsets.UTF_8).split("\n")) {
                    String l = redactor.redact(raw);
                    if (!l.isEmpty()) {
                        stderr.add(l);
                        LOG.debug("{} {}: {}", logName, d.getChannel().name().toLowerCase(java.util.Locale.ROOT), l);
                    }
                }
            }

            @Override
            public void onError(Throwable t) {
                // Ends when the plugin exits or does not offer the service; neither is a problem here.
            }

            @Override
            public void onCompleted() {}
        });
    }

    public Handshake handshake() {
        return handshake;
    }

    public int protocolVersion() {
        return handshake.protocolVersion();
    }

    public ManagedChannel channel() {
        return channel;
    }

    public String providerName() {
        return launch.providerName();
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** The last lines the plugin wrote to stderr or through go-plugin's stdio stream. */
    public List<String> recentStderr() {
        return stderr.lines();
    }

    /**
     * A diagnostic for a call that failed at the transport level: a crash (with the plugin's last
     * stderr lines, where a Go panic shows up) or a call that did not complete.
     */
    Diagnostic callFailure(String rpc, StatusRuntimeException e) {
        boolean exited = !process.isAlive() || waitForExit(Duration.ofMillis(500));
        if (exited) {
            // One crash, one explanation: calls in flight when it died all report the first call's.
            synchronized (this) {
                if (crash == null) {
                    crash = crashDiagnostic(rpc);
                }
                return crash;
            }
        }
        Status.Code code = e.getStatus().getCode();
        String why = code == Status.Code.DEADLINE_EXCEEDED ? "did not answer in time" : "failed: " + e.getStatus();
        return Diagnostic.error(
                "Plugin error", "The " + rpc + " call to provider " + launch.providerName() + " " + why, null);
    }

    /** Whether the plugin has died, i.e. exited without being closed. */
    public boolean crashed() {
        return !closed.get() && !process.isAlive();
    }

    private Diagnostic crashDiagnostic(String rpc) {
        return Diagnostic.error(
                "Plugin did not respond",
                "The provider " + launch.providerName() + " crashed: it exited with status " + exitValue(process)
                        + signalNote(process) + " during the " + rpc + " call. Unless something outside Strata"
                        + " stopped it, this is a bug in the provider and should be reported in its issue tracker."
                        + stderrSuffix(stderrPump, stderr),
                null);
    }

    private boolean waitForExit(Duration d) {
        try {
            return process.waitFor(d.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Asks the plugin to exit through go-plugin's controller, waits up to the launch's shutdown
     * timeout, then kills it. Idempotent.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        Duration budget = launch.shutdownTimeout();
        long stopping = System.nanoTime();
        LOG.debug("stopping provider {} (pid {}, run {})", launch.providerName(), process.pid(), runId);
        if (process.isAlive()) {
            try {
                GRPCControllerGrpc.newBlockingStub(channel)
                        .withDeadlineAfter(budget.toMillis(), TimeUnit.MILLISECONDS)
                        .shutdown(GoPluginProto.Empty.getDefaultInstance());
            } catch (StatusRuntimeException e) {
                // The plugin often drops the connection as it exits, before it can answer.
                LOG.debug(
                        "{}: controller shutdown ended with {}",
                        launch.providerName(),
                        e.getStatus().getCode());
            }
        }
        channel.shutdownNow();
        if (!waitForExit(budget)) {
            LOG.warn(
                    "Provider {} (pid {}) did not exit within {} ms of shutdown; killing it",
                    launch.providerName(),
                    process.pid(),
                    budget.toMillis());
            kill(process);
        }
        try {
            channel.awaitTermination(budget.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (eventLoop != null) {
            eventLoop.shutdownGracefully(0, budget.toMillis(), TimeUnit.MILLISECONDS);
        }
        joinQuietly(stderrPump, Duration.ofSeconds(1));
        PluginReaper.stopped(process);
        LOG.debug(
                "{} (run {}) exited with status {}, {} ms after the stop request",
                launch.providerName(),
                runId,
                exitValue(process),
                (System.nanoTime() - stopping) / 1_000_000);
    }

    /**
     * Stops every provider plugin this JVM started that is still running (SIGTERM, then SIGKILL after
     * {@code grace}), and any whose start ends later: for a process about to exit without its usual
     * shutdown (a second interrupt), which would otherwise leave them running. Returns how many ran.
     */
    public static int stopAllForExit(Duration grace) {
        return PluginReaper.stopForExit(grace);
    }

    private static Result<PluginProcess> failure(PluginLaunch launch, String summary, String detail) {
        LOG.debug("provider {} did not start: {}", launch.providerName(), summary);
        return Result.of(null, Diagnostics.of(Diagnostic.error(summary, detail, null)));
    }

    private static String stderrSuffix(Thread pump, StderrTail tail) {
        // Let the pump read what a dying plugin wrote last (a Go panic) before reporting.
        joinQuietly(pump, Duration.ofSeconds(2));
        List<String> lines = tail.lines();
        if (lines.isEmpty()) {
            return " It wrote no panic, warning or error to stderr (its full log is in Strata's debug log:"
                    + " STRATA_LOG=debug).";
        }
        return " Its last lines on stderr were:\n  " + String.join("\n  ", lines);
    }

    private static void joinQuietly(Thread t, Duration d) {
        try {
            t.join(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String abbreviate(String s) {
        return s.length() <= 200 ? s : s.substring(0, 200) + "…";
    }

    /**
     * Java reports a child killed by signal N as status 128+N; say which signal, since a
     * {@code kill -9} or the OOM killer is a different story from a provider's own exit.
     */
    static String signalNote(Process p) {
        if (p.isAlive() || p.exitValue() <= 128 || p.exitValue() > 128 + 64) {
            return "";
        }
        int sig = p.exitValue() - 128;
        String name = switch (sig) {
            case 6 -> " (SIGABRT)";
            case 9 -> " (SIGKILL)";
            case 11 -> " (SIGSEGV)";
            case 15 -> " (SIGTERM)";
            default -> "";
        };
        return ", that is, it was killed by signal " + sig + name;
    }

    private static String exitValue(Process p) {
        return p.isAlive() ? "(still running)" : String.valueOf(p.exitValue());
    }

    /**
     * Terminates the plugin and anything it started. Signals go through the process handle, not
     * Process.destroy(), because the latter also closes our ends of the pipes and would lose what
     * the plugin wrote last (a panic) before the pumps read it.
     */
    private static void kill(Process p) {
        List<ProcessHandle> children = p.descendants().toList();
        ProcessHandle h = p.toHandle();
        h.destroy();
        try {
            if (!p.waitFor(2, TimeUnit.SECONDS)) {
                h.destroyForcibly();
                p.waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            h.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        children.forEach(ProcessHandle::destroyForcibly);
        PluginReaper.stopped(p);
    }

    private static void closeQuietly(java.io.Closeable c) {
        try {
            c.close();
        } catch (IOException e) {
            // Nothing to do: the stream was only closed to signal EOF.
        }
    }

    /** Reads lines until EOF, which comes when the process exits (or closes the stream). */
    private static Thread pump(String name, InputStream in, java.util.function.Consumer<String> sink, Runnable atEof) {
        Thread t = Thread.ofPlatform().daemon().name(name).start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                for (String l = r.readLine(); l != null; l = r.readLine()) {
                    sink.accept(l);
                }
            } catch (IOException e) {
                // The stream closes when the process dies; what was read is already forwarded.
            } finally {
                atEof.run();
            }
        });
        return t;
    }

    /** Marks the end of the process before it printed a handshake. */
    private static final class ProcessExited extends RuntimeException {
        ProcessExited() {
            super("process exited", null, false, false);
        }
    }
}
