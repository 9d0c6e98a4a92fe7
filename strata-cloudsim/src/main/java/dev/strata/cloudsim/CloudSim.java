package dev.strata.cloudsim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;

/**
 * The running simulator. API: {@code POST /v1/{kind}} (with an optional {@code Idempotency-Key}
 * header), {@code GET /v1/{kind}}, {@code GET|PATCH|DELETE /v1/{kind}/{id}}, for the kinds
 * networks, subnets, security_groups, instances, disks, attachments, buckets, dns_records and
 * load_balancers. Admin (never throttled, faulted or delayed): {@code GET /admin/counters},
 * {@code POST /admin/counters/reset}, {@code GET /admin/objects} (every object of every kind, as
 * stored, whether or not reads would see it yet), {@code GET|PUT /admin/config}. Clients are told
 * apart by the {@code X-Client-Id} header (else their address) for throttling; a 429 carries
 * {@code Retry-After} in whole seconds (RFC 9110) and {@code X-Retry-After-Ms} with the exact wait.
 * A create's answer carries {@link #VISIBLE_IN_MS}: how long until reads show the new object
 * (eventual consistency; 0 when they already do).
 *
 * <p>It also answers AWS Systems Manager Parameter Store's JSON protocol ({@code POST /} with
 * {@code X-Amz-Target: AmazonSSM.*}, see {@link SsmApi}), so the real AWS provider's
 * {@code aws_ssm_parameter}, pointed here with {@code endpoints { ssm = URL }}, can run against it,
 * and the read-only EC2 and STS Query-protocol actions that the provider's data sources call at plan
 * time (form-encoded {@code POST /}, see {@link QueryApi}); those count under
 * {@code requests["query:ACTION"]}.
 */
public final class CloudSim implements AutoCloseable {

    private static final ObjectMapper JSON = Json.MAPPER;

    /**
     * The header of a create's answer (201, or 200 for a replay) that says in how many milliseconds
     * reads will show the object (0: at once). The body is the object a read would then return, so a
     * client that gets 0 and a ready status need not read it back.
     */
    public static final String VISIBLE_IN_MS = "X-Visible-In-Ms";

    private final HttpServer server;
    private final ExecutorService pool;
    private final Store store;
    private final LongSupplier clock;
    private final AtomicReference<Knobs> knobs;
    private final Random random;
    private final Map<String, Bucket> buckets = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> requests = new ConcurrentHashMap<>();
    private final AtomicLong total = new AtomicLong();
    private final AtomicLong creates = new AtomicLong();
    private final AtomicLong replays = new AtomicLong();
    private final AtomicLong throttled = new AtomicLong();
    private final AtomicLong faults = new AtomicLong();
    private final AtomicLong timeouts = new AtomicLong();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger peak = new AtomicInteger();
    private final SsmApi ssm = new SsmApi();
    private final Map<String, AtomicLong> ssmActions = new ConcurrentHashMap<>();
    private final QueryApi query = new QueryApi();

