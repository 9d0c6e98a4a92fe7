package dev.strata.cloudsim;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The read-only EC2 and STS actions that the AWS provider's data sources call while planning, in
 * AWS's Query protocol ({@code POST /} with a form-encoded {@code Action=...&Version=...} body and an
 * XML answer): EC2 DescribeAvailabilityZones and DescribeVpcEndpointServices, STS
 * GetCallerIdentity. With these, configurations such as the VPC module's examples plan offline when
 * the provider's {@code endpoints { ec2 = URL, sts = URL }} point here. The region comes from the
 * request signature's credential scope; the account is always {@value SsmApi#ACCOUNT}. The answers
 * follow the response shapes of the EC2 and STS API references; the catalogue of zones and
 * endpoint services is fixed (three zones per region; the common AWS services).
 */
final class QueryApi {
    private static final Pattern REGION = Pattern.compile("Credential=[^/]+/[^/]+/([^/]+)/");
    private static final String EC2_NS = "http://ec2.amazonaws.com/doc/2016-11-15/";
    private static final String STS_NS = "https://sts.amazonaws.com/doc/2011-06-15/";

    /** Interface endpoint services every region offers here; s3 and dynamodb also have a Gateway one. */
    static final List<String> SERVICES = List.of(
            "dynamodb",
            "ec2",
            "ec2messages",
            "ecr.api",
            "ecr.dkr",
            "ecs",
            "ecs-agent",
            "ecs-telemetry",
            "elasticloadbalancing",
            "kms",
            "lambda",
            "logs",
            "monitoring",
            "rds",
            "s3",
            "secretsmanager",
            "sns",
            "sqs",
            "ssm",
            "ssmmessages",
            "sts");

    private static final List<String> GATEWAY_SERVICES = List.of("dynamodb", "s3");

    /** Whether a request is a Query-protocol call (a form-encoded POST), as opposed to the JSON APIs. */
    static boolean accepts(HttpExchange ex) {
        String type = ex.getRequestHeaders().getFirst("Content-Type");
        return ex.getRequestMethod().equals("POST")
                && type != null
                && type.toLowerCase(java.util.Locale.ROOT).startsWith("application/x-www-form-urlencoded");
    }

    /** The action a request names, for the simulator's request counters. */
    static String action(Map<String, List<String>> form) {
        return first(form, "Action");
    }

    static Map<String, List<String>> form(HttpExchange ex) throws IOException {
        String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (String pair : body.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String k = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            String v = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            out.computeIfAbsent(k, x -> new ArrayList<>()).add(v);
        }
        return out;
    }

    void handle(HttpExchange ex, Map<String, List<String>> form) throws IOException {
        String action = action(form);
        String region = region(ex);
        String requestId = UUID.randomUUID().toString();
        switch (action == null ? "" : action) {
            case "DescribeAvailabilityZones" -> send(ex, 200, describeZones(form, region, requestId));
            case "DescribeVpcEndpointServices" -> send(ex, 200, describeEndpointServices(form, region, requestId));
            case "GetCallerIdentity" -> send(ex, 200, callerIdentity(requestId));
            default -> {
                boolean sts = "2011-06-15".equals(first(form, "Version"));
                String msg = "The action " + action + " is not valid for this web service.";
                send(
                        ex,
                        400,
                        sts ? stsError("InvalidAction", msg, requestId) : ec2Error("InvalidAction", msg, requestId));
            }
        }
    }

    /** One availability zone of the simulated catalogue. */
    record Zone(String name, String id, String region) {}

    static List<Zone> zones(String region) {
        List<Zone> out = new ArrayList<>();
        String abbrev = abbreviation(region);
        for (int i = 0; i < 3; i++) {
            out.add(new Zone(region + (char) ('a' + i), abbrev + "-az" + (i + 1), region));
        }
        return out;
    }

    /** AWS's short region name used in zone ids: eu-west-1 -> euw1, ap-southeast-2 -> apse2. */
    static String abbreviation(String region) {
        String[] p = region.split("-");
        if (p.length < 3) {
            return region.replace("-", "");
        }
        String dir = switch (p[1]) {
            case "northeast" -> "ne";
            case "southeast" -> "se";
            case "northwest" -> "nw";
            case "southwest" -> "sw";
            default -> p[1].substring(0, 1);
        };
        return p[0] + dir + p[2];
    }

