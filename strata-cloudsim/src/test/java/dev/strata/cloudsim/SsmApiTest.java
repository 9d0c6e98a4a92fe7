package dev.strata.cloudsim;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/** The simulator's SSM Parameter Store in AWS's JSON 1.1 protocol, as the AWS SDK calls it. */
class SsmApiTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newHttpClient();

    private record Reply(int status, JsonNode body, String errorType) {}

    private Reply call(CloudSim sim, String action, String body) throws Exception {
        HttpRequest req = HttpRequest.newBuilder(URI.create(sim.url() + "/"))
                .header("X-Amz-Target", "AmazonSSM." + action)
                .header("Content-Type", "application/x-amz-json-1.1")
                .header(
                        "Authorization",
                        "AWS4-HMAC-SHA256 Credential=mock/20260101/eu-west-1/ssm/aws4_request, "
                                + "SignedHeaders=host, Signature=0")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        HttpResponse<String> r = http.send(req, HttpResponse.BodyHandlers.ofString());
        return new Reply(
                r.statusCode(),
                JSON.readTree(r.body()),
                r.headers().firstValue("X-Amzn-ErrorType").orElse(""));
    }

    /** Tests catch a provider mid-call with the latency knob, and see what it asked for by action. */
    @Test
    void ssmRequestsWaitTheLatencyAndAreCountedByAction() throws Exception {
        try (CloudSim sim = CloudSim.start(0, null, new Knobs(0, 0, 0, 10, 0, 25, 0, 0, 0))) {
            java.util.List<Long> waits = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
            sim.setWaiterForTest(waits::add);
            call(sim, "PutParameter", "{\"Name\":\"/a\",\"Value\":\"v\",\"Type\":\"String\"}");
            call(sim, "GetParameter", "{\"Name\":\"/a\"}");
            call(sim, "GetParameter", "{\"Name\":\"/nope\"}");
            assertThat(waits).containsExactly(25L, 25L, 25L);
            assertThat(sim.ssmRequests())
                    .containsExactly(java.util.Map.entry("GetParameter", 2L), java.util.Map.entry("PutParameter", 1L));
            assertThat(sim.ssmParameters()).containsExactly(java.util.Map.entry("/a", 1L));
        }
    }

    @Test
    void getParameterTakesAnArnAsTheName() throws Exception {
        try (CloudSim sim = CloudSim.start(0, null, Knobs.DEFAULT)) {
            call(sim, "PutParameter", "{\"Name\":\"/app/db\",\"Value\":\"s3cret\",\"Type\":\"SecureString\"}");
            call(sim, "PutParameter", "{\"Name\":\"flat\",\"Value\":\"f\",\"Type\":\"String\"}");
            String arn = call(sim, "GetParameter", "{\"Name\":\"/app/db\"}")
                    .body()
                    .at("/Parameter/ARN")
                    .asText();
            JsonNode p = call(sim, "GetParameter", "{\"Name\":\"" + arn + "\",\"WithDecryption\":true}")
                    .body()
                    .get("Parameter");
            assertThat(p.get("Name").asText()).isEqualTo("/app/db");
            assertThat(p.get("Value").asText()).isEqualTo("s3cret");
            assertThat(call(sim, "GetParameter", "{\"Name\":\"arn:aws:ssm:eu-west-1:123456789012:parameter/flat\"}")
                            .body()
                            .at("/Parameter/Value")
                            .asText())
                    .isEqualTo("f");
            assertThat(call(sim, "GetParameter", "{\"Name\":\"arn:aws:ssm:eu-west-1:1:parameter/nope\"}")
                            .errorType())
                    .isEqualTo("ParameterNotFound");
        }
    }

    @Test
    void parameterLifecycleWithTags() throws Exception {
        try (CloudSim sim = CloudSim.start(0, null, Knobs.DEFAULT)) {
            Reply put = call(
                    sim,
                    "PutParameter",
                    "{\"Name\":\"/app/db\",\"Value\":\"v1\",\"Type\":\"String\","
                            + "\"Tags\":[{\"Key\":\"team\",\"Value\":\"a\"}]}");
            assertThat(put.status()).isEqualTo(200);
            assertThat(put.body().get("Version").asLong()).isEqualTo(1);

            Reply again = call(sim, "PutParameter", "{\"Name\":\"/app/db\",\"Value\":\"v2\",\"Type\":\"String\"}");
            assertThat(again.status()).isEqualTo(400);
            assertThat(again.body().get("__type").asText()).isEqualTo("ParameterAlreadyExists");
            assertThat(again.errorType()).isEqualTo("ParameterAlreadyExists");
            Reply over = call(sim, "PutParameter", "{\"Name\":\"/app/db\",\"Value\":\"v2\",\"Overwrite\":true}");
            assertThat(over.body().get("Version").asLong()).isEqualTo(2);

            JsonNode p = call(sim, "GetParameter", "{\"Name\":\"/app/db\",\"WithDecryption\":true}")
                    .body()
                    .get("Parameter");
            assertThat(p.get("Value").asText()).isEqualTo("v2");
            assertThat(p.get("ARN").asText()).isEqualTo("arn:aws:ssm:eu-west-1:123456789012:parameter/app/db");

            JsonNode described = call(
                            sim,
                            "DescribeParameters",
                            "{\"ParameterFilters\":[{\"Key\":\"Name\",\"Option\":\"Equals\",\"Values\":[\"/app/db\"]}]}")
                    .body();
            assertThat(described.get("Parameters")).hasSize(1);
            assertThat(described.get("Parameters").get(0).get("Tier").asText()).isEqualTo("Standard");

            JsonNode many = call(sim, "GetParameters", "{\"Names\":[\"/app/db\",\"/nope\"]}")
                    .body();
            assertThat(many.get("Parameters")).hasSize(1);
            assertThat(many.get("InvalidParameters").get(0).asText()).isEqualTo("/nope");

            call(
                    sim,
                    "AddTagsToResource",
                    "{\"ResourceType\":\"Parameter\",\"ResourceId\":\"/app/db\","
                            + "\"Tags\":[{\"Key\":\"env\",\"Value\":\"prod\"}]}");
            call(
                    sim,
                    "RemoveTagsFromResource",
                    "{\"ResourceType\":\"Parameter\",\"ResourceId\":\"/app/db\"," + "\"TagKeys\":[\"team\"]}");
            JsonNode tags = call(
                            sim, "ListTagsForResource", "{\"ResourceType\":\"Parameter\",\"ResourceId\":\"/app/db\"}")
                    .body()
                    .get("TagList");
            assertThat(tags).hasSize(1);
            assertThat(tags.get(0).get("Key").asText()).isEqualTo("env");

            assertThat(call(sim, "DeleteParameter", "{\"Name\":\"/app/db\"}").status())
                    .isEqualTo(200);
            Reply missing = call(sim, "GetParameter", "{\"Name\":\"/app/db\"}");
            assertThat(missing.status()).isEqualTo(400);
            assertThat(missing.body().get("__type").asText()).isEqualTo("ParameterNotFound");
            assertThat(call(sim, "Nonsense", "{}").body().get("__type").asText())
                    .isEqualTo("InvalidAction");
        }
    }
}
