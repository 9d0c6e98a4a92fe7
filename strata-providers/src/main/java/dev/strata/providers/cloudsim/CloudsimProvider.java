package dev.strata.providers.cloudsim;

import dev.strata.addr.AttributePath;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import dev.strata.provider.Attribute;
import dev.strata.provider.Block;
import dev.strata.provider.NestedBlock;
import dev.strata.provider.NestingMode;
import dev.strata.provider.ProviderDiagnostics;
import dev.strata.provider.Schema;
import dev.strata.provider.sdk.Attrs;
import dev.strata.provider.sdk.SdkProvider;
import dev.strata.resilience.Sleeper;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code strata/cloudsim}: resources for every object kind of Strata's cloud simulator
 * ({@code strata-cloudsim}). Configuration: {@code endpoint} (required), {@code client_id} (sent as
 * {@code X-Client-Id}, the throttling key), {@code max_retries} (retries of server errors and broken
 * connections, default 5; throttling is never retried here, see {@link SimClient}) and
 * {@code consistency_timeout_seconds} (how long to wait for a new object to become visible and
 * ready; default 60).
 */
final class CloudsimProvider extends SdkProvider {

    private static final Schema CONFIG = Schema.of(Block.builder()
            .attribute(
                    "endpoint",
                    Attribute.required(Type.STRING)
                            .withDescription("Base URL of the simulator, e.g. http://127.0.0.1:8080"))
            .attribute(
                    "client_id",
                    Attribute.optional(Type.STRING).withDescription("Client identity for the simulator's rate limits"))
            .attribute(
                    "max_retries",
                    Attribute.optional(Type.NUMBER)
                            .withDescription("Retries of requests that failed with a server error or a broken "
                                    + "connection (default 5); a throttled request goes back to Strata's limiter"))
            .attribute(
                    "consistency_timeout_seconds",
                    Attribute.optional(Type.NUMBER)
                            .withDescription(
                                    "How long to wait for a new object to become visible and ready (default 60)"))
            .build());

    private final Sleeper sleeper;
    private volatile SimClient client;

    CloudsimProvider(Sleeper sleeper) {
        this(sleeper, new Holder());
    }

    private CloudsimProvider(Sleeper sleeper, Holder holder) {
        super(CONFIG, resources(holder), List.of());
        this.sleeper = sleeper;
        holder.provider = this;
    }

    /** Lets the resources, made before the provider, reach its client once configured. */
    static final class Holder {
        CloudsimProvider provider;

        SimClient client() {
            SimClient c = provider.client;
            if (c == null) {
                throw new IllegalStateException("the provider is not configured");
            }
            return c;
        }
    }

    private static Attribute req(Type t) {
        return Attribute.required(t);
    }

    private static Attribute opt(Type t) {
        return Attribute.optional(t);
    }

    private static Attribute comp(Type t) {
        return Attribute.computed(t);
    }