    private static String describeZones(Map<String, List<String>> form, String region, String requestId) {
        Map<String, List<String>> filters = filters(form);
        List<String> names = list(form, "ZoneName");
        List<String> ids = list(form, "ZoneId");
        StringBuilder items = new StringBuilder();
        for (Zone z : zones(region)) {
            if (!names.isEmpty() && !names.contains(z.name()) || !ids.isEmpty() && !ids.contains(z.id())) {
                continue;
            }
            Map<String, String> fields = new LinkedHashMap<>();
            fields.put("zone-name", z.name());
            fields.put("zone-id", z.id());
            fields.put("state", "available");
            fields.put("region-name", z.region());
            fields.put("zone-type", "availability-zone");
            fields.put("opt-in-status", "opt-in-not-required");
            fields.put("group-name", z.region());
            fields.put("network-border-group", z.region());
            if (!matches(filters, fields)) {
                continue;
            }
            items.append("<item><zoneName>")
                    .append(z.name())
                    .append("</zoneName>")
                    .append("<zoneState>available</zoneState>")
                    .append("<regionName>")
                    .append(z.region())
                    .append("</regionName>")
                    .append("<messageSet/>")
                    .append("<zoneId>")
                    .append(z.id())
                    .append("</zoneId>")
                    .append("<zoneType>availability-zone</zoneType>")
                    .append("<optInStatus>opt-in-not-required</optInStatus>")
                    .append("<groupName>")
                    .append(z.region())
                    .append("</groupName>")
                    .append("<networkBorderGroup>")
                    .append(z.region())
                    .append("</networkBorderGroup>")
                    .append("</item>");
        }
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<DescribeAvailabilityZonesResponse xmlns=\"" + EC2_NS
                + "\">"
                + "<requestId>" + requestId + "</requestId><availabilityZoneInfo>" + items
                + "</availabilityZoneInfo></DescribeAvailabilityZonesResponse>";
    }

    /** One endpoint service of the catalogue: its full name and type (Interface or Gateway). */
    record EndpointService(String name, String shortName, String type) {
        String id() {
            // A stable id per service and type, shaped like AWS's vpce-svc-<17 hex digits>.
            String h = String.format("%017x", (name + "/" + type).hashCode() & 0xffffffffL);
            return "vpce-svc-" + h;
        }
    }

    static List<EndpointService> endpointServices(String region) {
        List<EndpointService> out = new ArrayList<>();
        for (String s : SERVICES) {
            if (GATEWAY_SERVICES.contains(s)) {
                out.add(new EndpointService("com.amazonaws." + region + "." + s, s, "Gateway"));
            }
            out.add(new EndpointService("com.amazonaws." + region + "." + s, s, "Interface"));
        }
        return out;
    }

    private static String describeEndpointServices(Map<String, List<String>> form, String region, String requestId) {
        Map<String, List<String>> filters = filters(form);
        List<String> names = list(form, "ServiceName");
        TreeMap<String, Boolean> matchedNames = new TreeMap<>();
        StringBuilder details = new StringBuilder();
        List<Zone> zones = zones(region);
        for (EndpointService s : endpointServices(region)) {
            if (!names.isEmpty() && !names.contains(s.name())) {
                continue;
            }
            Map<String, String> fields = Map.of(
                    "service-name", s.name(), "service-type", s.type(), "owner", "amazon", "service-region", region);
            if (!matches(filters, fields)) {
                continue;
            }
            matchedNames.put(s.name(), true);
            boolean iface = s.type().equals("Interface");
            details.append("<item><serviceName>")
                    .append(s.name())
                    .append("</serviceName>")
                    .append("<serviceId>")
                    .append(s.id())
                    .append("</serviceId>")
                    .append("<serviceType><item><serviceType>")
                    .append(s.type())
                    .append("</serviceType></item></serviceType>")
                    .append("<serviceRegion>")
                    .append(region)
                    .append("</serviceRegion>")
                    .append("<availabilityZoneSet>");
            zones.forEach(z -> details.append("<item>").append(z.name()).append("</item>"));
            details.append("</availabilityZoneSet><owner>amazon</owner>")
                    .append("<baseEndpointDnsNameSet><item>")
                    .append(s.shortName())
                    .append('.')
                    .append(region)
                    .append(".vpce.amazonaws.com")
                    .append("</item></baseEndpointDnsNameSet>");
            if (iface) {
                String dns = s.shortName() + "." + region + ".amazonaws.com";
                details.append("<privateDnsName>")
                        .append(dns)
                        .append("</privateDnsName>")
                        .append("<privateDnsNameSet><item><privateDnsName>")
                        .append(dns)
                        .append("</privateDnsName></item></privateDnsNameSet>")
                        .append("<privateDnsNameVerificationState>verified</privateDnsNameVerificationState>");
            }
            details.append("<vpcEndpointPolicySupported>true</vpcEndpointPolicySupported>")
                    .append("<acceptanceRequired>false</acceptanceRequired>")
                    .append("<managesVpcEndpoints>false</managesVpcEndpoints>")
                    .append("<tagSet/>")
                    .append("<supportedIpAddressTypeSet><item>ipv4</item></supportedIpAddressTypeSet>")
                    .append("</item>");
        }
        StringBuilder nameSet = new StringBuilder();
        matchedNames.keySet().forEach(n -> nameSet.append("<item>").append(n).append("</item>"));
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<DescribeVpcEndpointServicesResponse xmlns=\"" + EC2_NS
                + "\">"
                + "<requestId>" + requestId + "</requestId><serviceNameSet>" + nameSet + "</serviceNameSet>"
                + "<serviceDetailSet>" + details + "</serviceDetailSet></DescribeVpcEndpointServicesResponse>";
    }

