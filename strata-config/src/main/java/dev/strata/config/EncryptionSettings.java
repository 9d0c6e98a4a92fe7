package dev.strata.config;

import dev.strata.addr.InputVariable;
import dev.strata.addr.Reference;
import dev.strata.hcl.Attribute;
import dev.strata.hcl.AttributeSchema;
import dev.strata.hcl.Block;
import dev.strata.hcl.BlockHeaderSchema;
import dev.strata.hcl.BodyContent;
import dev.strata.hcl.BodySchema;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Expression;
import dev.strata.hcl.Result;
import dev.strata.hcl.SourceRange;
import dev.strata.hcl.Traversal;
import dev.strata.hcl.Traverser;
import dev.strata.lang.eval.Evaluator;
import dev.strata.lang.eval.TemplateFunctions;
import dev.strata.lang.funcs.FunctionContext;
import dev.strata.lang.funcs.FunctionTable;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.ConversionResult;
import dev.strata.lang.value.Convert;
import dev.strata.lang.value.Value;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Reads the {@code terraform { encryption { ... } }} block, in OpenTofu's shape, into the keys the
 * state is written and read with ({@link State}); whoever opens the state turns them into the state
 * module's encryption. Decoding belongs here, with the rest of the configuration language; the
 * cryptography stays with the state:
 *
 * <pre>
 * encryption {
 *   key_provider "pbkdf2" "main" { passphrase = "..." }          # iterations = 600000 (optional)
 *   key_provider "raw" "old"     { key = "base64 of 32 bytes" }
 *   method "aes_gcm" "main"      { keys = key_provider.pbkdf2.main }
 *   method "unencrypted" "plain" {}
 *   state {
 *     method   = method.aes_gcm.main
 *     enforced = true                                           # refuse to write unencrypted
 *     fallback { method = method.unencrypted.plain }            # read-only: the migration path
 *   }
 * }
 * </pre>
 *
 * It is read before resources and locals have values: values are constants, function calls such as
 * {@code file("~/.strata-passphrase")}, and input variables ({@code var.passphrase}, from
 * {@code TF_VAR_*}, {@code terraform.tfvars} or defaults), as OpenTofu allows. Secrets never appear in
 * diagnostics.
 */
public final class EncryptionSettings {
    private EncryptionSettings() {}

    /**
     * The fewest PBKDF2 rounds a passphrase may use (OWASP's floor for PBKDF2-HMAC-SHA256; OpenTofu
     * refuses fewer too). The state module enforces the same floor when it derives the key.
     */
    public static final int MIN_PBKDF2_ITERATIONS = 200_000;

    /** Where a key comes from, as the block declares it. */
    public sealed interface KeySource {
        /** The {@code unencrypted} method: plain JSON. */
        KeySource UNENCRYPTED = new Unencrypted();

        record Unencrypted() implements KeySource {}

        /** A {@code pbkdf2} key provider: {@code id} is its name; no iterations means the state module's default. */
        record Passphrase(String id, String passphrase, OptionalInt iterations) implements KeySource {
            @Override
            public String toString() {
                return "Passphrase[" + id + "]";
            }
        }

        /** A {@code raw} key provider: 32 bytes. */
        record Raw(byte[] key) implements KeySource {
            public Raw {
                key = key.clone();
            }

            @Override
            public byte[] key() {
                return key.clone();
            }

            @Override
            public String toString() {
                return "Raw[32 bytes]";
            }
        }
    }

    /**
     * What the {@code state} block says: write with {@code primary}; also read what was written with
     * {@code fallback} (null for none).
     */
    public record State(KeySource primary, KeySource fallback) {
        /** No {@code state} block: states stay plain JSON. */
        public static final State NONE = new State(KeySource.UNENCRYPTED, null);
    }

    private static final BodySchema ROOT = new BodySchema(
            List.of(),
            List.of(
                    BlockHeaderSchema.of("key_provider", "type", "name"),
                    BlockHeaderSchema.of("method", "type", "name"),
                    BlockHeaderSchema.of("state"),
                    BlockHeaderSchema.of("plan"),
                    BlockHeaderSchema.of("remote_state_data_sources")));
    private static final BodySchema PBKDF2 = new BodySchema(
            List.of(AttributeSchema.required("passphrase"), AttributeSchema.optional("iterations")), List.of());
    private static final BodySchema RAW = new BodySchema(List.of(AttributeSchema.required("key")), List.of());
    private static final BodySchema AES_GCM = new BodySchema(List.of(AttributeSchema.required("keys")), List.of());
    private static final BodySchema UNENCRYPTED = new BodySchema(List.of(), List.of());
    private static final BodySchema STATE = new BodySchema(
            List.of(AttributeSchema.required("method"), AttributeSchema.optional("enforced")),
            List.of(BlockHeaderSchema.of("fallback")));
    private static final BodySchema FALLBACK = new BodySchema(List.of(AttributeSchema.required("method")), List.of());

