package dev.strata.hcl;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * HashiCorp's own HCL implementation (WASM builds from npm, driven by tools/oracle/oracle.js) as a
 * differential test oracle. One node process per instance; requests are answered in order.
 */
public final class HclOracle implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final Process process;
    private final Writer in;
    private final BufferedReader out;

    private HclOracle(Process process) {
        this.process = process;
        this.in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    static Path oracleDir() {
        return Path.of(System.getProperty("strata.repo.dir", "../")).resolve("tools/oracle");
    }

    /** True when node and the oracle packages are installed (tests assume this, or skip). */
    public static boolean available() {
        Path dir = oracleDir();
        if (!Files.isDirectory(dir.resolve("node_modules/@cdktf/hcl-tools"))
                || !Files.isDirectory(dir.resolve("node_modules/@cdktf/hcl2json"))) {
            return false;
        }
        try {
            Process p = new ProcessBuilder("node", "--version")
                    .redirectErrorStream(true)
                    .start();
            p.getInputStream().readAllBytes();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    public static HclOracle start() throws IOException {
        ProcessBuilder pb = new ProcessBuilder("node", "oracle.js")
                .directory(oracleDir().toFile())
                .redirectError(ProcessBuilder.Redirect.INHERIT);
        return new HclOracle(pb.start());
    }

    /** The oracle's reply: {@code ok} and {@code out}, or {@code error}. */
    public record Reply(boolean ok, JsonNode out, String error) {}

    private synchronized Reply call(String op, String name, String text) {
        try {
            ObjectNode req =
                    JSON.createObjectNode().put("op", op).put("name", name).put("text", text);
            in.write(JSON.writeValueAsString(req));
            in.write('\n');
            in.flush();
            String line = out.readLine();
            if (line == null) {
                throw new IOException("oracle process ended");
            }
            JsonNode r = JSON.readTree(line);
            return new Reply(
                    r.path("ok").asBoolean(), r.get("out"), r.path("error").asText(null));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** hclsyntax.ParseConfig (or HCL's JSON parser for .json names) converted to JSON by hcl2json. */
    public Reply parse(String name, String text) {
        return call("parse", name, text);
    }

    /** hclwrite.Format. */
    public Reply format(String text) {
        return call("fmt", "input.tf", text);
    }

    /** HCL's JSON parser on one JSON value, with its value taken (which rejects repeated keys). */
    public Reply jsonExpression(String text) {
        return call("jsonexpr", "x.tf.json", text);
    }

    @Override
    public void close() {
        try {
            in.close();
        } catch (IOException ignored) {
            // the process is going away anyway
        }
        process.destroy();
    }
}