    private static String callerIdentity(String requestId) {
        return "<GetCallerIdentityResponse xmlns=\"" + STS_NS + "\"><GetCallerIdentityResult>"
                + "<Arn>arn:aws:iam::" + SsmApi.ACCOUNT + ":user/simulator</Arn>"
                + "<UserId>AIDASIMULATOR00000001</UserId>"
                + "<Account>" + SsmApi.ACCOUNT + "</Account>"
                + "</GetCallerIdentityResult><ResponseMetadata><RequestId>" + requestId
                + "</RequestId></ResponseMetadata></GetCallerIdentityResponse>";
    }

    /** {@code Filter.N.Name} / {@code Filter.N.Value.M} pairs: filter name to accepted values (any matches). */
    static Map<String, List<String>> filters(Map<String, List<String>> form) {
        Map<Integer, String> names = new TreeMap<>();
        Map<Integer, List<String>> values = new TreeMap<>();
        Pattern name = Pattern.compile("Filter\\.(\\d+)\\.Name");
        Pattern value = Pattern.compile("Filter\\.(\\d+)\\.Value\\.(\\d+)");
        form.forEach((k, v) -> {
            Matcher m = name.matcher(k);
            if (m.matches()) {
                names.put(Integer.parseInt(m.group(1)), v.get(0));
            }
            Matcher mv = value.matcher(k);
            if (mv.matches()) {
                values.computeIfAbsent(Integer.parseInt(mv.group(1)), x -> new ArrayList<>())
                        .addAll(v);
            }
        });
        Map<String, List<String>> out = new LinkedHashMap<>();
        names.forEach(
                (i, n) -> out.computeIfAbsent(n, x -> new ArrayList<>()).addAll(values.getOrDefault(i, List.of())));
        return out;
    }

    /** Every filter must match (AND); within one filter any value matches (OR). Unknown filter names match nothing. */
    private static boolean matches(Map<String, List<String>> filters, Map<String, String> fields) {
        for (Map.Entry<String, List<String>> f : filters.entrySet()) {
            String actual = fields.get(f.getKey());
            if (actual == null || !f.getValue().contains(actual)) {
                return false;
            }
        }
        return true;
    }

    /** The values of a list parameter ({@code Name.1}, {@code Name.2}, ...), in index order. */
    static List<String> list(Map<String, List<String>> form, String member) {
        TreeMap<Integer, String> out = new TreeMap<>();
        Pattern p = Pattern.compile(Pattern.quote(member) + "\\.(\\d+)");
        form.forEach((k, v) -> {
            Matcher m = p.matcher(k);
            if (m.matches()) {
                out.put(Integer.parseInt(m.group(1)), v.get(0));
            }
        });
        return new ArrayList<>(out.values());
    }

    private static String first(Map<String, List<String>> form, String key) {
        List<String> v = form.get(key);
        return v == null || v.isEmpty() ? null : v.get(0);
    }

    private static String region(HttpExchange ex) {
        String auth = ex.getRequestHeaders().getFirst("Authorization");
        if (auth != null) {
            Matcher m = REGION.matcher(auth);
            if (m.find()) {
                return m.group(1);
            }
        }
        return "us-east-1";
    }

    private static String ec2Error(String code, String message, String requestId) {
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Response><Errors><Error><Code>" + code + "</Code><Message>"
                + escape(message) + "</Message></Error></Errors><RequestID>" + requestId + "</RequestID></Response>";
    }

    private static String stsError(String code, String message, String requestId) {
        return "<ErrorResponse xmlns=\"" + STS_NS + "\"><Error><Type>Sender</Type><Code>" + code + "</Code><Message>"
                + escape(message) + "</Message></Error><RequestId>" + requestId + "</RequestId></ErrorResponse>";
    }

    static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    private static void send(HttpExchange ex, int status, String xml) throws IOException {
        byte[] b = xml.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", "text/xml;charset=UTF-8");
        ex.getResponseHeaders().set("x-amzn-RequestId", UUID.randomUUID().toString());
        ex.sendResponseHeaders(status, b.length);
        ex.getResponseBody().write(b);
    }
}