    /** The keys the block describes; {@link State#NONE} when it has no {@code state} block. */
    public static Result<State> read(EncryptionConfig block, ModuleConfig root, Path dir, Map<String, String> env) {
        Diagnostics.Builder diags = Diagnostics.builder();
        Result<BodyContent> content = block.config().content(ROOT);
        diags.addAll(content.diagnostics());
        if (content.hasErrors()) {
            return Result.of(null, diags.build());
        }
        Evaluator constants = new Evaluator(new ReferenceScope(
                new VariablesData(root, dir, env, TemplateFunctions.builtins(FunctionContext.system(dir)))));
        Map<String, KeySource> keys = new TreeMap<>();
        Map<String, KeySource> methods = new TreeMap<>();
        // Declared names, including those whose block had errors: a reference to one of those is not reported again.
        java.util.Set<String> declared = new java.util.HashSet<>();
        for (Block b : content.value().blocksOfType("key_provider")) {
            String type = b.labels().get(0);
            String ref = "key_provider." + type + "." + b.labels().get(1);
            if (!declared.add(ref)) {
                diags.add(Diagnostic.error(
                        "Duplicate key provider",
                        "There is already a " + ref + " in this " + "encryption block.",
                        b.defRange()));
                continue;
            }
            switch (type) {
                case "pbkdf2" -> {
                    Result<BodyContent> c = b.body().content(PBKDF2);
                    diags.addAll(c.diagnostics());
                    if (c.hasErrors()) {
                        continue;
                    }
                    Attribute pass = c.value().attributes().get("passphrase");
                    String passphrase = string(constants, pass, diags);
                    Attribute it = c.value().attributes().get("iterations");
                    Integer iterations = it == null ? null : integer(constants, it, diags);
                    if (passphrase == null || (it != null && iterations == null)) {
                        continue;
                    }
                    if (passphrase.length() < 16) {
                        diags.add(Diagnostic.error(
                                "Passphrase too short",
                                "The passphrase of " + ref + " must have at " + "least 16 characters.",
                                pass.expr().range()));
                        continue;
                    }
                    if (iterations != null && iterations < MIN_PBKDF2_ITERATIONS) {
                        diags.add(Diagnostic.error(
                                "Too few iterations",
                                "PBKDF2 needs at least " + MIN_PBKDF2_ITERATIONS + " iterations to slow down guessing.",
                                it.expr().range()));
                        continue;
                    }
                    keys.put(
                            ref,
                            new KeySource.Passphrase(
                                    b.labels().get(1),
                                    passphrase,
                                    iterations == null ? OptionalInt.empty() : OptionalInt.of(iterations)));
                }
                case "raw" -> {
                    Result<BodyContent> c = b.body().content(RAW);
                    diags.addAll(c.diagnostics());
                    if (c.hasErrors()) {
                        continue;
                    }
                    Attribute k = c.value().attributes().get("key");
                    String text = string(constants, k, diags);
                    if (text == null) {
                        continue;
                    }
                    byte[] bytes;
                    try {
                        bytes = Base64.getDecoder().decode(text.strip());
                    } catch (IllegalArgumentException e) {
                        bytes = new byte[0];
                    }
                    if (bytes.length != 32) {
                        // Never echo the value: it is a secret even when malformed.
                        diags.add(Diagnostic.error(
                                "Invalid raw key",
                                "The key of " + ref + " must be 32 bytes "
                                        + "(256 bits) in base64, for example the output of \"openssl rand -base64 32\".",
                                k.expr().range()));
                        continue;
                    }
                    keys.put(ref, new KeySource.Raw(bytes));
                }
                default ->
                    diags.add(Diagnostic.error(
                            "Unsupported key provider",
                            "Strata's key providers are " + "\"pbkdf2\" (a passphrase) and \"raw\" (a 256-bit key); \""
                                    + type + "\" is not available.",
                            b.labelRanges().get(0)));
            }
        }
        for (Block b : content.value().blocksOfType("method")) {
            String type = b.labels().get(0);
            String ref = "method." + type + "." + b.labels().get(1);
            if (!declared.add(ref)) {
                diags.add(Diagnostic.error(
                        "Duplicate method",
                        "There is already a " + ref + " in this encryption " + "block.",
                        b.defRange()));
                continue;
            }
            switch (type) {
                case "aes_gcm" -> {
                    Result<BodyContent> c = b.body().content(AES_GCM);
                    diags.addAll(c.diagnostics());
                    if (c.hasErrors()) {
                        continue;
                    }
                    Attribute k = c.value().attributes().get("keys");
                    Optional<String> target = reference(k.expr(), "key_provider", diags);
                    if (target.isEmpty()) {
                        continue;
                    }
                    KeySource key = keys.get(target.get());
                    if (key == null) {
                        if (!declared.contains(target.get())) {
                            diags.add(Diagnostic.error(
                                    "Reference to undeclared key provider",
                                    "There is no " + target.get() + " in this encryption block.",
                                    k.expr().range()));
                        }
                        continue;
                    }
                    methods.put(ref, key);
                }
                case "unencrypted" -> {
                    diags.addAll(b.body().content(UNENCRYPTED).diagnostics());
                    methods.put(ref, KeySource.UNENCRYPTED);
                }
                default ->
                    diags.add(Diagnostic.error(
                            "Unsupported encryption method",
                            "Strata's methods are " + "\"aes_gcm\" and \"unencrypted\"; \"" + type
                                    + "\" is not available.",
                            b.labelRanges().get(0)));
            }
        }
        for (String unsupported : List.of("plan", "remote_state_data_sources")) {
            for (Block b : content.value().blocksOfType(unsupported)) {
                // Ignoring it would leave files unencrypted that the user asked to encrypt.
                diags.add(Diagnostic.error(
                        "Unsupported encryption target",
                        "Strata encrypts states only; encrypting "
                                + (unsupported.equals("plan") ? "saved plan files" : "terraform_remote_state sources")
                                + " is not implemented. Remove this block.",
                        b.defRange()));
            }
        }
        List<Block> states = content.value().blocksOfType("state");
        if (diags.hasErrors()) {
            return Result.of(null, diags.build());
        }
        if (states.isEmpty()) {
            return Result.of(State.NONE, diags.build());
        }
        Block state = states.get(0);
        if (states.size() > 1) {
            diags.add(Diagnostic.error(
                    "Duplicate state block",
                    "An encryption block may have only one state block.",
                    states.get(1).defRange()));
            return Result.of(null, diags.build());
        }
        Result<BodyContent> sc = state.body().content(STATE);
        diags.addAll(sc.diagnostics());
        if (sc.hasErrors()) {
            return Result.of(null, diags.build());
        }
        KeySource primary = method(sc.value().attributes().get("method"), methods, declared, diags);
        Attribute enforcedAttr = sc.value().attributes().get("enforced");
        boolean enforced = enforcedAttr != null && Boolean.TRUE.equals(bool(constants, enforcedAttr, diags));
        KeySource fallback = null;
        List<Block> fallbacks = sc.value().blocksOfType("fallback");
        if (fallbacks.size() > 1) {
            diags.add(Diagnostic.error(
                    "Duplicate fallback block",
                    "A state block may have only one fallback.",
                    fallbacks.get(1).defRange()));
        } else if (fallbacks.size() == 1) {
            Result<BodyContent> fc = fallbacks.get(0).body().content(FALLBACK);
            diags.addAll(fc.diagnostics());
            if (!fc.hasErrors()) {
                fallback = method(fc.value().attributes().get("method"), methods, declared, diags);
            }
        }
        if (diags.hasErrors()) {
            return Result.of(null, diags.build());
        }
        if (enforced && primary instanceof KeySource.Unencrypted) {
            diags.add(Diagnostic.error(
                    "Unencrypted state is not allowed",
                    "The state block sets enforced = true, "
                            + "so its method must encrypt; it names an \"unencrypted\" method.",
                    sc.value().attributes().get("method").expr().range()));
            return Result.of(null, diags.build());
        }
        return Result.of(new State(primary, fallback), diags.build());
    }

