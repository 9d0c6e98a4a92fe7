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
import dev.strata.provider.sdk.EngineContext;
import dev.strata.provider.sdk.ManagedResource;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Base64;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * {@code local_file} and {@code local_sensitive_file}: a file with the given content, written
 * with the given permissions (before the umask, as Go's {@code os.WriteFile} does), parent
 * directories created as needed. Every argument forces a new file. A refresh drops the object
 * when the file is gone or its content no longer has the recorded SHA-1, so the next plan
 * creates it again.
 */
final class LocalFile implements ManagedResource {

    private static final Pattern MODE = Pattern.compile("[0-7]{3,4}");
    private static final List<String> SOURCES_PLAIN =
            List.of("content", "sensitive_content", "content_base64", "source");
    private static final List<String> SOURCES_SENSITIVE = List.of("content", "content_base64", "source");

    private final boolean sensitive;
    private final Schema schema;
    private final EngineContext ctx;

    LocalFile(boolean sensitive, EngineContext ctx) {
        this.sensitive = sensitive;
        this.ctx = ctx;
        Block.Builder b = Block.builder();
        if (sensitive) {
            b.attribute(
                            "content",
                            Attribute.optional(Type.STRING)
                                    .withSensitive()
                                    .withDescription(
                                            "Sensitive Content to store in the file, expected to be a UTF-8 encoded string."))
                    .attribute(
                            "content_base64",
                            Attribute.optional(Type.STRING)
                                    .withSensitive()
                                    .withDescription(
                                            "Sensitive Content to store in the file, expected to be binary encoded as base64 string."));
        } else {
            b.attribute(
                            "content",
                            Attribute.optional(Type.STRING)
                                    .withDescription(
                                            "Content to store in the file, expected to be a UTF-8 encoded string."))
                    .attribute(
                            "sensitive_content",
                            Attribute.optional(Type.STRING)
                                    .withSensitive()
                                    .withDeprecated()
                                    .withDescription(
                                            "Sensitive content to store in the file, expected to be an UTF-8 encoded"
                                                    + " string. Use the local_sensitive_file resource instead."))
                    .attribute(
                            "content_base64",
                            Attribute.optional(Type.STRING)
                                    .withDescription(
                                            "Content to store in the file, expected to be binary encoded as base64 string."));
        }
        b.attribute(
                        "source",
                        Attribute.optional(Type.STRING)
                                .withDescription("Path to file to use as source for the one we are creating."))
                .attribute(
                        "filename",
                        Attribute.required(Type.STRING)
                                .withDescription(
                                        "The path to the file that will be created. Missing parent directories will be created. If the file"
                                                + " already exists, it will be overridden with the given content."))
                .attribute(
                        "file_permission",
                        Attribute.optionalComputed(Type.STRING)
                                .withDescription(
                                        "Permissions to set for the output file (before umask), expressed as string in numeric notation."
                                                + " Default value is `\"" + defaultMode() + "\"`."))
                .attribute(
                        "directory_permission",
                        Attribute.optionalComputed(Type.STRING)
                                .withDescription(
                                        "Permissions to set for directories created (before umask), expressed as string in numeric"
                                                + " notation. Default value is `\"" + defaultMode() + "\"`."));
        Checksums.checksumAttributes(b);
        this.schema = Schema.of(b.build());
    }

    private String defaultMode() {
        return sensitive ? "0700" : "0777";
    }

    private List<String> sources() {
        return sensitive ? SOURCES_SENSITIVE : SOURCES_PLAIN;
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
    public Set<String> forceNew() {
        Set<String> s = new java.util.HashSet<>(sources());
        s.addAll(List.of("filename", "file_permission", "directory_permission"));
        return s;
    }

    @Override
    public Map<String, Value> defaults() {
        return Map.of(
                "file_permission", Value.string(defaultMode()), "directory_permission", Value.string(defaultMode()));
    }

    @Override
    public void validate(Value config, ProviderDiagnostics.Builder diags) {
        List<String> set = new ArrayList<>();
        for (String s : sources()) {
            Value v = Attrs.get(config, s);
            if (!v.isKnown()) {
                return;
            }
            if (!v.isNull()) {
                set.add(s);
            }
        }
        if (set.size() != 1) {
            diags.error(
                    "Invalid Attribute Combination",
                    "Exactly one of these attributes must be configured: [" + String.join(",", sources()) + "]",
                    set.isEmpty() ? null : AttributePath.of(set.get(1)));
        }
        for (String p : List.of("file_permission", "directory_permission")) {
            Value v = Attrs.get(config, p).unmarkDeep();
            if (v.isKnownAndNotNull()) {
                String mode = v.asString();
                if (mode.length() < 3 || mode.length() > 4) {
                    diags.error(
                            "Invalid Attribute Value",
                            "bad mode for file - string length should be 3 or 4 digits: " + mode,
                            AttributePath.of(p));
                } else if (!MODE.matcher(mode).matches()) {
                    diags.error(
                            "Invalid Attribute Value",
                            "bad mode for file - must be octal number: " + mode,
                            AttributePath.of(p));
                }
            }
        }
    }

    @Override
    public Value create(Value planned, Value config, String idempotencyToken, ProviderDiagnostics.Builder diags) {
        byte[] content = content(planned, diags);
        if (content == null) {
            return null;
        }
        Path file = ctx.resolve(Attrs.string(planned, "filename"));
        try {
            Path dir = file.toAbsolutePath().getParent();
            if (dir != null && !Files.isDirectory(dir)) {
                Files.createDirectories(
                        dir,
                        PosixFilePermissions.asFileAttribute(perms(Attrs.string(planned, "directory_permission"))));
            }
            Files.deleteIfExists(file);
            try (SeekableByteChannel ch = Files.newByteChannel(
                    file,
                    EnumSet.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
                    PosixFilePermissions.asFileAttribute(perms(Attrs.string(planned, "file_permission"))))) {
                ByteBuffer buf = ByteBuffer.wrap(content);
                while (buf.hasRemaining()) {
                    ch.write(buf);
                }
            }
        } catch (IOException e) {
            diags.error(
                    "Create local file error",
                    "An unexpected error occurred while writing the file: " + IoProblems.describe(file, e) + ".",
                    null);
            return null;
        }
        return Attrs.with(planned, Checksums.checksums(content));
    }

    private byte[] content(Value planned, ProviderDiagnostics.Builder diags) {
        String source = Attrs.string(planned, "source");
        if (source != null) {
            try {
                return Files.readAllBytes(ctx.resolve(source));
            } catch (IOException e) {
                diags.error(
                        "Create local file error",
                        "The source file cannot be read: " + IoProblems.describe(source, e) + ".",
                        AttributePath.of("source"));
                return null;
            }
        }
        String b64 = Attrs.string(planned, "content_base64");
        if (b64 != null) {
            try {
                return Base64.getDecoder().decode(b64);
            } catch (IllegalArgumentException e) {
                diags.error(
                        "Create local file error",
                        "content_base64 is not valid base64.",
                        AttributePath.of("content_base64"));
                return null;
            }
        }
        String text = Attrs.string(planned, "content");
        if (text == null && !sensitive) {
            text = Attrs.string(planned, "sensitive_content");
        }
        return (text == null ? "" : text).getBytes(StandardCharsets.UTF_8);
    }

    static Set<PosixFilePermission> perms(String mode) {
        int bits = Integer.parseInt(mode, 8) & 0777;
        StringBuilder s = new StringBuilder();
        String rwx = "rwx";
        for (int i = 8; i >= 0; i--) {
            s.append((bits & (1 << i)) != 0 ? rwx.charAt(2 - i % 3) : '-');
        }
        return PosixFilePermissions.fromString(s.toString());
    }

    @Override
    public Value read(Value state, ProviderDiagnostics.Builder diags) {
        Path file = ctx.resolve(Attrs.string(state, "filename"));
        try {
            byte[] content = Files.readAllBytes(file);
            return Checksums.sha1Hex(content).equals(Attrs.string(state, "id")) ? state : null;
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            diags.error(
                    "Read local file error", "The file cannot be read: " + IoProblems.describe(file, e) + ".", null);
            return state;
        }
    }

    @Override
    public void delete(Value prior, ProviderDiagnostics.Builder diags) {
        Path file = ctx.resolve(Attrs.string(prior, "filename"));
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            diags.error(
                    "Delete local file error",
                    "The file cannot be deleted: " + IoProblems.describe(file, e) + ".",
                    null);
        }
    }
}
