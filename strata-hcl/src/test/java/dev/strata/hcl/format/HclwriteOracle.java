package dev.strata.hcl.format;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A client of {@code tools/oracle/oracle.js}: HashiCorp's hclwrite (via npm) in a node process,
 * one JSON request per line. Start once per test class; {@link #available()} says whether node and
 * the npm packages are there at all.
 */
final class HclwriteOracle implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Process process;
    private final Writer in;
    private final BufferedReader out;

    private HclwriteOracle(Process process) {
        this.process = process;
        this.in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    static Path oracleDir() {
        return Path.of(System.getProperty("strata.repo.dir", "..")).resolve("tools/oracle");
    }

    static boolean available() {
        if (!Files.isDirectory(oracleDir().resolve("node_modules/@cdktf/hcl-tools"))) {
            return false;
        }
        try {
            Process p = new ProcessBuilder("node", "--version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    static HclwriteOracle start() throws IOException {
        Process p = new ProcessBuilder("node", "oracle.js").directory(oracleDir().toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        return new HclwriteOracle(p);
    }

    /** hclwrite.Format of the text. */
    String format(String text) throws IOException {
        in.write(JSON.writeValueAsString(Map.of("op", "fmt", "text", text)));
        in.write('\n');
        in.flush();
        String line = out.readLine();
        if (line == null) {
            throw new IOException("oracle process ended");
        }
        JsonNode reply = JSON.readTree(line);
        if (!reply.path("ok").asBoolean()) {
            throw new IOException("oracle failed: " + reply.path("error").asText());
        }
        return reply.get("out").asText();
    }

    @Override
    public void close() throws IOException {
        in.close();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