    private static KeySource method(
            Attribute a, Map<String, KeySource> methods, java.util.Set<String> declared, Diagnostics.Builder diags) {
        Optional<String> target = reference(a.expr(), "method", diags);
        if (target.isEmpty()) {
            return null;
        }
        KeySource k = methods.get(target.get());
        if (k == null && !declared.contains(target.get())) {
            diags.add(Diagnostic.error(
                    "Reference to undeclared method",
                    "There is no " + target.get() + " in this encryption block.",
                    a.expr().range()));
        }
        return k;
    }

    /** {@code kind.TYPE.NAME} as written, or empty after adding a diagnostic. */
    private static Optional<String> reference(Expression e, String kind, Diagnostics.Builder diags) {
        Result<Optional<Traversal>> t = e.asTraversal();
        List<Traverser> steps = t.value() == null || t.value().isEmpty()
                ? List.of()
                : t.value().get().steps();
        if (t.hasErrors()
                || steps.size() != 3
                || !(steps.get(0) instanceof Traverser.Root r)
                || !r.name().equals(kind)
                || !(steps.get(1) instanceof Traverser.Attr type)
                || !(steps.get(2) instanceof Traverser.Attr name)) {
            diags.add(Diagnostic.error(
                    "Invalid reference", "Expected a reference of the form " + kind + ".TYPE.NAME.", e.range()));
            return Optional.empty();
        }
        return Optional.of(kind + "." + type.name() + "." + name.name());
    }

