package dev.strata.state;

import dev.strata.addr.AbsProviderConfig;
import dev.strata.addr.InstanceKey;
import dev.strata.addr.ModuleInstance;
import dev.strata.addr.Resource;
import dev.strata.hcl.Result;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A second JVM for multi-process tests: holds a lock, or does read-modify-write cycles, or writes
 * snapshots in a loop, and reports progress on stdout so the test can kill it at chosen moments.
 */
public final class StateProcess {
    public static void main(String[] args) throws Exception {
        Backend backend = args[0].startsWith("pg-")
                ? PgBackend.connect(args[1], args[2], Map.of(), "0.1.0-test").value()
                : LocalBackend.in(Path.of(args[1]), "0.1.0-test");
        if (args[0].startsWith("pg-")) {
            // pg-MODE URL SCHEMA ARGS... becomes MODE - ARGS...: the backend is already chosen.
            List<String> l = new ArrayList<>(List.of(args));
            l.set(0, args[0].substring(3));
            l.remove(2);
            l.set(1, "-");
            args = l.toArray(String[]::new);
        }
        switch (args[0]) {
            case "hold" -> {
                Result<StateManager> r = backend.open("default", LockRequest.of("OperationTypeApply", Duration.ZERO));
                if (r.hasErrors()) {
                    System.out.println("FAILED " + r.diagnostics());
                    return;
                }
                System.out.println("LOCKED " + r.value().lock().id());
                System.out.flush();
                Thread.sleep(60_000); // bounded: the test kills us long before
            }
            case "rmw" -> {
                int cycles = Integer.parseInt(args[2]);
                for (int i = 0; i < cycles; i++) {
                    Result<StateManager> r = backend.open("default", LockRequest.of("rmw", Duration.ofSeconds(100)));
                    if (r.hasErrors()) {
                        System.out.println("FAILED " + r.diagnostics());
                        System.exit(2);
                    }
                    try (StateManager m = r.value()) {
                        long n = counter(m.state());
                        Result<StateSnapshot> w = m.persist(withCounter(m.state(), n + 1));
                        if (w.hasErrors()) {
                            System.out.println("FAILED " + w.diagnostics());
                            System.exit(3);
                        }
                    }
                }
                System.out.println("DONE");
            }
            case "probe" -> {
                // What Terraform's local backend does to lock: a non-blocking whole-file write lock on the state file.
                try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(
                        Path.of(args[1], "terraform.tfstate"),
                        java.nio.file.StandardOpenOption.READ,
                        java.nio.file.StandardOpenOption.WRITE)) {
                    System.out.println(ch.tryLock() == null ? "LOCKED" : "FREE");
                } catch (java.nio.file.NoSuchFileException e) {
                    System.out.println("ABSENT");
                }
            }
            case "write" -> {
                int count = Integer.parseInt(args[2]);
                Result<StateManager> r = backend.open("default", LockRequest.of("write", Duration.ofSeconds(30)));
                if (r.hasErrors()) {
                    System.out.println("FAILED " + r.diagnostics());
                    System.exit(2);
                }
                StateManager m = r.value();
                for (int i = 0; i < count; i++) {
                    Result<StateSnapshot> w =
                            m.persist(contentFor(m.state(), m.state().serial() + 1));
                    if (w.hasErrors()) {
                        System.out.println("FAILED " + w.diagnostics());
                        System.exit(3);
                    }
                    System.out.println("WROTE " + w.value().serial());
                    System.out.flush();
                }
                m.close();
                System.out.println("DONE");
            }
            case "journal" -> {
                int count = Integer.parseInt(args[2]);
                Result<StateManager> r = backend.open("default", LockRequest.of("apply", Duration.ofSeconds(30)));
                if (r.hasErrors()) {
                    System.out.println("FAILED " + r.diagnostics());
                    System.exit(2);
                }
                StateManager m = r.value();
                for (int i = 0; i < count; i++) {
                    Result<StateSnapshot> w = m.append(JournalTest.set(i));
                    if (w.hasErrors()) {
                        System.out.println("FAILED " + w.diagnostics());
                        System.exit(3);
                    }
                    System.out.println("APPENDED " + (i + 1));
                    System.out.flush();
                }
                System.out.println("DONE");
                Thread.sleep(60_000);
            }
            default -> throw new IllegalArgumentException(args[0]);
        }
    }

    static long counter(StateSnapshot s) {
        OutputValue o = s.outputs().get("counter");
        return o == null ? 0 : ((JsonValue.NumberValue) o.value()).decimal().longValueExact();
    }

    static StateSnapshot withCounter(StateSnapshot s, long n) {
        Map<String, OutputValue> outputs = new java.util.HashMap<>(s.outputs());
        outputs.put("counter", new OutputValue(JsonValue.NumberValue.of(n), JsonValue.of("number"), false));
        return s.withOutputs(outputs);
    }

    /**
     * A snapshot whose content is a function of {@code serial}, large enough (about 200 KB) that a write
     * takes a while and a kill can land in the middle of it.
     */
    static StateSnapshot contentFor(StateSnapshot base, long serial) {
        List<ResourceInstanceObject> objs = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            objs.add(ResourceInstanceObject.current(
                    InstanceKey.of(i),
                    0,
                    new JsonValue.ObjectValue(Map.of(
                            "id", JsonValue.of("obj-" + serial + "-" + i),
                            "payload", JsonValue.of("x".repeat(400)))),
                    List.of(),
                    List.of()));
        }
        ResourceState r = new ResourceState(
                ModuleInstance.ROOT.resource(Resource.managed("test_thing", "t")),
                null,
                AbsProviderConfig.parse("provider[\"registry.terraform.io/hashicorp/test\"]")
                        .value(),
                objs,
                null);
        return withCounter(base, serial).withResources(List.of(r));
    }

    /** Starts this class in a new JVM with the test class path. */
    static Process start(String... args) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElse("java"));
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add("-XX:TieredStopAtLevel=1");
        cmd.add("-Xshare:auto");
        cmd.add(StateProcess.class.getName());
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
    }

    static void killHard(Process p) throws InterruptedException {
        p.destroyForcibly(); // SIGKILL on Unix: no shutdown hooks, no finally blocks
        p.waitFor(30, TimeUnit.SECONDS);
    }
}
