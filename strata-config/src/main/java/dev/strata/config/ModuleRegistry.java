package dev.strata.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.strata.addr.Version;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Terraform's module registry protocol: the host's {@code modules.v1} service from its
 * {@code /.well-known/terraform.json} (or a CLI configuration {@code host} block), the versions of a
 * package ({@code GET <base>/NS/NAME/SYSTEM/versions}) and where one version's source is
 * ({@code GET <base>/NS/NAME/SYSTEM/VERSION/download}, answered with an {@code X-Terraform-Get} header
 * or a JSON {@code location}). Requests carry the host's API token.
 */
final class ModuleRegistry {
    static final String SERVICE = "modules.v1";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpTransport http;
    /** Service base URLs by host, discovered once per installation. */
    private final Map<String, URI> bases = new HashMap<>();

    ModuleRegistry(HttpTransport http) {
        this.http = http;
    }

    /** The versions the registry offers for a package, in the order it lists them; unparsable ones skipped. */
    List<Version> versions(ModuleSource.Registry pkg) throws FetchException {
        URI url = base(pkg.host()).resolve(pkg.path() + "/versions");
        HttpResponse<String> r = http.getText(url, http.access().token(pkg.host()));
        if (r.statusCode() == 404) {
            throw new FetchException("not found", true);
        }
        ok(url, r);
        List<Version> out = new ArrayList<>();
        try {
            for (JsonNode m : JSON.readTree(r.body()).path("modules")) {
                for (JsonNode v : m.path("versions")) {
                    Version.parse(v.path("version").asText("")).ifPresent(out::add);
                }
            }
        } catch (IOException e) {
            throw new FetchException("the response from " + url + " is not valid JSON: "
                    + (e instanceof com.fasterxml.jackson.core.JsonProcessingException j
                            ? j.getOriginalMessage()
                            : e.getMessage()));
        }
        return out;
    }

    /** Where the source code of one version is: the download endpoint's answer, resolved against its URL. */
    String location(ModuleSource.Registry pkg, String version) throws FetchException {
        URI url = base(pkg.host()).resolve(pkg.path() + "/" + version + "/download");
        HttpResponse<String> r = http.getText(url, http.access().token(pkg.host()));
        if (r.statusCode() == 404) {
            throw new FetchException("not found", true);
        }
        ok(url, r);
        String loc = r.headers().firstValue("X-Terraform-Get").orElse(null);
        if (loc == null && !r.body().isBlank()) {
            try {
                JsonNode j = JSON.readTree(r.body()).get("location");
                loc = j == null || !j.isTextual() ? null : j.asText();
            } catch (IOException e) {
                loc = null;
            }
        }
        if (loc == null || loc.isBlank()) {
            throw new FetchException("the registry's answer from " + url + " has no X-Terraform-Get header and no "
                    + "location: it does not say where the module's source is");
        }
        return resolve(url, loc);
    }

    /**
     * A source address a server answered with, made absolute against the URL that answered: a relative
     * URL ({@code ./x.tar.gz}, {@code /files/x.zip}) as a browser would; go-getter addresses with a
     * forced getter ({@code git::...}) or a scheme as they are.
     */
    static String resolve(URI from, String loc) {
        if (loc.startsWith("./") || loc.startsWith("../") || loc.startsWith("/") && !loc.startsWith("//")) {
            return from.resolve(loc).toString();
        }
        return loc;
    }

    private URI base(String host) throws FetchException {
        URI known = bases.get(host);
        if (known != null) {
            return known;
        }
        Optional<java.util.SortedMap<String, String>> block = http.access().hostBlock(host);
        URI base;
        if (block.isPresent()) {
            String configured = block.get().get(SERVICE);
            if (configured == null) {
                throw new FetchException("host " + host + " does not provide a modules service");
            }
            base = uri(configured, "the CLI configuration's host \"" + host + "\" block");
        } else {
            base = discover(host);
        }
        if (!base.getPath().endsWith("/")) {
            base = URI.create(base + "/");
        }
        bases.put(host, base);
        return base;
    }

    private URI discover(String host) throws FetchException {
        URI url = uri("https://" + host + "/.well-known/terraform.json", "the host name");
        HttpResponse<String> r = http.getText(url, Optional.empty());
        if (r.statusCode() == 404) {
            throw new FetchException("host " + host + " does not provide a modules service");
        }
        ok(url, r);
        JsonNode service;
        try {
            service = JSON.readTree(r.body()).get(SERVICE);
        } catch (IOException e) {
            throw new FetchException("the service discovery document " + url + " is not valid JSON: "
                    + (e instanceof com.fasterxml.jackson.core.JsonProcessingException j
                            ? j.getOriginalMessage()
                            : e.getMessage()));
        }
        if (service == null || !service.isTextual()) {
            throw new FetchException("host " + host + " does not provide a modules service");
        }
        return url.resolve(uri(service.asText(), url.toString()));
    }

    private static URI uri(String s, String where) throws FetchException {
        try {
            return new URI(s);
        } catch (URISyntaxException e) {
            throw new FetchException("\"" + s + "\" from " + where + " is not a valid URL");
        }
    }

    private static void ok(URI url, HttpResponse<String> r) throws FetchException {
        if (r.statusCode() / 100 != 2) {
            throw new FetchException("Get \"" + url + "\": bad response code: " + r.statusCode());
        }
    }
}