    private static List<SimResource> resources(Holder h) {
        Block rule = Block.builder()
                .attribute("protocol", req(Type.STRING))
                .attribute("from_port", req(Type.NUMBER))
                .attribute("to_port", req(Type.NUMBER))
                .attribute("cidr", req(Type.STRING))
                .build();
        return List.of(
                new SimResource(
                        "cloudsim_network",
                        "networks",
                        Block.builder()
                                .attribute("cidr", req(Type.STRING))
                                .attribute("name", opt(Type.STRING))
                                .attribute("id", comp(Type.STRING))
                                .attribute("arn", comp(Type.STRING))
                                .build(),
                        Set.of("cidr"),
                        Set.of("name"),
                        Map.of(),
                        null,
                        h),
                new SimResource(
                        "cloudsim_subnet",
                        "subnets",
                        Block.builder()
                                .attribute("network_id", req(Type.STRING))
                                .attribute("cidr", req(Type.STRING))
                                .attribute("name", opt(Type.STRING))
                                .attribute("id", comp(Type.STRING))
                                .attribute("arn", comp(Type.STRING))
                                .build(),
                        Set.of("network_id", "cidr"),
                        Set.of("name"),
                        Map.of(),
                        null,
                        h),
                new SimResource(
                        "cloudsim_security_group",
                        "security_groups",
                        Block.builder()
                                .attribute("network_id", req(Type.STRING))
                                .attribute("name", opt(Type.STRING))
                                .block("rule", NestedBlock.of(NestingMode.LIST, rule))
                                .attribute("id", comp(Type.STRING))
                                .attribute("arn", comp(Type.STRING))
                                .build(),
                        Set.of("network_id"),
                        Set.of("name", "rule"),
                        Map.of("rule", "rules"),
                        null,
                        h),
                new SimResource(
                        "cloudsim_instance",
                        "instances",
                        Block.builder()
                                .attribute("subnet_id", req(Type.STRING))
                                .attribute("image", req(Type.STRING))
                                .attribute("size", req(Type.STRING))
                                .attribute("name", opt(Type.STRING))
                                .attribute("security_group_ids", Attribute.optionalComputed(Type.set(Type.STRING)))
                                .attribute("id", comp(Type.STRING))
                                .attribute("arn", comp(Type.STRING))
                                .attribute("private_ip", comp(Type.STRING))
                                .attribute("status", comp(Type.STRING))
                                .build(),
                        Set.of("subnet_id", "image"),
                        Set.of("size", "name", "security_group_ids"),
                        Map.of(),
                        "running",
                        h),
                new SimResource(
                                "cloudsim_disk",
                                "disks",
                                Block.builder()
                                        .attribute("size_gb", req(Type.NUMBER))
                                        .attribute("name", opt(Type.STRING))
                                        .attribute("id", comp(Type.STRING))
                                        .attribute("arn", comp(Type.STRING))
                                        .build(),
                                Set.of(),
                                Set.of("size_gb", "name"),
                                Map.of(),
                                null,
                                h)
                        .growOnly("size_gb"),
                new SimResource(
                        "cloudsim_disk_attachment",
                        "attachments",
                        Block.builder()
                                .attribute("disk_id", req(Type.STRING))
                                .attribute("instance_id", req(Type.STRING))
                                .attribute("id", comp(Type.STRING))
                                .attribute("arn", comp(Type.STRING))
                                .build(),
                        Set.of("disk_id", "instance_id"),
                        Set.of(),
                        Map.of(),
                        null,
                        h),
                new SimResource(
                        "cloudsim_bucket",
                        "buckets",
                        Block.builder()
                                .attribute("name", req(Type.STRING))
                                .attribute("id", comp(Type.STRING))
                                .attribute("arn", comp(Type.STRING))
                                .build(),
                        Set.of("name"),
                        Set.of(),
                        Map.of(),
                        null,
                        h),
                new SimResource(
                        "cloudsim_dns_record",
                        "dns_records",
                        Block.builder()
                                .attribute("zone", req(Type.STRING))
                                .attribute("name", req(Type.STRING))
                                .attribute("type", req(Type.STRING))
                                .attribute("ttl", Attribute.optionalComputed(Type.NUMBER))
                                .attribute("records", req(Type.list(Type.STRING)))
                                .attribute("id", comp(Type.STRING))
                                .attribute("arn", comp(Type.STRING))
                                .build(),
                        Set.of("zone", "name", "type"),
                        Set.of("ttl", "records"),
                        Map.of(),
                        null,
                        h),
                new SimResource(
                        "cloudsim_load_balancer",
                        "load_balancers",
                        Block.builder()
                                .attribute("network_id", req(Type.STRING))
                                .attribute("name", opt(Type.STRING))
                                .attribute("target_instance_ids", Attribute.optionalComputed(Type.set(Type.STRING)))
                                .attribute("id", comp(Type.STRING))
                                .attribute("arn", comp(Type.STRING))
                                .attribute("dns_name", comp(Type.STRING))
                                .build(),
                        Set.of("network_id"),
                        Set.of("name", "target_instance_ids"),
                        Map.of(),
                        null,
                        h));
    }

    @Override
    protected void validateConfig(Value config, ProviderDiagnostics.Builder diags) {
        Value e = Attrs.get(config, "endpoint").unmarkDeep();
        if (e.isKnownAndNotNull() && !e.asString().matches("https?://.+")) {
            diags.error(
                    "Invalid endpoint", "endpoint must be an http:// or https:// URL.", AttributePath.of("endpoint"));
        }
    }

    @Override
    protected void configure(Value config, ProviderDiagnostics.Builder diags) {
        BigDecimal retries = Attrs.number(config, "max_retries");
        BigDecimal timeout = Attrs.number(config, "consistency_timeout_seconds");
        SimClient previous = client;
        client = new SimClient(
                Attrs.string(config, "endpoint"),
                Attrs.string(config, "client_id"),
                retries == null ? 5 : retries.intValue(),
                Duration.ofSeconds(timeout == null ? 60 : timeout.longValue()),
                sleeper);
        if (previous != null) {
            previous.close();
        }
    }

    /** Closes the client's idle connections. */
    @Override
    public void close() {
        SimClient c = client;
        if (c != null) {
            c.close();
        }
    }
}
