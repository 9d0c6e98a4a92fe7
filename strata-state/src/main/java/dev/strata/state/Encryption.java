package dev.strata.state;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Optional encryption of stored states (OpenTofu has it; Terraform does not), wrapping any backend.
 * An encrypted state is a small JSON document: a clear header naming the format, the key and how the
 * key was derived, then the AES-256-GCM ciphertext of the ordinary state JSON, with the header as
 * associated data so it cannot be altered unnoticed:
 *
 * <pre>{"strata_encrypted_state":{"format":"aes-256-gcm/v1","key_id":"...","kdf":"pbkdf2-hmac-sha256",
 * "iterations":600000,"salt":"..."},"iv":"...","ciphertext":"..."}</pre>
 *
 * <p>The header lets a wrong key, a missing key, or an encrypted/unencrypted mismatch be reported as
 * such. A {@code fallback} key is tried for reading only, which is the migration path: to encrypt an
 * existing state use a key with {@link Key#PLAINTEXT} as fallback; to change keys use the old key
 * as fallback; to decrypt for good, write with no key and the old key as fallback.
 */
public final class Encryption {
    static final String HEADER = "strata_encrypted_state";
    static final String FORMAT = "aes-256-gcm/v1";
    private static final int PBKDF2_ITERATIONS = 600_000;
    private static final SecureRandom RANDOM = new SecureRandom();

    /** No encryption: states are read and written as plain JSON; an encrypted state is an error. */
    public static final Encryption NONE = new Encryption(Key.PLAINTEXT, null);

    /** Where a key comes from. */
    public sealed interface Key {
        /** Not a key: read or write plain JSON. */
        Key PLAINTEXT = new Plaintext();

        record Plaintext() implements Key {}

        /**
         * A passphrase, stretched with PBKDF2-HMAC-SHA256 ({@code iterations} rounds, at least
         * {@link #MIN_ITERATIONS}) and a per-state salt. {@code id} names it in the header.
         */
        record Passphrase(String id, String passphrase, int iterations) implements Key {
            /** OWASP's floor for PBKDF2-HMAC-SHA256; OpenTofu refuses fewer too. */
            public static final int MIN_ITERATIONS = 200_000;

            public Passphrase {
                Objects.requireNonNull(id, "id");
                if (passphrase == null || passphrase.length() < 16) {
                    throw new IllegalArgumentException("passphrase must have at least 16 characters");
                }
                if (iterations < MIN_ITERATIONS) {
                    throw new IllegalArgumentException("iterations must be at least " + MIN_ITERATIONS);
                }
            }

            public Passphrase(String id, String passphrase) {
                this(id, passphrase, PBKDF2_ITERATIONS);
            }

            @Override
            public String toString() {
                return "Passphrase[" + id + "]";
            }
        }

        /** A raw 256-bit key; its id is derived from the key, so a different key is recognised as such. */
        record Raw(byte[] key) implements Key {
            public Raw {
                if (key.length != 32) {
                    throw new IllegalArgumentException("a raw key must be 32 bytes (256 bits), not " + key.length);
                }
                key = key.clone();
            }

            String id() {
                try {
                    return "raw:"
                            + HexFormat.of()
                                    .formatHex(
                                            MessageDigest.getInstance("SHA-256").digest(key), 0, 4);
                } catch (GeneralSecurityException e) {
                    throw new IllegalStateException(e);
                }
            }

            @Override
            public String toString() {
                return "Raw[" + id() + "]";
            }
        }
    }

    private final Key primary;
    private final Key fallback;
    /** Derived keys by salt: PBKDF2 is deliberately slow, and the salt stays the same across writes of one state. */
    private final Map<String, byte[]> derived = new ConcurrentHashMap<>();

    private volatile String lastSalt;

    private Encryption(Key primary, Key fallback) {
        this.primary = Objects.requireNonNull(primary, "primary");
        this.fallback = fallback;
    }

    /** Writes with {@code primary}; reads with it, or with {@code fallback} (may be null) when the state was written with that. */
    public static Encryption of(Key primary, Key fallback) {
        return new Encryption(primary, fallback);
    }

    /**
     * From the environment: {@code STRATA_STATE_PASSPHRASE} or {@code STRATA_STATE_KEY} (base64, 32
     * bytes) for the key, {@code STRATA_STATE_FALLBACK_PASSPHRASE} / {@code STRATA_STATE_FALLBACK_KEY}, or
     * {@code STRATA_STATE_FALLBACK=plaintext} to read unencrypted states while migrating.
     */
    public static Result<Encryption> fromEnv(Map<String, String> env) {
        Result<Key> p = key(env, "STRATA_STATE_PASSPHRASE", "STRATA_STATE_KEY", "key");
        Result<Key> f = key(env, "STRATA_STATE_FALLBACK_PASSPHRASE", "STRATA_STATE_FALLBACK_KEY", "fallback");
        Diagnostics d = p.diagnostics().with(f.diagnostics());
        Key fb = f.value();
        if ("plaintext".equals(env.get("STRATA_STATE_FALLBACK"))) {
            fb = Key.PLAINTEXT;
        }
        if (d.hasErrors()) {
            return Result.of(NONE, d);
        }
        return Result.of(new Encryption(p.value() == null ? Key.PLAINTEXT : p.value(), fb), d);
    }

    private static Result<Key> key(Map<String, String> env, String passVar, String keyVar, String role) {
        String pass = env.get(passVar);
        String raw = env.get(keyVar);
        try {
            if (pass != null && !pass.isEmpty()) {
                return Result.of(new Key.Passphrase(role, pass));
            }
            if (raw != null && !raw.isEmpty()) {
                return Result.of(new Key.Raw(Base64.getDecoder().decode(raw.strip())));
            }
            return Result.of(null);
        } catch (IllegalArgumentException e) {
            return Result.of(
                    null,
                    Diagnostics.of(Diagnostic.error(
                            "Invalid state encryption " + role,
                            (pass != null && !pass.isEmpty() ? passVar : keyVar) + ": " + e.getMessage()
                                    + ". Use a passphrase of at least 16 characters, or a 32-byte key in base64 (openssl rand -base64 32).",
                            null)));
        }
    }

    public boolean encrypts() {
        return !(primary instanceof Key.Plaintext);
    }

    /** The stored bytes of a snapshot: plain state JSON, or the encrypted envelope. */
    public byte[] encode(StateSnapshot s) {
        byte[] plain = StateCodec.write(s);
        return switch (primary) {
            case Key.Plaintext p -> plain;
            case Key.Passphrase pp -> seal(plain, pp.id(), "pbkdf2-hmac-sha256", saltForWriting(), pp.iterations(), pp);
            case Key.Raw r -> seal(plain, r.id(), "none", null, 0, r);
        };
    }

    private String saltForWriting() {
        String s = lastSalt;
        if (s == null) {
            byte[] salt = new byte[16];
            RANDOM.nextBytes(salt);
            s = Base64.getEncoder().encodeToString(salt);
            lastSalt = s;
        }
        return s;
    }

    private byte[] seal(byte[] plain, String keyId, String kdf, String salt, int iterations, Key key) {
        Map<String, JsonValue> header = new LinkedHashMap<>();
        header.put("format", JsonValue.of(FORMAT));
        header.put("key_id", JsonValue.of(keyId));
        header.put("kdf", JsonValue.of(kdf));
        if (salt != null) {
            header.put("iterations", JsonValue.NumberValue.of(iterations));
            header.put("salt", JsonValue.of(salt));
        }
        JsonValue.ObjectValue h = new JsonValue.ObjectValue(header);
        byte[] iv = new byte[12];
        RANDOM.nextBytes(iv);
        try {
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            c.init(
                    Cipher.ENCRYPT_MODE,
                    new SecretKeySpec(keyBytes(key, salt, iterations), "AES"),
                    new GCMParameterSpec(128, iv));
            c.updateAAD(h.toCompactJson().getBytes(StandardCharsets.UTF_8));
            byte[] ct = c.doFinal(plain);
            Map<String, JsonValue> env = new LinkedHashMap<>();
            env.put(HEADER, h);
            env.put("iv", JsonValue.of(Base64.getEncoder().encodeToString(iv)));
            env.put("ciphertext", JsonValue.of(Base64.getEncoder().encodeToString(ct)));
            return (new JsonValue.ObjectValue(env).toIndentedJson() + "\n").getBytes(StandardCharsets.UTF_8);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is part of every JDK", e);
        }
    }

    private byte[] keyBytes(Key key, String salt, int iterations) {
        return switch (key) {
            case Key.Raw r -> r.key();
            case Key.Passphrase p ->
                derived.computeIfAbsent(p.id() + "/" + iterations + "/" + salt, k -> {
                    try {
                        SecretKeyFactory f = SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256");
                        return f.generateSecret(new PBEKeySpec(
                                        p.passphrase().toCharArray(),
                                        Base64.getDecoder().decode(salt),
                                        iterations,
                                        256))
                                .getEncoded();
                    } catch (GeneralSecurityException e) {
                        throw new IllegalStateException("PBKDF2 is part of every JDK", e);
                    }
                });
            case Key.Plaintext p -> throw new IllegalStateException("no key bytes for plaintext");
        };
    }

    /**
     * Reads stored bytes: decrypts an envelope with the key it names (primary or fallback), or reads
     * plain JSON when no key is configured or plaintext is the fallback. Mismatches are diagnostics.
     */
    public Result<StateSnapshot> decode(byte[] stored, String name, String recovery) {
        if (primary instanceof Key.Plaintext || fallback instanceof Key.Plaintext) {
            // Read as a plain state at once: looking for the envelope first meant parsing the whole file twice.
            StateCodec.Decoded plain = StateCodec.decode(stored, name, recovery);
            if (!plain.encrypted()) {
                return plain.result();
            }
        }
        Object parsed = JsonReader.parse(stored);
        boolean envelope = parsed instanceof JsonValue.ObjectValue o && o.get(HEADER) instanceof JsonValue.ObjectValue;
        if (!envelope) {
            if (parsed instanceof JsonReader.SyntaxError) {
                return StateCodec.read(stored, name, recovery);
            }
            return fail(
                    "State is not encrypted",
                    "The state " + name + " is stored unencrypted, but state encryption is "
                            + "configured. To encrypt an existing state, allow reading it unencrypted once (STRATA_STATE_FALLBACK="
                            + "plaintext, or a fallback { method = method.unencrypted.NAME } in the encryption block); the next "
                            + "write encrypts it.");
        }
        JsonValue.ObjectValue env = (JsonValue.ObjectValue) parsed;
        JsonValue.ObjectValue h = (JsonValue.ObjectValue) env.get(HEADER);
        String format = text(h, "format");
        String keyId = text(h, "key_id");
        if (!FORMAT.equals(format)) {
            return fail(
                    "Unsupported state encryption",
                    "The state " + name + " is encrypted with format \"" + format
                            + "\", which this version of Strata cannot read (it reads " + FORMAT + ").");
        }
        // Raw keys are recognised by id; passphrases are tried, since an id derived from a passphrase
        // would help guess it. A failed GCM tag means "not this key".
        java.util.List<Key> candidates = new java.util.ArrayList<>();
        for (Key k : new Key[] {primary, fallback}) {
            if (k instanceof Key.Passphrase || (k instanceof Key.Raw r && r.id().equals(keyId))) {
                candidates.add(k);
            }
        }
        if (candidates.isEmpty()) {
            if (!encrypts() && fallback == null) {
                return fail(
                        "State is encrypted",
                        "The state " + name + " is encrypted (key \"" + keyId + "\"), but no "
                                + "state encryption key is configured. Configure it in terraform { encryption { ... } } or set "
                                + "STRATA_STATE_PASSPHRASE or STRATA_STATE_KEY.");
            }
            return fail(
                    "Wrong state encryption key",
                    "The state " + name + " is encrypted with key \"" + keyId
                            + "\", which is neither the configured key nor the fallback. Configure that key (as the fallback "
                            + "to re-encrypt with a new one).");
        }
        byte[] iv;
        byte[] ct;
        String salt = h.get("salt") instanceof JsonValue.StringValue s ? s.value() : null;
        int iterations;
        try {
            iv = Base64.getDecoder().decode(text(env, "iv"));
            ct = Base64.getDecoder().decode(text(env, "ciphertext"));
            iterations = h.get("iterations") instanceof JsonValue.NumberValue n && n.isLong()
                    ? n.decimal().intValueExact()
                    : PBKDF2_ITERATIONS;
        } catch (IllegalArgumentException | ArithmeticException e) {
            return fail(
                    "Invalid encrypted state",
                    "The encrypted state " + name + " is damaged: " + e.getMessage() + ". " + recovery);
        }
        for (Key key : candidates) {
            if (key instanceof Key.Passphrase && salt == null) {
                continue;
            }
            try {
                Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
                c.init(
                        Cipher.DECRYPT_MODE,
                        new SecretKeySpec(keyBytes(key, salt, iterations), "AES"),
                        new GCMParameterSpec(128, iv));
                c.updateAAD(h.toCompactJson().getBytes(StandardCharsets.UTF_8));
                byte[] plain = c.doFinal(ct);
                if (key == primary && salt != null) {
                    lastSalt = salt;
                }
                return StateCodec.read(plain, name, recovery);
            } catch (AEADBadTagException e) {
                // not this key; try the next
            } catch (IllegalArgumentException e) {
                return fail(
                        "Invalid encrypted state",
                        "The encrypted state " + name + " is damaged: " + e.getMessage() + ". " + recovery);
            } catch (GeneralSecurityException e) {
                return fail(
                        "Invalid encrypted state",
                        "The encrypted state " + name + " cannot be decrypted: " + e.getMessage() + ".");
            }
        }
        return fail(
                "Wrong state encryption key",
                "The state " + name + " (key \"" + keyId + "\") could not be decrypted "
                        + "with the configured key" + (fallback == null ? "" : " or the fallback")
                        + ": the passphrase or key is wrong, or the file was altered.");
    }

    private static String text(JsonValue.ObjectValue o, String k) {
        return o.get(k) instanceof JsonValue.StringValue s ? s.value() : "";
    }

    private static Result<StateSnapshot> fail(String summary, String detail) {
        return Result.of(null, Diagnostics.of(Diagnostic.error(summary, detail, null)));
    }
}
