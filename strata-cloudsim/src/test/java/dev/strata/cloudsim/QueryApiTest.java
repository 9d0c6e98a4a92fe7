package dev.strata.cloudsim;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.NodeList;

/** The simulator's EC2 and STS read actions in AWS's Query protocol, as the AWS SDK calls them. */
class QueryApiTest {
    private final HttpClient http = HttpClient.newHttpClient();

    private record Reply(int status, Document xml) {
        List<String> texts(String tag) {
            NodeList n = xml.getElementsByTagName(tag);
            List<String> out = new ArrayList<>();
            for (int i = 0; i < n.getLength(); i++) {
                out.add(n.item(i).getTextContent());
            }
            return out;
        }
    }

    private Reply call(CloudSim sim, String form) throws Exception {
        HttpRequest req = HttpRequest.newBuilder(URI.create(sim.url() + "/"))
                .header("Content-Type", "application/x-www-form-urlencoded; charset=utf-8")
                .header(
                        "Authorization",
                        "AWS4-HMAC-SHA256 Credential=mock/20260101/eu-west-1/ec2/aws4_request, "
                                + "SignedHeaders=host, Signature=0")
                .POST(HttpRequest.BodyPublishers.ofString(form))
                .build();
        HttpResponse<String> r = http.send(req, HttpResponse.BodyHandlers.ofString());
        Document d = DocumentBuilderFactory.newInstance()
                .newDocumentBuilder()
                .parse(new ByteArrayInputStream(r.body().getBytes(StandardCharsets.UTF_8)));
        return new Reply(r.statusCode(), d);
    }

    @Test
    void availabilityZonesOfTheSignedRegion() throws Exception {
        try (CloudSim sim = CloudSim.start(0, null, Knobs.DEFAULT)) {
            Reply r = call(
                    sim,
                    "Action=DescribeAvailabilityZones&Version=2016-11-15&Filter.1.Name=state"
                            + "&Filter.1.Value.1=available");
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.texts("zoneName")).containsExactly("eu-west-1a", "eu-west-1b", "eu-west-1c");
            assertThat(r.texts("zoneId")).containsExactly("euw1-az1", "euw1-az2", "euw1-az3");
            Reply none = call(
                    sim,
                    "Action=DescribeAvailabilityZones&Version=2016-11-15&Filter.1.Name=state"
                            + "&Filter.1.Value.1=impaired");
            assertThat(none.texts("zoneName")).isEmpty();
            Reply one = call(sim, "Action=DescribeAvailabilityZones&Version=2016-11-15&ZoneName.1=eu-west-1b");
            assertThat(one.texts("zoneName")).containsExactly("eu-west-1b");
        }
    }

    @Test
    void endpointServicesByNameAndType() throws Exception {
        try (CloudSim sim = CloudSim.start(0, null, Knobs.DEFAULT)) {
            Reply both = call(
                    sim,
                    "Action=DescribeVpcEndpointServices&Version=2016-11-15"
                            + "&ServiceName.1=com.amazonaws.eu-west-1.s3");
            // serviceType is a list whose items hold a serviceType each: the tag appears twice per service.
            assertThat(both.texts("serviceName")).hasSize(2);
            assertThat(both.texts("serviceType")).containsExactly("Gateway", "Gateway", "Interface", "Interface");
            Reply gw = call(
                    sim,
                    "Action=DescribeVpcEndpointServices&Version=2016-11-15"
                            + "&Filter.1.Name=service-name&Filter.1.Value.1=com.amazonaws.eu-west-1.s3"
                            + "&Filter.2.Name=service-type&Filter.2.Value.1=Gateway");
            assertThat(gw.texts("serviceName")).containsExactly("com.amazonaws.eu-west-1.s3");
            assertThat(gw.texts("serviceType")).containsOnly("Gateway");
            assertThat(gw.texts("owner")).containsExactly("amazon");
        }
    }

    @Test
    void callerIdentityAndUnknownActions() throws Exception {
        try (CloudSim sim = CloudSim.start(0, null, Knobs.DEFAULT)) {
            Reply id = call(sim, "Action=GetCallerIdentity&Version=2011-06-15");
            assertThat(id.texts("Account")).containsExactly("123456789012");
            Reply bad = call(sim, "Action=RunInstances&Version=2016-11-15");
            assertThat(bad.status()).isEqualTo(400);
            assertThat(bad.texts("Code")).containsExactly("InvalidAction");
        }
    }

    @Test
    void zoneIdsUseAwsShortRegionNames() {
        assertThat(QueryApi.abbreviation("us-east-1")).isEqualTo("use1");
        assertThat(QueryApi.abbreviation("ap-southeast-2")).isEqualTo("apse2");
        assertThat(QueryApi.abbreviation("eu-central-1")).isEqualTo("euc1");
    }
}
