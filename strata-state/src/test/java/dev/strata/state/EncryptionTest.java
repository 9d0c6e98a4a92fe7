package dev.strata.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Result;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EncryptionTest {
    static final Encryption.Key PASS = new Encryption.Key.Passphrase("main", "correct horse battery staple");
    static final Encryption.Key OTHER = new Encryption.Key.Passphrase("main", "a different long passphrase");
    static final Encryption.Key RAW = new Encryption.Key.Raw(new byte[32]);

    @TempDir
    Path dir;

    static StateSnapshot sample() {
        return StateSnapshot.empty("0.1.0")
                .withLineage("2b1c6f0e-7d1a-4f0c-9a51-1d2e3f4a5b6c")
                .withOutputs(Map.of(
                        "counter", new OutputValue(JsonValue.NumberValue.of(42), JsonValue.of("number"), false),
                        "secret", new OutputValue(JsonValue.of("hunter2-top-secret"), JsonValue.of("string"), true)));
    }

    static Diagnostic error(Result<StateSnapshot> r) {
        assertThat(r.value()).isNull();
        return r.diagnostics().asList().get(0);
    }

    @Test
    void passphraseRoundTripHidesTheContentAndKeepsAClearHeader() {
        Encryption e = Encryption.of(PASS, null);
        byte[] stored = e.encode(sample());
        String text = new String(stored, StandardCharsets.UTF_8);
        assertThat(text)
                .doesNotContain("hunter2")
                .contains("\"format\": \"aes-256-gcm/v1\"")
                .contains("\"kdf\": \"pbkdf2-hmac-sha256\"")
                .contains("\"iterations\": 600000");
        // A fresh instance (no cached key) decrypts it.
        Result<StateSnapshot> r = Encryption.of(PASS, null).decode(stored, "terraform.tfstate", "");
        assertThat(r.diagnostics().asList()).isEmpty();
        assertThat(r.value()).isEqualTo(sample());
    }

    @Test
    void wrongKeyMissingKeyAndMismatchesAreNamed() {
        byte[] stored = Encryption.of(PASS, null).encode(sample());
        assertThat(error(Encryption.of(OTHER, null).decode(stored, "terraform.tfstate", ""))
                        .summary())
                .isEqualTo("Wrong state encryption key");
        Diagnostic none = error(Encryption.NONE.decode(stored, "terraform.tfstate", ""));
        assertThat(none.summary()).isEqualTo("State is encrypted");
        assertThat(none.detail()).contains("STRATA_STATE_PASSPHRASE");
        Diagnostic plain = error(Encryption.of(PASS, null).decode(StateCodec.write(sample()), "terraform.tfstate", ""));
        assertThat(plain.summary()).isEqualTo("State is not encrypted");
        assertThat(plain.detail()).contains("STRATA_STATE_FALLBACK=plaintext");
        byte[] raw = Encryption.of(RAW, null).encode(sample());
        assertThat(error(Encryption.of(
                                        new Encryption.Key.Raw(new byte[] {
                                            1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
                                            22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32
                                        }),
                                        null)
                                .decode(raw, "f", ""))
                        .detail())
                .contains("neither the configured key nor the fallback");
    }

    @Test
    void tamperingIsDetected() {
        String stored = new String(Encryption.of(RAW, null).encode(sample()), StandardCharsets.UTF_8);
        String tampered = stored.replace("\"kdf\": \"none\"", "\"kdf\": \"nonE\"");
        assertThat(error(Encryption.of(RAW, null).decode(tampered.getBytes(StandardCharsets.UTF_8), "f", ""))
                        .detail())
                .contains("or the file was altered");
    }

    @Test
    void migrationInAndOutAndKeyRotationThroughTheBackend() throws Exception {
        LocalBackend plain = LocalBackend.in(dir, "0.1.0");
        try (StateManager m =
                plain.open("default", LockRequest.of("apply", Duration.ZERO)).value()) {
            m.persist(sample());
        }
        // Encrypt: the new key, reading the old plaintext once.
        LocalBackend encrypting = plain.withEncryption(Encryption.of(PASS, Encryption.Key.PLAINTEXT));
        try (StateManager m = encrypting
                .open("default", LockRequest.of("apply", Duration.ZERO))
                .value()) {
            assertThat(StateProcess.counter(m.state())).isEqualTo(42);
            m.persist(StateProcess.withCounter(m.state(), 43));
        }
        assertThat(Files.readString(dir.resolve("terraform.tfstate")))
                .contains("strata_encrypted_state")
                .doesNotContain("hunter2");
        assertThat(plain.open("default", LockRequest.none())
                        .diagnostics()
                        .asList()
                        .get(0)
                        .summary())
                .isEqualTo("State is encrypted");
        // Rotate: new raw key, old passphrase as fallback.
        LocalBackend rotated = plain.withEncryption(Encryption.of(RAW, PASS));
        try (StateManager m =
                rotated.open("default", LockRequest.of("apply", Duration.ZERO)).value()) {
            m.persist(StateProcess.withCounter(m.state(), 44));
        }
        assertThat(plain.withEncryption(Encryption.of(PASS, null))
                        .open("default", LockRequest.none())
                        .diagnostics()
                        .asList()
                        .get(0)
                        .summary())
                .isEqualTo("Wrong state encryption key");
        // Decrypt for good: no key, the old one as fallback.
        LocalBackend decrypting = plain.withEncryption(Encryption.of(Encryption.Key.PLAINTEXT, RAW));
        try (StateManager m = decrypting
                .open("default", LockRequest.of("apply", Duration.ZERO))
                .value()) {
            assertThat(StateProcess.counter(m.state())).isEqualTo(44);
            m.persist(StateProcess.withCounter(m.state(), 45));
        }
        try (StateManager m = plain.open("default", LockRequest.none()).value()) {
            assertThat(StateProcess.counter(m.state())).isEqualTo(45);
            assertThat(m.state().serial()).isEqualTo(4);
        }
    }

    @Test
    void configurationFromTheEnvironment() {
        assertThat(Encryption.fromEnv(Map.of()).value().encrypts()).isFalse();
        assertThat(Encryption.fromEnv(Map.of("STRATA_STATE_PASSPHRASE", "long enough passphrase!"))
                        .value()
                        .encrypts())
                .isTrue();
        assertThat(Encryption.fromEnv(Map.of("STRATA_STATE_PASSPHRASE", "short"))
                        .diagnostics()
                        .asList()
                        .get(0)
                        .detail())
                .contains("at least 16 characters");
        assertThat(Encryption.fromEnv(
                                Map.of("STRATA_STATE_KEY", Base64.getEncoder().encodeToString(new byte[31])))
                        .diagnostics()
                        .asList()
                        .get(0)
                        .detail())
                .contains("must be 32 bytes");
        Encryption migrating = Encryption.fromEnv(Map.of(
                        "STRATA_STATE_KEY",
                        Base64.getEncoder().encodeToString(new byte[32]),
                        "STRATA_STATE_FALLBACK",
                        "plaintext"))
                .value();
        assertThat(migrating.decode(StateCodec.write(sample()), "f", "").value())
                .isEqualTo(sample());
    }
}
