package dev.strata.config;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * How {@code strata init} reaches remote module sources, from Terraform's CLI configuration:
 * {@code host "HOST" { services = { "modules.v1" = "URL" } }} blocks, which replace service discovery
 * for their host, and the API tokens of {@code credentials "HOST" { token = "..." }} blocks and
 * {@code TF_TOKEN_<host>} environment variables (the variable wins, as in Terraform), sent as bearer
 * tokens to that host's registry.
 *
 * @param services host (lower case) to its services, by service id ({@code modules.v1})
 * @param tokens   host (lower case) to the API token from the CLI configuration
 * @param env      the environment, where {@code TF_TOKEN_*} variables are looked up
 * @param timeout  how long one request may take
 */
public record RemoteAccess(
        SortedMap<String, SortedMap<String, String>> services,
        SortedMap<String, String> tokens,
        Map<String, String> env,
        Duration timeout) {
    /** No CLI configuration: discovery for every host, no credentials but the environment's. */
    public static RemoteAccess of(Map<String, String> env) {
        return new RemoteAccess(new TreeMap<>(), new TreeMap<>(), env, Duration.ofSeconds(30));
    }

    public RemoteAccess {
        SortedMap<String, SortedMap<String, String>> s = new TreeMap<>();
        services.forEach((h, m) -> s.put(h.toLowerCase(Locale.ROOT), new TreeMap<>(m)));
        services = s;
        SortedMap<String, String> t = new TreeMap<>();
        tokens.forEach((h, v) -> t.put(h.toLowerCase(Locale.ROOT), v));
        tokens = t;
        env = Map.copyOf(env);
    }

    /** The same with the CLI configuration's host blocks and credentials. */
    public RemoteAccess withConfig(
            Map<String, ? extends Map<String, String>> hostServices, Map<String, String> credentials) {
        SortedMap<String, SortedMap<String, String>> s = new TreeMap<>(services);
        hostServices.forEach((h, m) -> s.put(h.toLowerCase(Locale.ROOT), new TreeMap<>(m)));
        SortedMap<String, String> t = new TreeMap<>(tokens);
        credentials.forEach((h, v) -> t.put(h.toLowerCase(Locale.ROOT), v));
        return new RemoteAccess(s, t, env, timeout);
    }

    /**
     * The services a host block declares for a host, which then replace discovery entirely (a
     * service the block does not list is one the host does not provide); empty without a block.
     */
    Optional<SortedMap<String, String>> hostBlock(String host) {
        return Optional.ofNullable(services.get(host.toLowerCase(Locale.ROOT)));
    }

    /**
     * The API token for a host: {@code TF_TOKEN_} followed by the host name with dots as underscores
     * and hyphens as double underscores, else the CLI configuration's credentials block.
     */
    Optional<String> token(String host) {
        String h = host.toLowerCase(Locale.ROOT);
        String var = "TF_TOKEN_" + h.replace("-", "__").replace(".", "_");
        for (Map.Entry<String, String> e : env.entrySet()) {
            if (e.getKey().equalsIgnoreCase(var) && !e.getValue().isEmpty()) {
                return Optional.of(e.getValue());
            }
        }
        return Optional.ofNullable(tokens.get(h));
    }

    @Override
    public String toString() {
        // Tokens are secrets: never part of a rendering of this record.
        return "RemoteAccess[hosts=" + services.keySet() + ", credentials for " + tokens.keySet() + "]";
    }
}