    /**
     * Input variables of the root module, resolved (once, when first referenced) from their defaults,
     * {@code TF_VAR_*} and the tfvars files; anything else is not available this early.
     */
    private static final class VariablesData extends PartialData {
        private final ModuleConfig root;
        private final Path dir;
        private final Map<String, String> env;
        private final FunctionTable functions;
        private SortedMap<String, Value> values;

        VariablesData(ModuleConfig root, Path dir, Map<String, String> env, FunctionTable functions) {
            this.root = root;
            this.dir = dir;
            this.env = env;
            this.functions = functions;
        }

        @Override
        public Diagnostics invalidReference(Traversal t, Diagnostics problems) {
            return Diagnostics.of(notAvailable(t.range()));
        }

        @Override
        protected Result<Value> other(Reference ref) {
            return failed(notAvailable(written(ref)));
        }

        private static Diagnostic notAvailable(SourceRange range) {
            return Diagnostic.error(
                    "Invalid reference in the encryption block",
                    "Only literal values, function "
                            + "calls and input variables (var.NAME) may be used here: state encryption is set up before "
                            + "locals, resources and data sources have values.",
                    range);
        }

        @Override
        public Result<Value> inputVariable(InputVariable variable, Reference ref) {
            String name = variable.name();
            if (root == null || !root.variables().containsKey(name)) {
                return failed(Diagnostic.error(
                        "Reference to undeclared input variable",
                        "An input variable with " + "the name \"" + name
                                + "\" has not been declared in the root module.",
                        written(ref)));
            }
            if (values == null) {
                // Problems with other variables are not this block's to report: only the value matters here.
                values = InputVariables.resolve(root, dir, env, List.of()).value();
            }
            Value v = values.get(name);
            if (v == null || !v.isWhollyKnown()) {
                return failed(Diagnostic.error(
                        "No value for required variable",
                        "var." + name + " has no "
                                + "value here. Set it with the TF_VAR_" + name
                                + " environment variable, in terraform.tfvars "
                                + "or with a default: the state is opened before -var options are read.",
                        written(ref)));
            }
            return Result.of(v);
        }

        /** The whole reference as written, with the steps after its subject. */
        private static SourceRange written(Reference ref) {
            return ref.remaining().isEmpty()
                    ? ref.range()
                    : SourceRange.between(ref.range(), ref.remaining().getLast().range());
        }

        private static Result<Value> failed(Diagnostic d) {
            return Result.of(Value.DYNAMIC_UNKNOWN, Diagnostics.of(d));
        }

        @Override
        public FunctionTable functions() {
            return functions;
        }
    }

    private static Value constant(Evaluator constants, Attribute a, Type type, String what, Diagnostics.Builder diags) {
        Result<Value> v = constants.evaluate(a.expr());
        if (v.hasErrors()) {
            // The evaluator's messages name functions and paths, never the evaluated secret.
            diags.addAll(v.diagnostics());
            return null;
        }
        ConversionResult c = Convert.convert(v.value().unmark(), type);
        if (!c.isOk() || c.value().isNull() || !c.value().isKnown()) {
            diags.add(Diagnostic.error(
                    "Invalid " + a.name(),
                    "\"" + a.name() + "\" must be " + what + ".",
                    a.expr().range()));
            return null;
        }
        return c.value();
    }

    private static String string(Evaluator constants, Attribute a, Diagnostics.Builder diags) {
        Value v = constant(constants, a, Type.STRING, "a string", diags);
        return v == null ? null : v.asString();
    }

    private static Integer integer(Evaluator constants, Attribute a, Diagnostics.Builder diags) {
        Value v = constant(constants, a, Type.NUMBER, "a whole number", diags);
        if (v == null) {
            return null;
        }
        try {
            return v.asNumber().intValueExact();
        } catch (ArithmeticException e) {
            diags.add(Diagnostic.error(
                    "Invalid " + a.name(),
                    "\"" + a.name() + "\" must be a whole number.",
                    a.expr().range()));
            return null;
        }
    }

    private static Boolean bool(Evaluator constants, Attribute a, Diagnostics.Builder diags) {
        Value v = constant(constants, a, Type.BOOL, "true or false", diags);
        return v == null ? null : v.asBool();
    }
}
