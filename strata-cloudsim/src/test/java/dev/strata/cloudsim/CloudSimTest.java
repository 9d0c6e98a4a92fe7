package dev.strata.cloudsim;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CloudSimTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private CloudSim sim;

    @TempDir
    Path dir;

    @AfterEach
    void stop() {
        if (sim != null) {
            sim.close();
        }
    }

    private CloudSim start(Knobs k) throws IOException {
        sim = CloudSim.startForTest(k, now::get, 42, null);
        return sim;
    }

    record Resp(int status, JsonNode body, HttpResponse<String> raw) {
        String id() {
            return body.get("id").asText();
        }

        String code() {
            return body.path("error").path("code").asText();
        }
    }

    private Resp call(String method, String path, Object body, Map<String, String> headers) {
        try {
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(sim.url() + path))
                    .method(
                            method,
                            body == null
                                    ? HttpRequest.BodyPublishers.noBody()
                                    : HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
            headers.forEach(b::header);
            HttpResponse<String> r = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
            return new Resp(r.statusCode(), r.body().isEmpty() ? JSON.nullNode() : JSON.readTree(r.body()), r);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private Resp post(String kind, Object body) {
        return call("POST", "/v1/" + kind, body, Map.of());
    }

    private Resp get(String path) {
        return call("GET", path, null, Map.of());
    }

    private Resp delete(String kind, String id) {
        return call("DELETE", "/v1/" + kind + "/" + id, null, Map.of());
    }

    @Test
    void objectsGetIdsAddressesAndProvisionAsynchronously() throws IOException {
        start(new Knobs(0, 5000, 0, 10, 0, 0, 0, 0, 0));
        String net =
                post("networks", Map.of("cidr", "10.0.0.0/16", "name", "main")).id();
        Resp subnet = post("subnets", Map.of("network_id", net, "cidr", "10.0.1.0/24"));
        assertThat(subnet.status()).isEqualTo(201);
        Resp sg = post(
                "security_groups",
                Map.of(
                        "network_id",
                        net,
                        "rules",
                        List.of(Map.of("protocol", "tcp", "from_port", 443, "to_port", 443, "cidr", "0.0.0.0/0"))));
        Resp inst = post(
                "instances",
                Map.of(
                        "subnet_id",
                        subnet.id(),
                        "image",
                        "debian-12",
                        "size",
                        "small",
                        "security_group_ids",
                        List.of(sg.id())));
        assertThat(inst.status()).isEqualTo(201);
        assertThat(inst.body().get("private_ip").asText()).isEqualTo("10.0.1.4");
        assertThat(inst.body().get("status").asText()).isEqualTo("pending");
        assertThat(inst.body().get("arn").asText()).isEqualTo("arn:sim:instances/" + inst.id());
        now.addAndGet(5_000_000_000L);
        assertThat(get("/v1/instances/" + inst.id()).body().get("status").asText())
                .isEqualTo("running");
        assertThat(get("/v1/instances").body().get("items")).hasSize(1);
        Resp resized = call("PATCH", "/v1/instances/" + inst.id(), Map.of("size", "large"), Map.of());
        assertThat(resized.body().get("size").asText()).isEqualTo("large");
        assertThat(resized.body().get("status").asText()).isEqualTo("running");
        assertThat(call("PATCH", "/v1/instances/" + inst.id(), Map.of("image", "x"), Map.of())
                        .status())
                .isEqualTo(400);
        assertThat(post("instances", Map.of("subnet_id", subnet.id(), "image", "x", "size", "huge"))
                        .status())
                .isEqualTo(400);
        assertThat(post(
                                "security_groups",
                                Map.of(
                                        "network_id",
                                        net,
                                        "rules",
                                        List.of(Map.of(
                                                "protocol", "tcp", "from_port", 9, "to_port", 1, "cidr", "0.0.0.0/0"))))
                        .status())
                .isEqualTo(400);
        String lb = post("load_balancers", Map.of("network_id", net, "target_instance_ids", List.of(inst.id())))
                .id();
        assertThat(get("/v1/load_balancers/" + lb).body().get("dns_name").asText())
                .isEqualTo(lb + ".lb.sim.internal");
        Resp rec = post(
                "dns_records",
                Map.of("zone", "example.com", "name", "www", "type", "A", "records", List.of("10.0.1.4")));
        assertThat(rec.body().get("ttl").asInt()).isEqualTo(300);
        assertThat(post(
                                "dns_records",
                                Map.of(
                                        "zone",
                                        "example.com",
                                        "name",
                                        "www",
                                        "type",
                                        "A",
                                        "records",
                                        List.of("1.1.1.1")))
                        .code())
                .isEqualTo("RecordExists");
    }

    @Test
    void referentialIntegrity() throws IOException {
        start(Knobs.DEFAULT);
        assertThat(post("subnets", Map.of("network_id", "net-missing", "cidr", "10.0.0.0/24"))
                        .status())
                .isEqualTo(400);
        String net = post("networks", Map.of("cidr", "10.0.0.0/16")).id();
        assertThat(post("networks", Map.of("cidr", "10.0.0.1/16")).status()).isEqualTo(400);
        assertThat(post("subnets", Map.of("network_id", net, "cidr", "10.1.0.0/24"))
                        .status())
                .isEqualTo(400);
        String sub = post("subnets", Map.of("network_id", net, "cidr", "10.0.0.0/24"))
                .id();
        assertThat(post("subnets", Map.of("network_id", net, "cidr", "10.0.0.128/25"))
                        .code())
                .isEqualTo("CidrConflict");
        Resp blocked = delete("networks", net);
        assertThat(blocked.status()).isEqualTo(409);
        assertThat(blocked.code()).isEqualTo("DependencyViolation");
        assertThat(blocked.body().path("error").path("message").asText()).contains(sub);

        String inst = post("instances", Map.of("subnet_id", sub, "image", "img", "size", "small"))
                .id();
        String disk = post("disks", Map.of("size_gb", 10)).id();
        String att = post("attachments", Map.of("disk_id", disk, "instance_id", inst))
                .id();
        assertThat(post("attachments", Map.of("disk_id", disk, "instance_id", inst))
                        .code())
                .isEqualTo("VolumeInUse");
        assertThat(delete("disks", disk).status()).isEqualTo(409);
        assertThat(delete("instances", inst).status()).isEqualTo(409);
        assertThat(call("PATCH", "/v1/disks/" + disk, Map.of("size_gb", 5), Map.of())
                        .status())
                .isEqualTo(400);
        assertThat(delete("attachments", att).status()).isEqualTo(204);
        assertThat(delete("instances", inst).status()).isEqualTo(204);
        assertThat(delete("subnets", sub).status()).isEqualTo(204);
        assertThat(delete("networks", net).status()).isEqualTo(204);
        assertThat(delete("networks", net).status()).isEqualTo(404);

        assertThat(post("buckets", Map.of("name", "logs-1")).id()).isEqualTo("logs-1");
        assertThat(post("buckets", Map.of("name", "logs-1")).code()).isEqualTo("BucketAlreadyExists");
        assertThat(post("buckets", Map.of("name", "Bad_Name")).status()).isEqualTo(400);
    }

    @Test
    void repeatedCreateWithTheSameIdempotencyKeyReturnsTheFirstObject() throws IOException {
        start(Knobs.DEFAULT);
        Resp a = call("POST", "/v1/networks", Map.of("cidr", "10.0.0.0/16"), Map.of("Idempotency-Key", "k1"));
        Resp b = call("POST", "/v1/networks", Map.of("cidr", "10.0.0.0/16"), Map.of("Idempotency-Key", "k1"));
        assertThat(a.status()).isEqualTo(201);
        assertThat(b.status()).isEqualTo(200);
        assertThat(b.id()).isEqualTo(a.id());
        post("networks", Map.of("cidr", "10.0.0.0/16"));
        assertThat(get("/v1/networks").body().get("items")).hasSize(2);
    }

    @Test
    void aCreateSaysWhenReadsWillShowTheObject() throws IOException {
        start(new Knobs(2000, 0, 0, 10, 0, 0, 0, 0, 0));
        Resp created = call("POST", "/v1/networks", Map.of("cidr", "10.0.0.0/16"), Map.of("Idempotency-Key", "k"));
        assertThat(created.raw().headers().firstValue(CloudSim.VISIBLE_IN_MS)).contains("2000");
        now.addAndGet(1_500_000_000L);
        Resp replay = call("POST", "/v1/networks", Map.of("cidr", "10.0.0.0/16"), Map.of("Idempotency-Key", "k"));
        assertThat(replay.status()).isEqualTo(200);
        assertThat(replay.raw().headers().firstValue(CloudSim.VISIBLE_IN_MS))
                .as("a replay counts from the first create")
                .contains("500");
        assertThat(get("/v1/networks/" + created.id()).status()).isEqualTo(404);
        now.addAndGet(500_000_000L);
        Resp read = get("/v1/networks/" + created.id());
        assertThat(read.status()).isEqualTo(200);
        assertThat(read.body())
                .as("the create's answer is the object a read shows")
                .isEqualTo(created.body());
        sim.setKnobs(Knobs.DEFAULT);
        Resp at = post("networks", Map.of("cidr", "10.1.0.0/16"));
        assertThat(at.status()).isEqualTo(201);
        assertThat(at.raw().headers().firstValue(CloudSim.VISIBLE_IN_MS)).contains("0");
    }

    @Test
    void adminListsEveryObjectAndCountsCreatesReplaysAndRequests() throws IOException {
        start(new Knobs(5000, 1000, 0, 10, 0, 0, 0, 0, 0));
        String net = call("POST", "/v1/networks", Map.of("cidr", "10.0.0.0/16"), Map.of("Idempotency-Key", "k"))
                .id();
        assertThat(call("POST", "/v1/networks", Map.of("cidr", "10.0.0.0/16"), Map.of("Idempotency-Key", "k"))
                        .id())
                .isEqualTo(net);
        assertThat(get("/v1/networks/" + net).status()).as("not consistent yet").isEqualTo(404);
        // The admin view shows what exists, whatever reads would see: the way to check for duplicates.
        JsonNode all = get("/admin/objects").body();
        assertThat(all.get("networks")).hasSize(1);
        assertThat(all.get("networks").get(0).get("id").asText()).isEqualTo(net);
        assertThat(all.get("subnets")).isEmpty();
        assertThat(get("/admin/objects/networks").body().has("subnets")).isFalse();
        JsonNode c = get("/admin/counters").body();
        assertThat(c.get("requests_total").asLong()).isEqualTo(3);
        assertThat(c.get("requests").get("networks").asLong()).isEqualTo(3);
        assertThat(c.get("creates").asLong()).isEqualTo(1);
        assertThat(c.get("idempotent_replays").asLong()).isEqualTo(1);
        assertThat(c.get("objects").get("networks").asInt()).isEqualTo(1);
        JsonNode reset = call("POST", "/admin/counters/reset", null, Map.of()).body();
        assertThat(reset.get("requests_total").asLong()).isZero();
        assertThat(reset.get("creates").asLong()).isZero();
        assertThat(reset.get("objects").get("networks").asInt())
                .as("objects are not counters")
                .isEqualTo(1);
    }

    @Test
    void everyApiRequestWaitsTheLatencyPlusJitterAndAdminRequestsDoNot() throws IOException {
        start(new Knobs(0, 0, 0, 10, 0, 40, 20, 0, 0));
        List<Long> waits = java.util.Collections.synchronizedList(new ArrayList<>());
        sim.setWaiterForTest(waits::add);
        for (int i = 0; i < 30; i++) {
            assertThat(get("/v1/networks").status()).isEqualTo(200);
        }
        get("/admin/counters");
        assertThat(waits).hasSize(30).allSatisfy(w -> assertThat(w).isBetween(40L, 59L));
        assertThat(new HashSet<>(waits)).as("the jitter varies").hasSizeGreaterThan(1);
    }

    @Test
    void aPathsSegmentsAreThoseBetweenItsLeadingAndTrailingSlashes() {
        assertThat(CloudSim.segments("/v1/buckets")).containsExactly("v1", "buckets");
        assertThat(CloudSim.segments("//v1/buckets/b-1//")).containsExactly("v1", "buckets", "b-1");
        assertThat(CloudSim.segments("/admin//counters")).containsExactly("admin", "", "counters");
        assertThat(CloudSim.segments("/")).containsExactly("");
        assertThat(CloudSim.segments("")).containsExactly("");
    }

    @Test
    void aWarmUpIsAnsweredInFullAndLeavesTheServingSimulatorUntouched() throws Exception {
        // Every request answered with success: a warm-up whose requests failed would compile the error path.
        assertThat(WarmUp.run(41)).isEqualTo(41);
        assertThat(WarmUp.run(0)).isZero();
        start(new Knobs(0, 0, 0, 10, 0, 0, 0, 0, 0));
        Resp counters = get("/admin/counters");
        assertThat(counters.body().get("requests_total").asLong()).isZero();
        assertThat(counters.body().get("objects").get("buckets").asLong()).isZero();
    }

    @Test
    void commandLineFlagsAreTheAdminSettings() {
        Main.Options o = Main.parse(new String[] {
            "-port=0",
            "-rate=50",
            "-burst=5",
            "--fault-rate=0.1",
            "-latency-ms=3",
            "-url-file=/tmp/x.url",
            "-state-file=s.json"
        });
        assertThat(o.port()).isZero();
        assertThat(o.knobs().ratePerSecond()).isEqualTo(50);
        assertThat(o.knobs().burst()).isEqualTo(5);
        assertThat(o.knobs().faultRate()).isEqualTo(0.1);
        assertThat(o.knobs().latencyMs()).isEqualTo(3);
        assertThat(o.urlFile()).isEqualTo(Path.of("/tmp/x.url"));
        assertThat(o.stateFile()).isEqualTo(Path.of("s.json"));
        assertThat(o.warmUp()).as("no warm-up unless asked").isZero();
        assertThat(Main.parse(new String[] {"-warm-up=2000"}).warmUp()).isEqualTo(2000);
        for (String bad :
                List.of("-fault-rate=2", "-nope=1", "-rate=x", "port=1", "-port=70000", "-burst=0", "-warm-up=-1")) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> Main.parse(new String[] {bad}))
                    .as(bad)
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void newObjectsAreInvisibleUntilConsistent() throws IOException {
        start(new Knobs(2000, 0, 0, 10, 0, 0, 0, 0, 0));
        String net = post("networks", Map.of("cidr", "10.0.0.0/16")).id();
        assertThat(get("/v1/networks/" + net).status()).isEqualTo(404);
        assertThat(get("/v1/networks").body().get("items")).isEmpty();
        now.addAndGet(2_000_000_000L);
        assertThat(get("/v1/networks/" + net).status()).isEqualTo(200);
        assertThat(get("/v1/networks").body().get("items")).hasSize(1);
    }

    @Test
    void throttlingPerClientWithRetryAfter() throws IOException {
        start(new Knobs(0, 0, 0.5, 2, 0, 0, 0, 0, 0));
        Map<String, String> a = Map.of("X-Client-Id", "a");
        assertThat(call("GET", "/v1/networks", null, a).status()).isEqualTo(200);
        assertThat(call("GET", "/v1/networks", null, a).status()).isEqualTo(200);
        Resp limited = call("GET", "/v1/networks", null, a);
        assertThat(limited.status()).isEqualTo(429);
        assertThat(limited.raw().headers().firstValue("Retry-After")).contains("2");
        assertThat(limited.raw().headers().firstValue("X-Retry-After-Ms")).contains("2000");
        assertThat(call("GET", "/v1/networks", null, Map.of("X-Client-Id", "b")).status())
                .isEqualTo(200);
        now.addAndGet(2_000_000_000L);
        assertThat(call("GET", "/v1/networks", null, a).status()).isEqualTo(200);
        assertThat(get("/admin/counters").body().get("throttled").asLong()).isEqualTo(1);
    }

    @Test
    void injectedFaultsAndTimeouts() throws IOException {
        start(new Knobs(0, 0, 0, 10, 1.0, 0, 0, 0, 0));
        int s = get("/v1/networks").status();
        assertThat(s).isIn(500, 503);
        assertThat(call("PUT", "/admin/config", Map.of("fault_rate", 0, "timeout_rate", 1.0, "timeout_ms", 5), Map.of())
                        .status())
                .isEqualTo(200);
        assertThat(get("/v1/networks").status()).isEqualTo(504);
        call("PUT", "/admin/config", Map.of("timeout_rate", 0), Map.of());
        assertThat(get("/v1/networks").status()).isEqualTo(200);
        JsonNode counters = get("/admin/counters").body();
        assertThat(counters.get("faults").asLong()).isEqualTo(1);
        assertThat(counters.get("timeouts").asLong()).isEqualTo(1);
        assertThat(counters.get("requests").get("networks").asLong()).isEqualTo(3);
        assertThat(counters.get("peak_concurrency").asInt()).isGreaterThanOrEqualTo(1);
        assertThat(counters.get("objects").get("networks").asInt()).isZero();
        assertThat(call("PUT", "/admin/config", Map.of("fault_rate", 2), Map.of())
                        .status())
                .isEqualTo(400);
        assertThat(get("/admin/config").body().get("timeout_rate").asDouble()).isZero();
    }

    @Test
    void stateSurvivesARestartWithAStateFile() throws IOException {
        Path file = dir.resolve("sim.json");
        sim = CloudSim.startForTest(Knobs.DEFAULT, now::get, 1, file);
        String net = call("POST", "/v1/networks", Map.of("cidr", "10.0.0.0/16"), Map.of("Idempotency-Key", "k"))
                .id();
        post("subnets", Map.of("network_id", net, "cidr", "10.0.0.0/24"));
        sim.close();
        sim = CloudSim.startForTest(Knobs.DEFAULT, now::get, 1, file);
        assertThat(get("/v1/networks/" + net).status()).isEqualTo(200);
        assertThat(delete("networks", net).status()).isEqualTo(409);
        assertThat(call("POST", "/v1/networks", Map.of("cidr", "10.0.0.0/16"), Map.of("Idempotency-Key", "k"))
                        .id())
                .isEqualTo(net);
        assertThat(post("networks", Map.of("cidr", "10.9.0.0/16")).id()).isNotEqualTo(net);
    }

    @Test
    void sixteenConcurrentClientsKeepReferentialIntegrity() throws Exception {
        sim = CloudSim.startForTest(Knobs.DEFAULT, System::nanoTime, 7, null);
        List<String> networks = java.util.Collections.synchronizedList(new ArrayList<>());
        for (int i = 0; i < 4; i++) {
            networks.add(post("networks", Map.of("cidr", "10." + i + ".0.0/16")).id());
        }
        ExecutorService pool = Executors.newFixedThreadPool(16);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<?>> done = new ArrayList<>();
        for (int c = 0; c < 16; c++) {
            int client = c;
            done.add(pool.submit(() -> {
                Random r = new Random(client);
                go.await();
                for (int i = 0; i < 40; i++) {
                    String net = networks.get(r.nextInt(networks.size()));
                    switch (r.nextInt(5)) {
                        case 0 -> {
                            Resp n = post("networks", Map.of("cidr", "10." + (10 + r.nextInt(200)) + ".0.0/16"));
                            if (n.status() == 201) {
                                networks.add(n.id());
                            }
                        }
                        case 1 -> delete("networks", net);
                        case 2 -> {
                            JsonNode subs = get("/v1/subnets").body().get("items");
                            if (!subs.isEmpty()) {
                                delete(
                                        "subnets",
                                        subs.get(r.nextInt(subs.size()))
                                                .get("id")
                                                .asText());
                            }
                        }
                        default -> {
                            Resp n = get("/v1/networks/" + net);
                            if (n.status() == 200) {
                                String base = n.body().get("cidr").asText().replace(".0.0/16", "");
                                Resp s = post(
                                        "subnets",
                                        Map.of("network_id", net, "cidr", base + "." + r.nextInt(256) + ".0/24"));
                                if (s.status() == 201 && r.nextBoolean()) {
                                    post("instances", Map.of("subnet_id", s.id(), "image", "img", "size", "small"));
                                }
                            }
                        }
                    }
                }
                return null;
            }));
        }
        go.countDown();
        for (Future<?> f : done) {
            f.get(120, TimeUnit.SECONDS);
        }
        pool.shutdown();
        Set<String> nets = ids("networks");
        Set<String> subnets = ids("subnets");
        for (JsonNode s : get("/v1/subnets").body().get("items")) {
            assertThat(nets).contains(s.get("network_id").asText());
        }
        for (JsonNode i : get("/v1/instances").body().get("items")) {
            assertThat(subnets).contains(i.get("subnet_id").asText());
        }
        assertThat(get("/admin/counters").body().get("peak_concurrency").asInt())
                .isGreaterThan(1);
    }

    private Set<String> ids(String kind) {
        Set<String> out = new HashSet<>();
        get("/v1/" + kind).body().get("items").forEach(n -> out.add(n.get("id").asText()));
        return out;
    }
}
