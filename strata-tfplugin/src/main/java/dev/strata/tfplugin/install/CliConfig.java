package dev.strata.tfplugin.install;

import dev.strata.addr.Provider;
import dev.strata.hcl.Attribute;
import dev.strata.hcl.AttributeSchema;
import dev.strata.hcl.Block;
import dev.strata.hcl.BlockHeaderSchema;
import dev.strata.hcl.Body;
import dev.strata.hcl.BodyContent;
import dev.strata.hcl.BodySchema;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.HclFile;
import dev.strata.hcl.Result;
import dev.strata.hcl.SourceRange;
import dev.strata.hcl.json.JsonSyntax;
import dev.strata.hcl.syntax.NativeSyntax;
import dev.strata.lang.types.PrimitiveType;
import dev.strata.lang.value.Value;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The parts of Terraform's CLI configuration that decide where providers come from: the
 * {@code provider_installation} block and {@code plugin_cache_dir}. The file is the one
 * {@code TF_CLI_CONFIG_FILE} names, else {@code ~/.terraformrc}; a file that does not exist is an
 * empty configuration, as in Terraform. {@code TF_PLUGIN_CACHE_DIR} overrides
 * {@code plugin_cache_dir}.
 *
 * @param methods the explicit installation methods in order; empty means Terraform's implied ones
 * @param explicit whether the file had a {@code provider_installation} block
 * @param pluginCacheDir the shared plugin cache, if configured
 * @param devOverrides {@code dev_overrides}: providers to run from a local build directory instead of
 *     an installed package, for provider developers (no version selection, no lock file check)
 */
