package dev.strata.providers.local;

import dev.strata.addr.AttributePath;
import dev.strata.hcl.IoProblems;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import dev.strata.provider.Attribute;
import dev.strata.provider.Block;
import dev.strata.provider.ProviderDiagnostics;
import dev.strata.provider.Schema;
import dev.strata.provider.sdk.Attrs;
import dev.strata.provider.sdk.DataSource;
import dev.strata.provider.sdk.EngineContext;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Base64;

/** Data sources {@code local_file} and {@code local_sensitive_file}: a file's content and checksums. */
final class LocalFileData implements DataSource {

    private final boolean sensitive;
    private final Schema schema;
    private final EngineContext ctx;

    LocalFileData(boolean sensitive, EngineContext ctx) {
        this.sensitive = sensitive;
        this.ctx = ctx;
        Attribute content = Attribute.computed(Type.STRING)
                .withDescription("Raw content of the file that was read, as UTF-8 encoded string.");
        Attribute b64 = Attribute.computed(Type.STRING)
                .withDescription(
                        "Base64 encoded version of the file content (use this when dealing with binary data).");
        Block.Builder b = Block.builder()
                .attribute(
                        "filename",
                        Attribute.required(Type.STRING).withDescription("Path to the file that will be read."))
                .attribute("content", sensitive ? content.withSensitive() : content)
                .attribute("content_base64", sensitive ? b64.withSensitive() : b64);
        Checksums.checksumAttributes(b);
        this.schema = Schema.of(b.build());
    }

    @Override
    public String typeName() {
        return sensitive ? "local_sensitive_file" : "local_file";
    }

    @Override
    public Schema schema() {
        return schema;
    }

    @Override
    public Value read(Value config, ProviderDiagnostics.Builder diags) {
        String name = Attrs.string(config, "filename");
        byte[] content;
        try {
            content = Files.readAllBytes(ctx.resolve(name));
        } catch (IOException e) {
            diags.error(
                    "Read local file data source error",
                    "The file at given path cannot be read.\n\n+Original Error: open " + IoProblems.describe(name, e),
                    AttributePath.of("filename"));
            return null;
        }
        Value v = Attrs.with(
                config,
                "content",
                Value.string(new String(content, StandardCharsets.UTF_8)),
                "content_base64",
                Value.string(Base64.getEncoder().encodeToString(content)));
        return Attrs.with(v, Checksums.checksums(content));
    }
}