    private CloudSim(int port, Path stateFile, Knobs initial, LongSupplier clock, long seed) throws IOException {
        this.clock = clock;
        this.knobs = new AtomicReference<>(initial);
        this.random = new Random(seed);
        this.store = new Store(stateFile, clock);
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 128);
        this.pool = Executors.newVirtualThreadPerTaskExecutor();
        server.setExecutor(pool);
        server.createContext("/", this::handle);
        server.start();
    }

    /** Starts a simulator on a loopback port (0 picks a free one); {@code stateFile} may be null. */
    public static CloudSim start(int port, Path stateFile, Knobs knobs) throws IOException {
        return new CloudSim(port, stateFile, knobs, System::nanoTime, System.nanoTime());
    }

    /**
     * A simulator whose time is {@code nanoClock} (nanoseconds, like {@link System#nanoTime}), so
     * tests and benchmarks can move time for provisioning, consistency and throttling by hand.
     */
    public static CloudSim start(int port, Path stateFile, Knobs knobs, LongSupplier nanoClock, long seed)
            throws IOException {
        return new CloudSim(port, stateFile, knobs, nanoClock, seed);
    }

    /** For tests: a simulator on a free port whose time is {@code clock} (nanoseconds) and whose faults follow {@code seed}. */
    static CloudSim startForTest(Knobs knobs, LongSupplier clock, long seed, Path stateFile) throws IOException {
        return new CloudSim(0, stateFile, knobs, clock, seed);
    }

    public int port() {
        return server.getAddress().getPort();
    }

    public String url() {
        return "http://127.0.0.1:" + port();
    }

    /** The SSM parameters stored, by name, with their versions. */
    public java.util.SortedMap<String, Long> ssmParameters() {
        return ssm.versions();
    }

    /** The SSM requests received (counted on arrival), by action such as {@code PutParameter}. */
    public java.util.SortedMap<String, Long> ssmRequests() {
        java.util.SortedMap<String, Long> out = new java.util.TreeMap<>();
        ssmActions.forEach((k, v) -> out.put(k, v.get()));
        return out;
    }

    public Knobs knobs() {
        return knobs.get();
    }

    public void setKnobs(Knobs k) {
        knobs.set(k);
    }

    @Override
    public void close() {
        server.stop(0);
        pool.shutdownNow();
    }

    /** A token bucket for one client. */
    private static final class Bucket {
        double tokens;
        long last;

        Bucket(double tokens, long last) {
            this.tokens = tokens;
            this.last = last;
        }
    }

    private void handle(HttpExchange ex) throws IOException {
        int now = inFlight.incrementAndGet();
        peak.accumulateAndGet(now, Math::max);
        try {
            String target = ex.getRequestHeaders().getFirst("X-Amz-Target");
            if (target != null && target.startsWith(SsmApi.TARGET_PREFIX)) {
                requests.computeIfAbsent("ssm", k -> new AtomicLong()).incrementAndGet();
                ssmActions
                        .computeIfAbsent(target.substring(SsmApi.TARGET_PREFIX.length()), k -> new AtomicLong())
                        .incrementAndGet();
                // Latency applies to SSM as to the REST API (tests use it to catch a provider mid-call);
                // the request is counted on arrival, before the wait, and acted on after it.
                delay(knobs.get());
                ssm.handle(ex, target);
                return;
            }
            if (QueryApi.accepts(ex)) {
                Map<String, java.util.List<String>> form = QueryApi.form(ex);
                requests.computeIfAbsent("query:" + QueryApi.action(form), k -> new AtomicLong())
                        .incrementAndGet();
                query.handle(ex, form);
                return;
            }
            String[] parts = segments(ex.getRequestURI().getPath());
            if (parts.length >= 1 && parts[0].equals("admin")) {
                admin(ex, parts);
                return;
            }
            if (parts.length < 2 || parts.length > 3 || !parts[0].equals("v1")) {
                send(ex, 404, error("NotFound", "no such endpoint"));
                return;
            }
            String kind = parts[1];
            total.incrementAndGet();
            requests.computeIfAbsent(kind, k -> new AtomicLong()).incrementAndGet();
            Knobs k = knobs.get();
            Optional<Long> wait = throttle(client(ex), k);
            if (wait.isPresent()) {
                throttled.incrementAndGet();
                long ms = wait.get();
                ex.getResponseHeaders().add("Retry-After", Long.toString(Math.max(1, (ms + 999) / 1000)));
                ex.getResponseHeaders().add("X-Retry-After-Ms", Long.toString(ms));
                send(ex, 429, error("Throttled", "rate limit exceeded; retry after " + ms + " ms"));
                return;
            }
            delay(k);
            double roll;
            synchronized (random) {
                roll = random.nextDouble();
            }
            if (roll < k.timeoutRate()) {
                timeouts.incrementAndGet();
                sleep(k.timeoutMs());
                send(ex, 504, error("Timeout", "the request timed out"));
                return;
            }
            if (roll < k.timeoutRate() + k.faultRate()) {
                faults.incrementAndGet();
                send(
                        ex,
                        roll < k.timeoutRate() + k.faultRate() / 2 ? 500 : 503,
                        error("InternalError", "injected fault"));
                return;
            }
            try {
                route(ex, kind, parts.length == 3 ? parts[2] : null, k);
            } catch (ApiError e) {
                send(ex, e.status, error(e.code, e.getMessage()));
            }
        } catch (RuntimeException e) {
            send(ex, 500, error("InternalError", e.getClass().getSimpleName()));
        } finally {
            inFlight.decrementAndGet();
            ex.close();
        }
    }

    /**
     * The path's segments between its leading and trailing slashes ({@code "/v1/buckets/"} gives
     * {@code [v1, buckets]}); by hand rather than with a regular expression, which {@link
     * String#replaceAll} would compile again for every request.
     */
    static String[] segments(String path) {
        int from = 0;
        int to = path.length();
        while (from < to && path.charAt(from) == '/') {
            from++;
        }
        while (to > from && path.charAt(to - 1) == '/') {
            to--;
        }
        return path.substring(from, to).split("/");
    }

    private void route(HttpExchange ex, String kind, String id, Knobs k) throws IOException, ApiError {
        String method = ex.getRequestMethod();
        if (id == null && method.equals("POST")) {
            Store.Created c =
                    store.create(kind, body(ex), ex.getRequestHeaders().getFirst("Idempotency-Key"));
            (c.replayed() ? replays : creates).incrementAndGet();
            long t = clock.getAsLong();
            long created = c.createdNanos();
            // The create's answer holds the whole object; this says when reads will show it, so a client
            // need not poll for visibility it can be told (what a read would answer is the same object).
            long visibleInNanos = Math.max(0, created + k.consistencyDelayMs() * 1_000_000L - t);
            ex.getResponseHeaders().add(VISIBLE_IN_MS, Long.toString((visibleInNanos + 999_999) / 1_000_000));
            send(ex, c.replayed() ? 200 : 201, view(kind, c.object(), t, created, k));
        } else if (id == null && method.equals("GET")) {
            ArrayNode a = JSON.createArrayNode();
            long t = clock.getAsLong();
            for (Store.Entry e : store.list(kind)) {
                if (visible(e, t, k)) {
                    a.add(view(kind, e.object(), t, e.createdNanos(), k));
                }
            }
            ObjectNode o = JSON.createObjectNode();
            o.set("items", a);
            send(ex, 200, o);
        } else if (id != null && method.equals("GET")) {
            long t = clock.getAsLong();
            Optional<Store.Entry> e = store.get(kind, id);
            if (e.isEmpty() || !visible(e.get(), t, k)) {
                throw ApiError.notFound(kind + " " + id + " does not exist");
            }
            send(ex, 200, view(kind, e.get().object(), t, e.get().createdNanos(), k));
        } else if (id != null && method.equals("PATCH")) {
            ObjectNode updated = store.update(kind, id, body(ex));
            long t = clock.getAsLong();
            send(
                    ex,
                    200,
                    view(
                            kind,
                            updated,
                            t,
                            store.get(kind, id).map(Store.Entry::createdNanos).orElse(t),
                            k));
        } else if (id != null && method.equals("DELETE")) {
            store.delete(kind, id);
            send(ex, 204, null);
        } else {
            send(ex, 405, error("MethodNotAllowed", method + " is not allowed here"));
        }
    }

    // Eventual consistency: a new object is invisible to reads for a while after its create.
    private static boolean visible(Store.Entry e, long now, Knobs k) {
        return now - e.createdNanos() >= k.consistencyDelayMs() * 1_000_000L;
    }

    private static ObjectNode view(String kind, ObjectNode o, long now, long created, Knobs k) {
        if (kind.equals("instances")) {
            boolean ready = now - created >= k.provisionDelayMs() * 1_000_000L;
            o.put("status", ready ? "running" : "pending");
        }
        return o;
    }

    private Optional<Long> throttle(String client, Knobs k) {
        if (k.ratePerSecond() <= 0) {
            return Optional.empty();
        }
        long now = clock.getAsLong();
        Bucket b = buckets.computeIfAbsent(client, c -> new Bucket(k.burst(), now));
        synchronized (b) {
            b.tokens = Math.min(k.burst(), b.tokens + (now - b.last) / 1e9 * k.ratePerSecond());
            b.last = now;
            if (b.tokens >= 1) {
                b.tokens -= 1;
                return Optional.empty();
            }
            return Optional.of((long) Math.ceil((1 - b.tokens) / k.ratePerSecond() * 1000));
        }
    }

    private static String client(HttpExchange ex) {
        String id = ex.getRequestHeaders().getFirst("X-Client-Id");
        return id != null ? id : ex.getRemoteAddress().getAddress().getHostAddress();
    }

    private void delay(Knobs k) {
        long jitter;
        synchronized (random) {
            jitter = k.latencyJitterMs() == 0 ? 0 : (long) (random.nextDouble() * k.latencyJitterMs());
        }
        sleep(k.latencyMs() + jitter);
    }

    /** How the simulator waits (latency, timeouts); tests replace it to see the waits without taking them. */
    private volatile java.util.function.LongConsumer waiter = CloudSim::sleepMillis;

    void setWaiterForTest(java.util.function.LongConsumer w) {
        this.waiter = w;
    }

    private void sleep(long ms) {
        if (ms > 0) {
            waiter.accept(ms);
        }
    }

    private static void sleepMillis(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void admin(HttpExchange ex, String[] parts) throws IOException {
        String what = parts.length > 1 ? parts[1] : "";
        String method = ex.getRequestMethod();
        if (what.equals("counters") && parts.length == 2 && method.equals("GET")) {
            send(ex, 200, counters());
        } else if (what.equals("counters") && parts.length == 3 && parts[2].equals("reset") && method.equals("POST")) {
            requests.clear();
            ssmActions.clear();
            for (AtomicLong c : new AtomicLong[] {total, creates, replays, throttled, faults, timeouts}) {
                c.set(0);
            }
            peak.set(inFlight.get());
            send(ex, 200, counters());
        } else if (what.equals("objects") && method.equals("GET")) {
            ObjectNode o = JSON.createObjectNode();
            long t = clock.getAsLong();
            Knobs k = knobs.get();
            store.all().forEach((kind, list) -> {
                if (parts.length == 2 || parts[2].equals(kind)) {
                    ArrayNode a = o.putArray(kind);
                    list.forEach(e -> a.add(view(kind, e.object(), t, e.createdNanos(), k)));
                }
            });
            send(ex, 200, o);
        } else if (what.equals("config") && method.equals("GET")) {
            send(ex, 200, knobs.get().toJson());
        } else if (what.equals("config") && method.equals("PUT")) {
            try {
                knobs.set(knobs.get().with(JSON.readTree(ex.getRequestBody())));
                send(ex, 200, knobs.get().toJson());
            } catch (IllegalArgumentException | IOException e) {
                send(ex, 400, error("InvalidParameter", "invalid settings"));
            }
        } else {
            send(ex, 404, error("NotFound", "no such admin endpoint"));
        }
    }

    /**
     * What tests and benchmarks count: API requests in all and by kind, creates that made an object
     * and creates answered from an earlier one with the same {@code Idempotency-Key}, throttled
     * (429), injected faults and timeouts, the peak of concurrent requests, and objects by kind.
     */
    private ObjectNode counters() {
        ObjectNode o = JSON.createObjectNode();
        o.put("requests_total", total.get());
        ObjectNode req = o.putObject("requests");
        new java.util.TreeMap<>(requests).forEach((k, v) -> req.put(k, v.get()));
        ObjectNode ssmReq = o.putObject("ssm_requests");
        ssmRequests().forEach(ssmReq::put);
        o.put("creates", creates.get());
        o.put("idempotent_replays", replays.get());
        o.put("throttled", throttled.get());
        o.put("faults", faults.get());
        o.put("timeouts", timeouts.get());
        o.put("peak_concurrency", peak.get());
        ObjectNode objs = o.putObject("objects");
        store.counts().forEach(objs::put);
        return o;
    }

    private static ObjectNode body(HttpExchange ex) throws ApiError {
        try {
            JsonNode n = JSON.readTree(ex.getRequestBody());
            if (n == null || !n.isObject()) {
                throw ApiError.badRequest("the body must be a JSON object");
            }
            return (ObjectNode) n;
        } catch (IOException e) {
            throw ApiError.badRequest("the body is not valid JSON");
        }
    }

    private static ObjectNode error(String code, String message) {
        ObjectNode o = JSON.createObjectNode();
        ObjectNode e = o.putObject("error");
        e.put("code", code);
        e.put("message", message);
        return o;
    }

    private static void send(HttpExchange ex, int status, JsonNode body) throws IOException {
        if (body == null) {
            ex.sendResponseHeaders(status, -1);
            return;
        }
        byte[] b = JSON.writeValueAsBytes(body);
        ex.getResponseHeaders().set("Content-Type", "application/json");
        ex.sendResponseHeaders(status, b.length);
        ex.getResponseBody().write(b);
    }
}