public record CliConfig(
        List<InstallationMethod> methods,
        boolean explicit,
        Optional<Path> pluginCacheDir,
        SortedMap<Provider, Path> devOverrides) {

    public CliConfig {
        methods = List.copyOf(methods);
        devOverrides = Collections.unmodifiableSortedMap(new TreeMap<>(devOverrides));
    }

    public CliConfig(List<InstallationMethod> methods, boolean explicit, Optional<Path> pluginCacheDir) {
        this(methods, explicit, pluginCacheDir, new TreeMap<>());
    }

    private static final BodySchema FILE = new BodySchema(
            List.of(AttributeSchema.optional("plugin_cache_dir")),
            List.of(BlockHeaderSchema.of("provider_installation")));
    private static final BodySchema INSTALLATION = new BodySchema(
            List.of(),
            List.of(
                    BlockHeaderSchema.of("filesystem_mirror"), BlockHeaderSchema.of("network_mirror"),
                    BlockHeaderSchema.of("direct"), BlockHeaderSchema.of("dev_overrides")));
    private static final BodySchema FS_MIRROR = new BodySchema(
            List.of(
                    AttributeSchema.required("path"),
                    AttributeSchema.optional("include"),
                    AttributeSchema.optional("exclude")),
            List.of());
    private static final BodySchema NET_MIRROR = new BodySchema(
            List.of(
                    AttributeSchema.required("url"),
                    AttributeSchema.optional("include"),
                    AttributeSchema.optional("exclude")),
            List.of());
    private static final BodySchema DIRECT = new BodySchema(
            List.of(AttributeSchema.optional("include"), AttributeSchema.optional("exclude")), List.of());

    /** The configuration file Terraform would read with this environment and home directory. */
    public static Path location(Map<String, String> env, Path home) {
        return CliConfigFile.location(env, home);
    }

    /** Loads the configuration for this environment; problems in the file are diagnostics. */
    public static Result<CliConfig> load(Map<String, String> env, Path home) {
        Path file = location(env, home);
        Result<CliConfig> r;
        if (!Files.isRegularFile(file)) {
            r = Result.of(new CliConfig(List.of(), false, Optional.empty()));
        } else {
            try {
                r = parse(Files.readAllBytes(file), file.toString());
            } catch (IOException e) {
                r = Result.of(
                        new CliConfig(List.of(), false, Optional.empty()),
                        Diagnostics.of(Diagnostic.error(
                                "Failed to read the CLI configuration",
                                "Could not read " + file + ": " + e.getMessage(),
                                null)));
            }
        }
        String cache = nonEmpty(env.get("TF_PLUGIN_CACHE_DIR"));
        if (cache != null) {
            CliConfig c = r.value();
            r = Result.of(
                    new CliConfig(c.methods(), c.explicit(), Optional.of(Path.of(cache)), c.devOverrides()),
                    r.diagnostics());
        }
        return r;
    }

    private static String nonEmpty(String s) {
        return s == null || s.isEmpty() ? null : s;
    }

    /** Parses a CLI configuration file; JSON syntax when the name ends in {@code .json}. */
    public static Result<CliConfig> parse(byte[] src, String filename) {
        SortedMap<Provider, Path> overrides = new TreeMap<>();
        Diagnostics.Builder diags = Diagnostics.builder();
        if (!filename.endsWith(".json")) {
            src = takeDevOverrides(new String(src, StandardCharsets.UTF_8), filename, overrides, diags)
                    .getBytes(StandardCharsets.UTF_8);
        }
        Result<HclFile> file =
                filename.endsWith(".json") ? JsonSyntax.parse(src, filename) : NativeSyntax.parseConfig(src, filename);
        diags.addAll(file.diagnostics());
        if (file.value() == null) {
            return Result.of(new CliConfig(List.of(), false, Optional.empty()), diags.build());
        }
        // Other settings (credentials, host blocks, disable_checkpoint, ...) are not Strata's concern.
        Result<Body.PartialContent> content = file.value().body().partialContent(FILE);
        diags.addAll(content.diagnostics());
        BodyContent c = content.value().content();
        Optional<Path> cacheDir = Optional.empty();
        if (c.attributes().containsKey("plugin_cache_dir")) {
            String s = string(c.attributes().get("plugin_cache_dir"), diags);
            if (s != null && !s.isEmpty()) {
                cacheDir = Optional.of(Path.of(s));
            }
        }
        List<Block> installs = c.blocksOfType("provider_installation");
        if (installs.size() > 1) {
            diags.add(Diagnostic.error(
                    "Multiple provider_installation blocks",
                    "The CLI configuration may have only one provider_installation block.",
                    installs.get(1).typeRange()));
        }
        List<InstallationMethod> methods = new ArrayList<>();
        if (!installs.isEmpty()) {
            Result<BodyContent> ic = installs.get(0).body().content(INSTALLATION);
            diags.addAll(ic.diagnostics());
            for (Block b : ic.value().blocks()) {
                switch (b.type()) {
                    case "filesystem_mirror" -> {
                        Result<BodyContent> bc = b.body().content(FS_MIRROR);
                        diags.addAll(bc.diagnostics());
                        Attribute path = bc.value().attributes().get("path");
                        String p = path == null ? null : string(path, diags);
                        if (p != null) {
                            methods.add(new InstallationMethod.FilesystemMirror(
                                    Path.of(p),
                                    patterns(bc.value(), "include", diags),
                                    patterns(bc.value(), "exclude", diags)));
                        }
                    }
                    case "network_mirror" -> {
                        Result<BodyContent> bc = b.body().content(NET_MIRROR);
                        diags.addAll(bc.diagnostics());
                        Attribute url = bc.value().attributes().get("url");
                        String u = url == null ? null : string(url, diags);
                        if (u != null) {
                            methods.add(new InstallationMethod.NetworkMirror(
                                    u, patterns(bc.value(), "include", diags), patterns(bc.value(), "exclude", diags)));
                        }
                    }
                    case "direct" -> {
                        Result<BodyContent> bc = b.body().content(DIRECT);
                        diags.addAll(bc.diagnostics());
                        methods.add(new InstallationMethod.Direct(
                                patterns(bc.value(), "include", diags), patterns(bc.value(), "exclude", diags)));
                    }
                    default -> devOverrides(b, overrides, diags);
                }
            }
        }
        return Result.of(new CliConfig(methods, !installs.isEmpty(), cacheDir, overrides), diags.build());
    }

    private static final BodySchema HOST_FILE = new BodySchema(
            List.of(),
            List.of(BlockHeaderSchema.of("host", "hostname"), BlockHeaderSchema.of("credentials", "hostname")));
    private static final BodySchema HOST = new BodySchema(List.of(AttributeSchema.required("services")), List.of());
    private static final BodySchema CREDENTIALS = new BodySchema(List.of(AttributeSchema.optional("token")), List.of());

    /**
     * The CLI configuration's {@code host "HOST" { services = { "modules.v1" = "URL" } }} blocks, which
     * replace service discovery for their host, and {@code credentials "HOST" { token = "..." }}
     * blocks: what module installation needs to reach a registry.
     *
     * @param services    host name (lower case) to its service URLs by service id
     * @param credentials host name (lower case) to its API token
     */
    public record Hosts(SortedMap<String, SortedMap<String, String>> services, SortedMap<String, String> credentials) {
        public Hosts {
            SortedMap<String, SortedMap<String, String>> s = new TreeMap<>();
            services.forEach((h, m) -> s.put(h, Collections.unmodifiableSortedMap(new TreeMap<>(m))));
            services = Collections.unmodifiableSortedMap(s);
            credentials = Collections.unmodifiableSortedMap(new TreeMap<>(credentials));
        }

        @Override
        public String toString() {
            // Tokens are secrets: the rendering names only the hosts that have one.
            return "Hosts[services=" + services + ", credentials for " + credentials.keySet() + "]";
        }
    }

    /** The {@code host} and {@code credentials} blocks of the configuration for this environment. */
    public static Result<Hosts> loadHosts(Map<String, String> env, Path home) {
        Path file = location(env, home);
        Hosts none = new Hosts(new TreeMap<>(), new TreeMap<>());
        if (!Files.isRegularFile(file)) {
            return Result.of(none);
        }
        try {
            return parseHosts(Files.readAllBytes(file), file.toString());
        } catch (IOException e) {
            return Result.of(
                    none,
                    Diagnostics.of(Diagnostic.error(
                            "Failed to read the CLI configuration",
                            "Could not read " + file + ": " + e.getMessage(),
                            null)));
        }
    }

    /** Parses the {@code host} and {@code credentials} blocks of a CLI configuration file. */
    public static Result<Hosts> parseHosts(byte[] src, String filename) {
        Diagnostics.Builder diags = Diagnostics.builder();
        if (!filename.endsWith(".json")) {
            // Blanked as parse() does, so that HCL 1 style dev_overrides keys do not stop the parse.
            src = takeDevOverrides(
                            new String(src, StandardCharsets.UTF_8), filename, new TreeMap<>(), Diagnostics.builder())
                    .getBytes(StandardCharsets.UTF_8);
        }
        Result<HclFile> file =
                filename.endsWith(".json") ? JsonSyntax.parse(src, filename) : NativeSyntax.parseConfig(src, filename);
        SortedMap<String, SortedMap<String, String>> services = new TreeMap<>();
        SortedMap<String, String> credentials = new TreeMap<>();
        if (file.value() == null) {
            return Result.of(
                    new Hosts(services, credentials),
                    diags.addAll(file.diagnostics()).build());
        }
        Result<Body.PartialContent> content = file.value().body().partialContent(HOST_FILE);
        diags.addAll(content.diagnostics());
        for (Block b : content.value().content().blocks()) {
            String host = b.labels().getFirst().toLowerCase(java.util.Locale.ROOT);
            if (b.type().equals("host")) {
                Result<BodyContent> bc = b.body().content(HOST);
                diags.addAll(bc.diagnostics());
                Attribute a = bc.value().attributes().get("services");
                if (a == null) {
                    continue;
                }
                Result<Value> v = ConstantArguments.evaluator().evaluate(a.expr());
                diags.addAll(v.diagnostics());
                if (v.value() == null
                        || !v.value().isKnownAndNotNull()
                        || !(v.value().type() instanceof dev.strata.lang.types.ObjectType
                                || v.value().type() instanceof dev.strata.lang.types.MapType)) {
                    if (!v.diagnostics().hasErrors()) {
                        diags.add(Diagnostic.error(
                                "Invalid services",
                                "The \"services\" argument of a host block must be a map from service ids such as "
                                        + "\"modules.v1\" to their URLs.",
                                a.expr().range()));
                    }
                    continue;
                }
                SortedMap<String, String> m = new TreeMap<>();
                v.value().attributes().forEach((k, u) -> {
                    if (u.type() == PrimitiveType.STRING && u.isKnownAndNotNull()) {
                        m.put(k, u.asString());
                    }
                });
                services.put(host, m);
            } else {
                Result<BodyContent> bc = b.body().content(CREDENTIALS);
                diags.addAll(bc.diagnostics());
                Attribute t = bc.value().attributes().get("token");
                String token = t == null ? null : string(t, diags);
                if (token != null) {
                    credentials.put(host, token);
                }
            }
        }
        return Result.of(new Hosts(services, credentials), diags.build());
    }

    private static final Pattern DEV_OVERRIDES = Pattern.compile("\\bdev_overrides\\s*\\{([^}]*)}");
    private static final Pattern OVERRIDE_LINE =
            Pattern.compile("^\\s*(?:\"([^\"]*)\"|([A-Za-z0-9_.\\-/]+))\\s*=\\s*\"([^\"]*)\"\\s*,?\\s*$");

    /**
     * Terraform reads the CLI configuration with HCL 1, where {@code dev_overrides} keys are quoted
     * provider addresses ({@code "hashicorp/aws" = "/dir"}), which HCL 2's native syntax does not
     * allow as attribute names. The block is read here line by line and blanked out (newlines kept,
     * so every other position stays where it was) before the rest is parsed.
     */
    private static String takeDevOverrides(
            String text, String filename, SortedMap<Provider, Path> out, Diagnostics.Builder diags) {
        Matcher m = DEV_OVERRIDES.matcher(text);
        StringBuilder blanked = new StringBuilder(text);
        while (m.find()) {
            int offset = m.start(1);
            for (String line : m.group(1).split("\n", -1)) {
                String t = line.strip();
                if (!t.isEmpty() && !t.startsWith("#") && !t.startsWith("//")) {
                    Matcher l = OVERRIDE_LINE.matcher(line);
                    SourceRange at = rangeOf(text, filename, offset, offset + line.length());
                    Optional<Provider> a = l.matches()
                            ? Provider.lookup(l.group(1) != null ? l.group(1) : l.group(2))
                            : Optional.empty();
                    if (!l.matches()) {
                        diags.add(Diagnostic.error(
                                "Invalid dev_overrides entry",
                                "Each line of dev_overrides maps "
                                        + "a provider source address to a directory, as in \"hashicorp/aws\" = \"/path/to/dir\".",
                                at));
                    } else if (a.isEmpty()) {
                        diags.add(Diagnostic.error(
                                "Invalid provider address",
                                "\"" + (l.group(1) != null ? l.group(1) : l.group(2))
                                        + "\" is not a provider source address such as \"hashicorp/aws\".",
                                at));
                    } else {
                        out.put(a.get(), Path.of(l.group(3)));
                    }
                }
                offset += line.length() + 1;
            }
            for (int i = m.start(); i < m.end(); i++) {
                if (blanked.charAt(i) != '\n') {
                    blanked.setCharAt(i, ' ');
                }
            }
        }
        return blanked.toString();
    }

    private static SourceRange rangeOf(String text, String filename, int from, int to) {
        return new SourceRange(filename, pos(text, from), pos(text, to));
    }

    private static dev.strata.hcl.SourcePos pos(String text, int offset) {
        int line = 1;
        int col = 1;
        for (int i = 0; i < offset; i++) {
            if (text.charAt(i) == '\n') {
                line++;
                col = 1;
            } else {
                col++;
            }
        }
        return new dev.strata.hcl.SourcePos(
                line, col, text.substring(0, offset).getBytes(StandardCharsets.UTF_8).length);
    }

    /** {@code dev_overrides { "hashicorp/aws" = "/path/to/build/dir" }} in JSON syntax: addresses to directories. */
    private static void devOverrides(Block b, SortedMap<Provider, Path> out, Diagnostics.Builder diags) {
        Result<Map<String, Attribute>> attrs = b.body().justAttributes();
        diags.addAll(attrs.diagnostics());
        if (attrs.value() == null) {
            return;
        }
        for (Attribute a : attrs.value().values()) {
            Optional<Provider> addr = Provider.lookup(a.name());
            if (addr.isEmpty()) {
                diags.add(Diagnostic.error(
                        "Invalid provider address",
                        "\"" + a.name() + "\" is not a provider " + "source address such as \"hashicorp/aws\".",
                        a.nameRange()));
                continue;
            }
            String dir = string(a, diags);
            if (dir != null) {
                out.put(addr.get(), Path.of(dir));
            }
        }
    }

    private static List<ProviderPattern> patterns(BodyContent c, String name, Diagnostics.Builder diags) {
        Attribute a = c.attributes().get(name);
        if (a == null) {
            return List.of();
        }
        Result<Value> v = ConstantArguments.evaluator().evaluate(a.expr());
        diags.addAll(v.diagnostics());
        List<ProviderPattern> out = new ArrayList<>();
        if (v.value() == null || !v.value().isKnownAndNotNull() || !v.value().isIterable()) {
            if (!v.diagnostics().hasErrors()) {
                diags.add(Diagnostic.error(
                        "Invalid " + name + " patterns",
                        "The \"" + name + "\" argument must be a list of provider address patterns.",
                        a.expr().range()));
            }
            return out;
        }
        for (Value e : v.value().elements()) {
            if (e.type() != PrimitiveType.STRING || !e.isKnownAndNotNull()) {
                diags.add(Diagnostic.error(
                        "Invalid " + name + " pattern",
                        "Each pattern must be a string.",
                        a.expr().range()));
                continue;
            }
            Optional<ProviderPattern> p = ProviderPattern.parse(e.asString());
            if (p.isEmpty()) {
                diags.add(Diagnostic.error(
                        "Invalid provider address pattern",
                        "\"" + e.asString()
                                + "\" is not a provider address pattern such as \"hashicorp/*\" or"
                                + " \"registry.terraform.io/hashicorp/aws\".",
                        a.expr().range()));
            } else {
                out.add(p.get());
            }
        }
        return out;
    }

    private static String string(Attribute a, Diagnostics.Builder diags) {
        return ConstantArguments.string(ConstantArguments.evaluator(), a, diags);
    }
}
