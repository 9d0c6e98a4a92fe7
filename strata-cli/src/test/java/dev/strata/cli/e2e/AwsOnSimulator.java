package dev.strata.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.strata.cloudsim.CloudSim;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What the tests running the real AWS provider 5.100 against the simulator share: the provider from the
 * filesystem mirror (skipping the test where it is absent) and the simulator's SSM API, for setting up
 * and checking parameters as another tool would.
 */
final class AwsOnSimulator {
    static final Path MIRROR = Path.of(System.getProperty("strata.test.pluginMirror", "/opt/tf-plugins"));
    static final String AWS = "registry.terraform.io/hashicorp/aws";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private AwsOnSimulator() {}

    /** Skips the calling test unless the mirror holds the AWS provider 5.100 for this platform. */
    static void assumeProvider() {
        assumeTrue(
                Files.isDirectory(MIRROR.resolve(AWS).resolve("5.100.0/linux_amd64")), "no AWS provider in " + MIRROR);
    }

    /**
     * After {@link #assumeProvider}: writes {@code file}, a CLI configuration that installs the AWS
     * provider from the mirror (for Strata and terraform alike), and returns it.
     */
    static Path cliConfig(Path file) throws IOException {
        assumeProvider();
        return writeCliConfig(file);
    }

    /** Writes {@code file}, a CLI configuration that installs the AWS provider from the mirror, and returns it. */
    static Path writeCliConfig(Path file) throws IOException {
        Files.writeString(
                file,
                "provider_installation {\n  filesystem_mirror {\n    path    = \"" + MIRROR + "\"\n    include = [\""
                        + AWS + "\"]\n  }\n}\n");
        return file;
    }

    /** Calls the simulator's SSM API (the JSON 1.1 protocol); the call must succeed. Returns the answer. */
    static JsonNode ssm(CloudSim sim, String action, ObjectNode body) throws IOException, InterruptedException {
        HttpResponse<String> r = send(sim, action, body);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return JSON.readTree(r.body());
    }

    private static HttpResponse<String> send(CloudSim sim, String action, ObjectNode body)
            throws IOException, InterruptedException {
        return HTTP.send(
                HttpRequest.newBuilder(URI.create(sim.url() + "/"))
                        .header("X-Amz-Target", "AmazonSSM." + action)
                        .header("Content-Type", "application/x-amz-json-1.1")
                        .POST(HttpRequest.BodyPublishers.ofString(body.toString()))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** The HTTP status of {@code GetParameter} for {@code name}: 400 once the parameter is gone. */
    static int parameterStatus(CloudSim sim, String name) throws IOException, InterruptedException {
        return send(sim, "GetParameter", JSON.createObjectNode().put("Name", name))
                .statusCode();
    }

    /** The body of a {@code PutParameter} call: name, value and type; callers add the rest. */
    static ObjectNode parameter(String name, String value, String type) {
        return JSON.createObjectNode().put("Name", name).put("Value", value).put("Type", type);
    }

    /** Creates a parameter directly in the simulator, as another tool would. */
    static void putParameter(CloudSim sim, ObjectNode parameter) throws IOException, InterruptedException {
        ssm(sim, "PutParameter", parameter);
    }

    /** A parameter as {@code GetParameter} returns it, decrypted. */
    static JsonNode getParameter(CloudSim sim, String name) throws IOException, InterruptedException {
        return ssm(
                        sim,
                        "GetParameter",
                        JSON.createObjectNode().put("Name", name).put("WithDecryption", true))
                .path("Parameter");
    }

    /** The resource blocks of a plan's text ("  # addr ..." up to the block's closing brace). */
    static List<String> planBlocks(String plan) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = null;
        for (String line : plan.split("\n")) {
            if (line.startsWith("  # ")) {
                cur = new StringBuilder();
            }
            if (cur != null) {
                cur.append(line).append('\n');
                if (line.equals("    }")) {
                    out.add(cur.toString());
                    cur = null;
                }
            }
        }
        return out;
    }
}
