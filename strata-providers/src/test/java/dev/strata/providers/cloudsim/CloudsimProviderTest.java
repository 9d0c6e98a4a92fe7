package dev.strata.providers.cloudsim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.addr.AttributePath;
import dev.strata.addr.VersionConstraint;
import dev.strata.cloudsim.CloudSim;
import dev.strata.cloudsim.Knobs;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import dev.strata.provider.Failure;
import dev.strata.provider.ProposedNewState;
import dev.strata.provider.Provider;
import dev.strata.provider.ProviderRegistry;
import dev.strata.provider.SchemaValues;
import dev.strata.provider.testkit.Action;
import dev.strata.provider.testkit.ProviderTester;
import dev.strata.provider.testkit.ResourceTester;
import dev.strata.provider.testkit.Step;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class CloudsimProviderTest {

    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private CloudSim sim;

    @AfterEach
    void stop() {
        if (sim != null) {
            sim.close();
        }
    }

    /** A provider whose waits move the simulator's clock instead of sleeping. */
    private ProviderTester tester(Knobs knobs, int maxRetries) throws IOException {
        sim = CloudSim.start(0, null, knobs, now::get, 3);
        CloudsimProvider p = new CloudsimProvider(d -> now.addAndGet(d.toNanos()));
        return ProviderTester.configure(
                p,
                Map.of(
                        "endpoint",
                        Value.string(sim.url()),
                        "client_id",
                        Value.string("strata"),
                        "max_retries",
                        Value.number(maxRetries),
                        "consistency_timeout_seconds",
                        Value.number(30)));
    }

    private String raw(String method, String path) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(sim.url() + path))
                                .method(method, HttpRequest.BodyPublishers.noBody())
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        return r.statusCode() + " " + r.body();
    }

    private static String str(Value v, String a) {
        return v.attributes().get(a).asString();
    }

    @Test
    void registered() {
        assertThat(ProviderRegistry.load()
                        .resolve(
                                dev.strata.addr.Provider.parse("strata/cloudsim")
                                        .value(),
                                VersionConstraint.ANY)
                        .hasErrors())
                .isFalse();
    }

    @Test
    void networkSubnetInstanceLifecycle() throws Exception {
        ProviderTester t = tester(new Knobs(1500, 4000, 0, 10, 0, 0, 0, 0, 0), 5);
        ResourceTester net = t.resource("cloudsim_network");
        Value n = net.apply(Map.of("cidr", Value.string("10.0.0.0/16"), "name", Value.string("main")))
                .state();
        assertThat(str(n, "id")).startsWith("net-");
        assertThat(str(n, "arn")).isEqualTo("arn:sim:networks/" + str(n, "id"));
        assertThat(net.apply(Map.of("cidr", Value.string("10.0.0.0/16"), "name", Value.string("core")))
                        .action())
                .isEqualTo(Action.UPDATE);

        ResourceTester sub = t.resource("cloudsim_subnet");
        Map<String, Value> subCfg = Map.of("network_id", n.attributes().get("id"), "cidr", Value.string("10.0.1.0/24"));
        Value s = sub.apply(subCfg).state();

        ResourceTester sg = t.resource("cloudsim_security_group");
        Value g = sg.apply(Map.of(
                        "network_id",
                        n.attributes().get("id"),
                        "rule",
                        Value.tuple(List.of(Value.objectOf(
                                "protocol",
                                Value.string("tcp"),
                                "from_port",
                                Value.number(443),
                                "to_port",
                                Value.number(443),
                                "cidr",
                                Value.string("0.0.0.0/0"))))))
                .state();
        assertThat(g.attributes().get("rule").elements()).hasSize(1);

        ResourceTester inst = t.resource("cloudsim_instance");
        Map<String, Value> instCfg = new java.util.HashMap<>(Map.of(
                "subnet_id",
                s.attributes().get("id"),
                "image",
                Value.string("debian-12"),
                "size",
                Value.string("small"),
                "security_group_ids",
                Value.set(Type.STRING, List.of(g.attributes().get("id")))));
        Step created = inst.apply(instCfg);
        assertThat(str(created.state(), "status")).isEqualTo("running");
        assertThat(str(created.state(), "private_ip")).isEqualTo("10.0.1.4");
        instCfg.put("size", Value.string("large"));
        Step resized = inst.apply(instCfg);
        assertThat(resized.action()).isEqualTo(Action.UPDATE);
        assertThat(str(resized.state(), "id")).isEqualTo(str(created.state(), "id"));
        inst.importAndVerify(str(created.state(), "id"), Set.of());

        // The network still has a subnet: the API refuses, and the error is permanent.
        var refused = t.provider()
                .applyResourceChange(new Provider.ApplyRequest(
                        "cloudsim_network",
                        net.state(),
                        t.provider()
                                .schema()
                                .resourceType("cloudsim_network")
                                .block()
                                .nullValue(),
                        t.provider()
                                .schema()
                                .resourceType("cloudsim_network")
                                .block()
                                .nullValue(),
                        null,
                        null));
        assertThat(refused.diagnostics().failure()).contains(Failure.PERMANENT);
        assertThat(refused.diagnostics().asList().get(0).detail()).contains("DependencyViolation");

        Step moved = sub.plan(Map.of("network_id", n.attributes().get("id"), "cidr", Value.string("10.0.2.0/24")));
        assertThat(moved.action()).isEqualTo(Action.REPLACE);
        assertThat(moved.requiresReplace()).containsExactly(AttributePath.of("cidr"));

        assertThat(raw("DELETE", "/v1/instances/" + str(created.state(), "id"))).startsWith("204");
        assertThat(inst.refresh().isNull()).isTrue();
        assertThat(inst.apply(instCfg).action()).isEqualTo(Action.CREATE);
        inst.destroy();
        sg.destroy();
        sub.destroy();
        net.destroy();
        assertThat(raw("GET", "/admin/counters")).contains("\"networks\":0");
    }

    @Test
    void createsCarryTheIdempotencyToken() throws Exception {
        ProviderTester t = tester(Knobs.DEFAULT, 2);
        Provider p = t.provider();
        var block = p.schema().resourceType("cloudsim_bucket").block();
        Value cfg = SchemaValues.coerce(block, Value.objectOf("name", Value.string("logs-1")))
                .value();
        Value planned = p.planResourceChange(new Provider.PlanRequest(
                        "cloudsim_bucket",
                        block.nullValue(),
                        ProposedNewState.of(block, block.nullValue(), cfg),
                        cfg,
                        null))
                .plannedState();
        var first = p.applyResourceChange(
                new Provider.ApplyRequest("cloudsim_bucket", block.nullValue(), planned, cfg, null, "tok-1"));
        // A retry of the same create (say, after a crash) adopts the object instead of failing on the taken name.
        var again = p.applyResourceChange(
                new Provider.ApplyRequest("cloudsim_bucket", block.nullValue(), planned, cfg, null, "tok-1"));
        assertThat(first.diagnostics().hasErrors()).isFalse();
        assertThat(again.diagnostics().hasErrors()).isFalse();
        assertThat(again.newState()).isEqualTo(first.newState());
        var other = p.applyResourceChange(
                new Provider.ApplyRequest("cloudsim_bucket", block.nullValue(), planned, cfg, null, "tok-2"));
        assertThat(other.diagnostics().failure()).contains(Failure.PERMANENT);
        assertThat(other.diagnostics().asList().get(0).detail()).contains("BucketAlreadyExists");
    }

    @Test
    void aThrottledCreateGoesToTheEngineAtOnceWithTheServersExactRetryAfterWhateverMaxRetries() throws Exception {
        ProviderTester t = tester(Knobs.DEFAULT, 5);
        // 40 requests per second, no burst, and a clock that stands still: the second request is throttled.
        sim.setKnobs(new Knobs(0, 0, 40, 1, 0, 0, 0, 0, 0));
        Provider p = t.provider();
        var block = p.schema().resourceType("cloudsim_disk").block();
        Value cfg = SchemaValues.coerce(block, Value.objectOf("size_gb", Value.number(10)))
                .value();
        Value planned = p.planResourceChange(new Provider.PlanRequest(
                        "cloudsim_disk",
                        block.nullValue(),
                        ProposedNewState.of(block, block.nullValue(), cfg),
                        cfg,
                        null))
                .plannedState();
        var first = p.applyResourceChange(
                new Provider.ApplyRequest("cloudsim_disk", block.nullValue(), planned, cfg, null, "t1"));
        assertThat(first.diagnostics().hasErrors()).isFalse();
        long before = now.get();
        var throttled = p.applyResourceChange(
                new Provider.ApplyRequest("cloudsim_disk", block.nullValue(), planned, cfg, null, "t2"));
        // Retry-After says 1 s (whole seconds); the simulator's X-Retry-After-Ms the exact 25 ms.
        assertThat(throttled.diagnostics().failure()).contains(Failure.retryAfter(java.time.Duration.ofMillis(25)));
        assertThat(throttled.diagnostics().asList().get(0).detail())
                .isEqualTo("POST /v1/disks to " + sim.url() + " did not succeed after 1 attempt (last: throttled).");
        assertThat(throttled.newState().isNull()).as("nothing was created").isTrue();
        assertThat(now.get())
                .as("no sleep inside the provider: the engine's limiter decides when to try again")
                .isEqualTo(before);
        assertThat(raw("GET", "/admin/counters")).contains("\"throttled\":1").contains("\"creates\":1");
    }

    /** Plans and applies one create through the provider protocol alone (no refresh after it). */
    private static Value create(Provider p, String type, Value config) {
        var block = p.schema().resourceType(type).block();
        Value cfg = SchemaValues.coerce(block, config).value();
        Value planned = p.planResourceChange(new Provider.PlanRequest(
                        type, block.nullValue(), ProposedNewState.of(block, block.nullValue(), cfg), cfg, null))
                .plannedState();
        var applied =
                p.applyResourceChange(new Provider.ApplyRequest(type, block.nullValue(), planned, cfg, null, "token"));
        assertThat(applied.diagnostics().hasErrors())
                .as(applied.diagnostics().toString())
                .isFalse();
        return applied.newState();
    }

    @Test
    void aCreateWhoseAnswerShowsAReadyVisibleObjectIsOneRequest() throws Exception {
        ProviderTester t = tester(Knobs.DEFAULT, 5);
        Value disk = create(t.provider(), "cloudsim_disk", Value.objectOf("size_gb", Value.number(10)));
        assertThat(str(disk, "id")).startsWith("vol-");
        assertThat(disk.attributes().get("size_gb")).isEqualTo(Value.number(10));
        assertThat(raw("GET", "/admin/counters"))
                .as("the create's answer is the object: no confirming read")
                .contains("\"requests_total\":1,");
    }

    @Test
    void aCreateNotVisibleYetWaitsAsLongAsTheApiSaidThenReadsOnce() throws Exception {
        sim = CloudSim.start(0, null, new Knobs(1500, 0, 0, 10, 0, 0, 0, 0, 0), now::get, 3);
        List<java.time.Duration> sleeps = new java.util.ArrayList<>();
        CloudsimProvider provider = new CloudsimProvider(d -> {
            sleeps.add(d);
            now.addAndGet(d.toNanos());
        });
        ProviderTester t = ProviderTester.configure(provider, Map.of("endpoint", Value.string(sim.url())));
        Value net = create(t.provider(), "cloudsim_network", Value.objectOf("cidr", Value.string("10.0.0.0/16")));
        assertThat(str(net, "id")).startsWith("net-");
        assertThat(sleeps).containsExactly(java.time.Duration.ofMillis(1500));
        assertThat(raw("GET", "/admin/counters"))
                .as("the create, then one read when the API said it would show the object")
                .contains("\"requests_total\":2,");
    }

    @Test
    void withoutRetriesA429IsATransientFailureCarryingTheServersRetryAfter() throws Exception {
        ProviderTester t = tester(Knobs.DEFAULT, 0);
        Value disk = t.resource("cloudsim_disk")
                .apply(Map.of("size_gb", Value.number(10)))
                .state();
        // 50 requests per second, no burst, and a clock that stands still: the second request is throttled.
        sim.setKnobs(Knobs.DEFAULT.with(
                new com.fasterxml.jackson.databind.ObjectMapper().readTree("{\"rate_per_second\": 50, \"burst\": 1}")));
        Provider p = t.provider();
        var first = p.readResource(new Provider.ReadRequest("cloudsim_disk", disk, null));
        assertThat(first.diagnostics().hasErrors()).isFalse();
        long before = now.get();
        var throttled = p.readResource(new Provider.ReadRequest("cloudsim_disk", disk, null));
        assertThat(throttled.diagnostics().failure()).contains(Failure.retryAfter(java.time.Duration.ofMillis(20)));
        assertThat(throttled.newState()).as("a throttled read keeps the object").isEqualTo(disk);
        assertThat(now.get())
                .as("no wait inside the provider when it may not retry")
                .isEqualTo(before);
        assertThat(raw("GET", "/admin/counters")).contains("\"throttled\":1");
    }

    @Test
    void anInterruptWhileWaitingToRetryEndsTheRequestAtOnce() throws Exception {
        ProviderTester t = tester(Knobs.DEFAULT, 5);
        Value disk = t.resource("cloudsim_disk")
                .apply(Map.of("size_gb", Value.number(10)))
                .state();
        sim.setKnobs(new Knobs(0, 0, 0, 10, 1.0, 0, 0, 0, 0));
        java.util.concurrent.atomic.AtomicInteger waits = new java.util.concurrent.atomic.AtomicInteger();
        var p = ProviderTester.configure(
                        new CloudsimProvider(d -> {
                            waits.incrementAndGet();
                            throw new InterruptedException();
                        }),
                        Map.of("endpoint", Value.string(sim.url()), "max_retries", Value.number(5)))
                .provider();
        try {
            var r = p.readResource(new Provider.ReadRequest("cloudsim_disk", disk, null));
            assertThat(r.diagnostics().asList())
                    .singleElement()
                    .satisfies(d -> assertThat(d.detail()).endsWith("(last: interrupted)."));
            assertThat(r.diagnostics().failure()).containsInstanceOf(Failure.Transient.class);
            assertThat(waits).as("no retry after the interrupted wait").hasValue(1);
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void aSimulatorThatIsDownFailsPermanentlyAfterOneQuickRetryNamingTheEndpoint() throws Exception {
        ProviderTester t = tester(Knobs.DEFAULT, 5);
        Value disk = t.resource("cloudsim_disk")
                .apply(Map.of("size_gb", Value.number(10)))
                .state();
        String url = sim.url().replaceAll("/+$", "");
        sim.close();
        sim = null;
        long before = now.get();
        var r = t.provider().readResource(new Provider.ReadRequest("cloudsim_disk", disk, null));
        // Permanent: the engine must not spend minutes of throttling retries on a refused connection.
        assertThat(r.diagnostics().failure()).containsInstanceOf(Failure.Permanent.class);
        assertThat(r.diagnostics().asList()).singleElement().satisfies(d -> {
            assertThat(d.summary()).isEqualTo("Cloud API unreachable");
            assertThat(d.detail())
                    .contains("could not connect to " + url + ": connection refused")
                    .doesNotContain("Exception");
        });
        assertThat(now.get() - before)
                .as("one pause before the single retry, not max_retries backoffs")
                .isEqualTo(SimClient.CONNECT_RETRY_PAUSE.toNanos());

        ProviderTester noRetries = ProviderTester.configure(
                new CloudsimProvider(d -> now.addAndGet(d.toNanos())),
                Map.of("endpoint", Value.string(url), "max_retries", Value.number(0)));
        before = now.get();
        var once = noRetries.provider().readResource(new Provider.ReadRequest("cloudsim_disk", disk, null));
        assertThat(once.diagnostics().failure()).containsInstanceOf(Failure.Permanent.class);
        assertThat(now.get()).as("max_retries = 0 never waits").isEqualTo(before);
    }

    @Test
    void aSimulatorThatStopsWhileACreateWaitsToBeVisibleEndsTheWaitAtOnce() throws Exception {
        sim = CloudSim.start(0, null, new Knobs(1500, 0, 0, 10, 0, 0, 0, 0, 0), now::get, 3);
        java.util.List<java.time.Duration> sleeps = new java.util.ArrayList<>();
        CloudsimProvider provider = new CloudsimProvider(d -> {
            sleeps.add(d);
            now.addAndGet(d.toNanos());
            if (sim != null) {
                // The simulator goes away while the new disk is not visible yet.
                sim.close();
                sim = null;
            }
        });
        var p = ProviderTester.configure(
                        provider,
                        Map.of(
                                "endpoint",
                                Value.string(sim.url()),
                                "max_retries",
                                Value.number(5),
                                "consistency_timeout_seconds",
                                Value.number(30)))
                .provider();
        var block = p.schema().resourceType("cloudsim_disk").block();
        Value cfg = SchemaValues.coerce(block, Value.objectOf("size_gb", Value.number(10)))
                .value();
        var plan = p.planResourceChange(new Provider.PlanRequest(
                "cloudsim_disk", block.nullValue(), ProposedNewState.of(block, block.nullValue(), cfg), cfg, null));
        var applied = p.applyResourceChange(new Provider.ApplyRequest(
                "cloudsim_disk", block.nullValue(), plan.plannedState(), cfg, null, "token-1"));
        assertThat(applied.diagnostics().asList())
                .extracting(d -> d.summary())
                .containsExactly("Cloud API unreachable");
        assertThat(str(applied.newState(), "id"))
                .as("the create happened and is recorded")
                .startsWith("vol-");
        // One wait for visibility, one before the single retry of the refused connection; not 30 s of polling.
        assertThat(sleeps).hasSize(2);
    }

    @Test
    void aCreateWhoseConfirmingReadIsThrottledStillSucceeds() throws Exception {
        // Visible after 100 ms, when the bucket holds half a token: the read is throttled once.
        ProviderTester t = tester(new Knobs(100, 0, 5, 1, 0, 0, 0, 0, 0), 0);
        Provider p = t.provider();
        var block = p.schema().resourceType("cloudsim_disk").block();
        Value cfg = SchemaValues.coerce(block, Value.objectOf("size_gb", Value.number(10)))
                .value();
        Value planned = p.planResourceChange(new Provider.PlanRequest(
                        "cloudsim_disk",
                        block.nullValue(),
                        ProposedNewState.of(block, block.nullValue(), cfg),
                        cfg,
                        null))
                .plannedState();
        var created = p.applyResourceChange(
                new Provider.ApplyRequest("cloudsim_disk", block.nullValue(), planned, cfg, null, "t1"));
        assertThat(created.diagnostics().hasErrors()).isFalse();
        assertThat(str(created.newState(), "id")).startsWith("vol-");
        assertThat(raw("GET", "/admin/counters")).contains("\"throttled\":1");
    }

    @Test
    void serverFaultsAreRetriedThenReportedAsTransient() throws Exception {
        ProviderTester t = tester(new Knobs(0, 0, 0, 10, 0.3, 0, 0, 0.1, 0), 8);
        ResourceTester r = t.resource("cloudsim_dns_record");
        Value rec = r.apply(Map.of(
                        "zone",
                        Value.string("example.com"),
                        "name",
                        Value.string("www"),
                        "type",
                        Value.string("A"),
                        "records",
                        Value.list(Type.STRING, List.of(Value.string("10.0.0.1")))))
                .state();
        assertThat(rec.attributes().get("ttl")).isEqualTo(Value.number(300));
        r.destroy();

        sim.setKnobs(new Knobs(0, 0, 0, 10, 1.0, 0, 0, 0, 0));
        Provider p = t.provider();
        var block = p.schema().resourceType("cloudsim_disk").block();
        Value cfg = SchemaValues.coerce(block, Value.objectOf("size_gb", Value.number(5)))
                .value();
        Value planned = p.planResourceChange(new Provider.PlanRequest(
                        "cloudsim_disk",
                        block.nullValue(),
                        ProposedNewState.of(block, block.nullValue(), cfg),
                        cfg,
                        null))
                .plannedState();
        var failed = p.applyResourceChange(
                new Provider.ApplyRequest("cloudsim_disk", block.nullValue(), planned, cfg, null, "t"));
        assertThat(failed.diagnostics().failure()).containsInstanceOf(Failure.Transient.class);
        assertThat(failed.newState().isNull()).isTrue();
    }

    @Test
    void loadBalancerAndDiskAttachment() throws Exception {
        ProviderTester t = tester(Knobs.DEFAULT, 2);
        Value n = t.resource("cloudsim_network")
                .apply(Map.of("cidr", Value.string("10.1.0.0/16")))
                .state();
        Value s = t.resource("cloudsim_subnet")
                .apply(Map.of("network_id", n.attributes().get("id"), "cidr", Value.string("10.1.0.0/24")))
                .state();
        Value i = t.resource("cloudsim_instance")
                .apply(Map.of(
                        "subnet_id",
                        s.attributes().get("id"),
                        "image",
                        Value.string("img"),
                        "size",
                        Value.string("small")))
                .state();
        ResourceTester lb = t.resource("cloudsim_load_balancer");
        Value l = lb.apply(Map.of(
                        "network_id",
                        n.attributes().get("id"),
                        "target_instance_ids",
                        Value.set(Type.STRING, List.of(i.attributes().get("id")))))
                .state();
        assertThat(str(l, "dns_name")).endsWith(".lb.sim.internal");
        assertThat(lb.apply(Map.of(
                                "network_id",
                                n.attributes().get("id"),
                                "target_instance_ids",
                                Value.set(Type.STRING, List.of())))
                        .action())
                .isEqualTo(Action.UPDATE);
        Value d = t.resource("cloudsim_disk")
                .apply(Map.of("size_gb", Value.number(20)))
                .state();
        ResourceTester att = t.resource("cloudsim_disk_attachment");
        att.apply(Map.of(
                "disk_id",
                d.attributes().get("id"),
                "instance_id",
                i.attributes().get("id")));
        att.importAndVerify(str(att.state(), "id"), Set.of());
        att.destroy();
        lb.destroy();
    }

    private String send(String method, String path, String json) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(sim.url() + path))
                                .method(method, HttpRequest.BodyPublishers.ofString(json))
                                .header("Content-Type", "application/json")
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        return r.statusCode() + " " + r.body();
    }

    /** One kind: a configuration, a change made outside Strata (a PATCH body) and the attribute it shows in. */
    private record Kind(
            String type, String api, Map<String, Value> config, String patch, String attribute, Value drifted) {}

    @Test
    void everyKindImportsAndShowsChangesAndDeletionsMadeOutside() throws Exception {
        ProviderTester t = tester(Knobs.DEFAULT, 2);
        Value n = t.resource("cloudsim_network")
                .apply(Map.of("cidr", Value.string("10.7.0.0/16")))
                .state();
        Value netId = n.attributes().get("id");
        List<Kind> kinds = List.of(
                new Kind(
                        "cloudsim_network",
                        "networks",
                        Map.of("cidr", Value.string("10.8.0.0/16"), "name", Value.string("a")),
                        "{\"name\": \"b\"}",
                        "name",
                        Value.string("b")),
                new Kind(
                        "cloudsim_subnet",
                        "subnets",
                        Map.of("network_id", netId, "cidr", Value.string("10.7.1.0/24"), "name", Value.string("a")),
                        "{\"name\": \"b\"}",
                        "name",
                        Value.string("b")),
                new Kind(
                        "cloudsim_security_group",
                        "security_groups",
                        Map.of("network_id", netId, "name", Value.string("a")),
                        "{\"name\": \"b\"}",
                        "name",
                        Value.string("b")),
                new Kind(
                        "cloudsim_disk",
                        "disks",
                        Map.of("size_gb", Value.number(10)),
                        "{\"size_gb\": 40}",
                        "size_gb",
                        Value.number(40)),
                new Kind("cloudsim_bucket", "buckets", Map.of("name", Value.string("drift-bucket")), null, null, null),
                new Kind(
                        "cloudsim_dns_record",
                        "dns_records",
                        Map.of(
                                "zone",
                                Value.string("example.com"),
                                "name",
                                Value.string("api"),
                                "type",
                                Value.string("A"),
                                "records",
                                Value.list(Type.STRING, List.of(Value.string("10.0.0.9"))),
                                "ttl",
                                Value.number(60)),
                        "{\"ttl\": 5}",
                        "ttl",
                        Value.number(5)),
                new Kind(
                        "cloudsim_load_balancer",
                        "load_balancers",
                        Map.of("network_id", netId, "name", Value.string("a")),
                        "{\"name\": \"b\"}",
                        "name",
                        Value.string("b")));
        for (Kind k : kinds) {
            ResourceTester r = t.resource(k.type());
            String id = str(r.apply(k.config()).state(), "id");
            r.importAndVerify(id, Set.of());
            if (k.patch() != null) {
                assertThat(send("PATCH", "/v1/" + k.api() + "/" + id, k.patch()))
                        .as(k.type())
                        .startsWith("200");
                assertThat(r.refresh().attributes().get(k.attribute()))
                        .as(k.type())
                        .isEqualTo(k.drifted());
                // A disk grown outside cannot shrink back: that is a new disk.
                assertThat(r.apply(k.config()).action())
                        .as(k.type() + " repaired")
                        .isEqualTo(k.type().equals("cloudsim_disk") ? Action.REPLACE : Action.UPDATE);
                id = str(r.state(), "id");
            }
            assertThat(raw("DELETE", "/v1/" + k.api() + "/" + id)).as(k.type()).startsWith("204");
            assertThat(r.refresh().isNull()).as(k.type() + " deleted outside").isTrue();
            assertThat(r.apply(k.config()).action()).as(k.type()).isEqualTo(Action.CREATE);
            r.destroy();
        }
    }
}
