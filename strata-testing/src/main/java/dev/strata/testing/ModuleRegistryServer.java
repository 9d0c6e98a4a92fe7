package dev.strata.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.stream.Collectors;
import java.util.zip.GZIPOutputStream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * A Terraform module registry on a free port of 127.0.0.1, for tests that point a CLI configuration's
 * {@code host} block at it ({@link #servicesUrl()}): {@code GET /v1/modules/NS/NAME/SYSTEM/versions}
 * lists the published versions, {@code GET .../VERSION/download} answers 204 with an
 * {@code X-Terraform-Get} header (relative to the download URL) or, with {@link #answerWithJson}, a JSON
 * {@code location}, and {@code /files/...} serves the packages as .tar.gz or .zip archives. Any other
 * path can be given a fixed answer ({@link #redirect}, {@link #file}). Every request's path and
 * {@code Authorization} header are recorded; with {@link #requireToken} API calls without that bearer
 * token are refused with 401.
 */
public final class ModuleRegistryServer implements AutoCloseable {
    /** How a published version's package is archived. */
    public enum Archive {
        TAR_GZ("tar.gz"),
        ZIP("zip");

        final String ext;

        Archive(String ext) {
            this.ext = ext;
        }
    }

    private record Answer(int status, Map<String, String> headers, byte[] body) {}

    private final HttpServer server;
    private final Map<String, Map<String, Answer>> packages = new ConcurrentHashMap<>();
    private final Map<String, Answer> fixed = new ConcurrentHashMap<>();
    private final List<String> requests = Collections.synchronizedList(new ArrayList<>());
    private final Map<String, java.nio.file.Path> directories = new ConcurrentHashMap<>();
    private volatile String token;
    private volatile boolean json;

    private ModuleRegistryServer(HttpServer server) {
        this.server = server;
    }

    public static ModuleRegistryServer start() throws IOException {
        HttpServer s = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 32);
        ModuleRegistryServer r = new ModuleRegistryServer(s);
        s.createContext("/", r::handle);
        s.setExecutor(Executors.newFixedThreadPool(4, t -> {
            Thread th = new Thread(t, "module-registry-server");
            th.setDaemon(true);
            return th;
        }));
        s.start();
        return r;
    }

    /** {@code http://127.0.0.1:PORT}. */
    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** The {@code modules.v1} base URL to put in a {@code host} block. */
    public String servicesUrl() {
        return url() + "/v1/modules/";
    }

    /** Publishes a version of {@code NS/NAME/SYSTEM} whose package holds {@code files} (path to content). */
    public ModuleRegistryServer publish(String pkg, String version, Map<String, String> files, Archive archive) {
        String file = "/files/" + pkg.replace('/', '-') + "-" + version + "." + archive.ext;
        fixed.put(file, new Answer(200, Map.of(), archive == Archive.ZIP ? zip(files) : tarGz(files)));
        // Relative to .../NS/NAME/SYSTEM/VERSION/download, as registries commonly answer.
        String rel = "../../../../../.." + file;
        packages.computeIfAbsent(pkg, k -> new ConcurrentHashMap<>())
                .put(version, new Answer(204, Map.of("X-Terraform-Get", rel), new byte[0]));
        return this;
    }

    /** Publishes a version whose download endpoint points at {@code location} as given. */
    public ModuleRegistryServer publishAt(String pkg, String version, String location) {
        packages.computeIfAbsent(pkg, k -> new ConcurrentHashMap<>())
                .put(version, new Answer(204, Map.of("X-Terraform-Get", location), new byte[0]));
        return this;
    }

    /** A path that answers 200 with an {@code X-Terraform-Get} header, go-getter's HTTP redirect. */
    public ModuleRegistryServer redirect(String path, String location) {
        fixed.put(path, new Answer(200, Map.of("X-Terraform-Get", location), new byte[0]));
        return this;
    }

    /** A path that serves {@code files} as an archive; returns its URL. */
    public String file(String path, Map<String, String> files, Archive archive) {
        fixed.put(path, new Answer(200, Map.of(), archive == Archive.ZIP ? zip(files) : tarGz(files)));
        return url() + path;
    }

    /**
     * Serves the files under {@code dir} at {@code prefix} (such as {@code /git/}): enough for Git's
     * "dumb" HTTP protocol on a bare repository after {@code git update-server-info}.
     */
    public ModuleRegistryServer serveDirectory(String prefix, java.nio.file.Path dir) {
        directories.put(prefix, dir.toAbsolutePath().normalize());
        return this;
    }

    /** Download endpoints answer with a JSON body {@code {"location": ...}} instead of the header. */
    public ModuleRegistryServer answerWithJson() {
        json = true;
        return this;
    }

    /** API requests without {@code Authorization: Bearer TOKEN} are refused with 401. */
    public ModuleRegistryServer requireToken(String token) {
        this.token = token;
        return this;
    }

    /** Every request so far as {@code "GET /path"} followed by {@code " auth=VALUE"} when one was sent. */
    public List<String> requests() {
        synchronized (requests) {
            return List.copyOf(requests);
        }
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            String path = ex.getRequestURI().getRawPath();
            String query = ex.getRequestURI().getRawQuery();
            String auth = ex.getRequestHeaders().getFirst("Authorization");
            requests.add(ex.getRequestMethod() + " " + path + (query == null ? "" : "?" + query)
                    + (auth == null ? "" : " auth=" + auth));
            Answer a = answer(path, auth);
            a.headers().forEach((k, v) -> ex.getResponseHeaders().add(k, v));
            if (a.status() == 204
                    || a.body().length == 0
                    || ex.getRequestMethod().equals("HEAD")) {
                ex.sendResponseHeaders(a.status(), -1);
            } else {
                ex.sendResponseHeaders(a.status(), a.body().length);
                ex.getResponseBody().write(a.body());
            }
        }
    }

    private Answer answer(String path, String auth) {
        Answer f = fixed.get(path);
        if (f != null) {
            return f;
        }
        for (Map.Entry<String, java.nio.file.Path> d : directories.entrySet()) {
            if (path.startsWith(d.getKey())) {
                java.nio.file.Path file = d.getValue()
                        .resolve(path.substring(d.getKey().length()))
                        .normalize();
                try {
                    if (file.startsWith(d.getValue()) && java.nio.file.Files.isRegularFile(file)) {
                        return new Answer(200, Map.of(), java.nio.file.Files.readAllBytes(file));
                    }
                } catch (IOException e) {
                    return new Answer(500, Map.of(), new byte[0]);
                }
                return new Answer(404, Map.of(), new byte[0]);
            }
        }
        if (!path.startsWith("/v1/modules/")) {
            return new Answer(404, Map.of(), new byte[0]);
        }
        if (token != null && !("Bearer " + token).equals(auth)) {
            return new Answer(401, Map.of(), "{\"errors\":[\"not authorized\"]}".getBytes(StandardCharsets.UTF_8));
        }
        String[] p = path.substring("/v1/modules/".length()).split("/");
        if (p.length < 4) {
            return new Answer(404, Map.of(), new byte[0]);
        }
        Map<String, Answer> versions = packages.get(p[0] + "/" + p[1] + "/" + p[2]);
        if (versions == null) {
            return new Answer(404, Map.of(), "{\"errors\":[\"Not Found\"]}".getBytes(StandardCharsets.UTF_8));
        }
        if (p.length == 4 && p[3].equals("versions")) {
            String list = new TreeMap<>(versions)
                    .keySet().stream().map(v -> "{\"version\":\"" + v + "\"}").collect(Collectors.joining(","));
            return new Answer(
                    200,
                    Map.of("Content-Type", "application/json"),
                    ("{\"modules\":[{\"versions\":[" + list + "]}]}").getBytes(StandardCharsets.UTF_8));
        }
        if (p.length == 5 && p[4].equals("download") && versions.containsKey(p[3])) {
            Answer d = versions.get(p[3]);
            if (json) {
                String loc = d.headers().get("X-Terraform-Get");
                return new Answer(
                        200,
                        Map.of("Content-Type", "application/json"),
                        ("{\"location\":\"" + loc + "\"}").getBytes(StandardCharsets.UTF_8));
            }
            return d;
        }
        return new Answer(404, Map.of(), new byte[0]);
    }

    /** A .zip of the files. */
    public static byte[] zip(Map<String, String> files) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ZipOutputStream z = new ZipOutputStream(out)) {
            for (Map.Entry<String, String> e : new TreeMap<>(files).entrySet()) {
                z.putNextEntry(new ZipEntry(e.getKey()));
                z.write(e.getValue().getBytes(StandardCharsets.UTF_8));
                z.closeEntry();
            }
        } catch (IOException e) {
            throw new IllegalStateException("in-memory streams do not fail", e);
        }
        return out.toByteArray();
    }

    /** A .tar.gz of the files (ustar headers, regular files only; directories are implied). */
    public static byte[] tarGz(Map<String, String> files) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            for (Map.Entry<String, String> e : new TreeMap<>(files).entrySet()) {
                byte[] data = e.getValue().getBytes(StandardCharsets.UTF_8);
                gz.write(tarHeader(e.getKey(), data.length));
                gz.write(data);
                gz.write(new byte[(512 - data.length % 512) % 512]);
            }
            gz.write(new byte[1024]);
        } catch (IOException e) {
            throw new IllegalStateException("in-memory streams do not fail", e);
        }
        return out.toByteArray();
    }

    private static byte[] tarHeader(String name, int size) {
        byte[] h = new byte[512];
        put(h, 0, name, 100);
        put(h, 100, "0000644", 8);
        put(h, 108, "0000000", 8);
        put(h, 116, "0000000", 8);
        put(h, 124, String.format("%011o", size), 12);
        put(h, 136, String.format("%011o", 0), 12);
        h[156] = '0';
        put(h, 257, "ustar", 6);
        put(h, 263, "00", 2);
        for (int i = 148; i < 156; i++) {
            h[i] = ' ';
        }
        int sum = 0;
        for (byte b : h) {
            sum += b & 0xff;
        }
        put(h, 148, String.format("%06o", sum), 7);
        h[155] = ' ';
        return h;
    }

    private static void put(byte[] h, int at, String s, int max) {
        byte[] b = s.getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(b, 0, h, at, Math.min(b.length, max));
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
