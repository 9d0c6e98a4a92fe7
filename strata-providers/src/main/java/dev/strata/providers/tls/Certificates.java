package dev.strata.providers.tls;

import dev.strata.addr.AttributePath;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import dev.strata.provider.Attribute;
import dev.strata.provider.Block;
import dev.strata.provider.ProviderDiagnostics;
import dev.strata.provider.Schema;
import dev.strata.provider.sdk.Attrs;
import dev.strata.provider.sdk.ManagedResource;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.Date;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.bouncycastle.asn1.pkcs.PKCSObjectIdentifiers;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.AuthorityKeyIdentifier;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.Extensions;
import org.bouncycastle.asn1.x509.ExtensionsGenerator;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.SubjectKeyIdentifier;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.operator.jcajce.JcaContentVerifierProviderBuilder;
import org.bouncycastle.pkcs.PKCS10CertificationRequest;
import org.bouncycastle.pkcs.PKCS10CertificationRequestBuilder;
import org.bouncycastle.pkcs.PKCSException;

/** {@code tls_self_signed_cert}, {@code tls_cert_request} and {@code tls_locally_signed_cert}. */
final class Certificates {

    private Certificates() {}

    private static void certAttributes(Block.Builder b) {
        b.attribute(
                        "validity_period_hours",
                        Attribute.required(Type.NUMBER)
                                .withDescription(
                                        "Number of hours, after initial issuing, that the certificate will remain valid for."))
                .attribute(
                        "allowed_uses",
                        Attribute.required(Type.list(Type.STRING))
                                .withDescription(
                                        "List of key usages allowed for the issued certificate. Values are defined in RFC 5280 and"
                                                + " combine flags defined by both Key Usages and Extended Key Usages."))
                .attribute(
                        "early_renewal_hours",
                        Attribute.optionalComputed(Type.NUMBER)
                                .withDescription(
                                        "The resource will consider the certificate to have expired the given number of hours before its"
                                                + " actual expiry time. Default: `0`."))
                .attribute(
                        "is_ca_certificate",
                        Attribute.optionalComputed(Type.BOOL)
                                .withDescription(
                                        "Is the generated certificate representing a Certificate Authority (CA) (default: `false`)."))
                .attribute(
                        "set_subject_key_id",
                        Attribute.optionalComputed(Type.BOOL)
                                .withDescription(
                                        "Should the generated certificate include a subject key identifier (default: `false`)."))
                .attribute(
                        "cert_pem",
                        Attribute.computed(Type.STRING).withDescription("Certificate data in PEM (RFC 1421) format."))
                .attribute(
                        "validity_start_time",
                        Attribute.computed(Type.STRING)
                                .withDescription(
                                        "The time after which the certificate is valid, expressed as an RFC3339 timestamp."))
                .attribute(
                        "validity_end_time",
                        Attribute.computed(Type.STRING)
                                .withDescription(
                                        "The time until which the certificate is invalid, expressed as an RFC3339 timestamp."))
                .attribute(
                        "ready_for_renewal",
                        Attribute.computed(Type.BOOL)
                                .withDescription(
                                        "Is the certificate either expired (i.e. beyond the `validity_period_hours`) or ready for an early"
                                                + " renewal (i.e. within the `early_renewal_hours`)?"))
                .attribute(
                        "id",
                        Attribute.computed(Type.STRING)
                                .withDescription(
                                        "Unique identifier for this resource: the certificate serial number."));
    }

    /** The certificate life cycle both certificate resources share: renewal and in-place changes of early renewal. */
    abstract static class Cert implements ManagedResource {
        final Clock clock;
        final SecureRandom random;

        Cert(Clock clock, SecureRandom random) {
            this.clock = clock;
            this.random = random;
        }

        @Override
        public Map<String, Value> defaults() {
            return Map.of(
                    "early_renewal_hours",
                    Value.number(0),
                    "is_ca_certificate",
                    Value.FALSE,
                    "set_subject_key_id",
                    Value.FALSE);
        }

        @Override
        public Set<String> stableComputed() {
            Set<String> s = new LinkedHashSet<>(List.of("cert_pem", "validity_start_time", "validity_end_time", "id"));
            s.addAll(extraStable());
            return s;
        }

        abstract Set<String> extraStable();

        @Override
        public void validate(Value config, ProviderDiagnostics.Builder diags) {
            CertSupport.checkUses(config, diags);
            for (String a : List.of("validity_period_hours", "early_renewal_hours")) {
                Value v = Attrs.get(config, a).unmarkDeep();
                if (v.isKnownAndNotNull() && v.asNumber().signum() < 0) {
                    diags.error(
                            "Invalid Attribute Value",
                            "Attribute " + a + " value must be at least 0, got: " + v.numberText(),
                            AttributePath.of(a));
                }
            }
        }

        /** A certificate is replaced once it is within its early-renewal window, as a refresh finds. */
        @Override
        public Value modifyPlan(PlanContext plan, ProviderDiagnostics.Builder diags) {
            Value planned = plan.planned();
            if (!plan.isCreate() && plan.requiresReplace().isEmpty()) {
                BigDecimal early = Attrs.number(planned, "early_renewal_hours");
                boolean ready = readyForRenewal(Attrs.string(plan.prior(), "validity_end_time"), early);
                if (ready) {
                    plan.requiresReplace().add(AttributePath.of("ready_for_renewal"));
                    for (String s : stableComputed()) {
                        planned = Attrs.with(planned, s, Value.unknown(Type.STRING));
                    }
                }
            }
            return Attrs.with(planned, "ready_for_renewal", Value.FALSE);
        }

        boolean readyForRenewal(String end, BigDecimal earlyHours) {
            Instant e = java.time.OffsetDateTime.parse(end).toInstant();
            long early = earlyHours == null ? 0 : earlyHours.longValue();
            return !clock.instant().isBefore(e.minus(Duration.ofHours(early)));
        }

        @Override
        public Value update(Value prior, Value planned, Value config, ProviderDiagnostics.Builder diags) {
            return Attrs.with(
                    planned,
                    "ready_for_renewal",
                    Value.bool(readyForRenewal(
                            Attrs.string(planned, "validity_end_time"), Attrs.number(planned, "early_renewal_hours"))));
        }

        @Override
        public Value read(Value state, ProviderDiagnostics.Builder diags) {
            return Attrs.with(
                    state,
                    "ready_for_renewal",
                    Value.bool(readyForRenewal(
                            Attrs.string(state, "validity_end_time"), Attrs.number(state, "early_renewal_hours"))));
        }

        /** Builds, signs and records a certificate. */
        Value issue(
                Value planned,
                X500Name issuer,
                X500Name subject,
                SubjectPublicKeyInfo spki,
                GeneralNames sans,
                Keys.Key signer,
                byte[] authorityKeyId,
                ProviderDiagnostics.Builder diags) {
            Instant start = clock.instant().truncatedTo(ChronoUnit.SECONDS);
            Instant end = start.plus(Duration.ofHours(
                    Attrs.number(planned, "validity_period_hours").longValue()));
            BigInteger serial = CertSupport.serial(random);
            boolean isCa = Boolean.TRUE.equals(Attrs.bool(planned, "is_ca_certificate"));
            try {
                X509v3CertificateBuilder b =
                        new X509v3CertificateBuilder(issuer, serial, Date.from(start), Date.from(end), subject, spki);
                ExtensionsGenerator ext = new ExtensionsGenerator();
                CertSupport.usageExtensions(ext, Attrs.stringList(planned, "allowed_uses"), isCa);
                // Go adds a subject key id to every CA certificate, and to others when asked.
                if (isCa || Boolean.TRUE.equals(Attrs.bool(planned, "set_subject_key_id"))) {
                    ext.addExtension(
                            Extension.subjectKeyIdentifier,
                            false,
                            new SubjectKeyIdentifier(CertSupport.subjectKeyId(spki)));
                }
                if (authorityKeyId != null) {
                    ext.addExtension(
                            Extension.authorityKeyIdentifier, false, new AuthorityKeyIdentifier(authorityKeyId));
                }
                if (sans != null) {
                    ext.addExtension(Extension.subjectAlternativeName, false, sans);
                }
                Extensions all = ext.generate();
                for (org.bouncycastle.asn1.ASN1ObjectIdentifier oid : all.getExtensionOIDs()) {
                    b.addExtension(all.getExtension(oid));
                }
                ContentSigner s = new JcaContentSignerBuilder(CertSupport.signatureAlgorithm(signer))
                        .setProvider(Keys.BC)
                        .build(signer.privateKey());
                X509CertificateHolder cert = b.build(s);
                return Attrs.with(
                        planned,
                        "cert_pem",
                        Value.string(Pem.encode("CERTIFICATE", cert.getEncoded())),
                        "validity_start_time",
                        Value.string(CertSupport.time(start)),
                        "validity_end_time",
                        Value.string(CertSupport.time(end)),
                        "ready_for_renewal",
                        Value.bool(
                                readyForRenewal(CertSupport.time(end), Attrs.number(planned, "early_renewal_hours"))),
                        "id",
                        Value.string(serial.toString()));
            } catch (IOException | OperatorCreationException e) {
                diags.error(
                        "Unable to create certificate",
                        "The certificate could not be created (" + e.getClass().getSimpleName() + ").",
                        null);
                return null;
            }
        }
    }

    static final class SelfSigned extends Cert {
        private static final Schema SCHEMA;

        static {
            Block.Builder b = Block.builder()
                    .attribute(
                            "private_key_pem",
                            Attribute.required(Type.STRING)
                                    .withSensitive()
                                    .withDescription(
                                            "Private key in PEM (RFC 1421) interpolate whose public counterpart will be the certificate's key."))
                    .attribute(
                            "set_authority_key_id",
                            Attribute.optionalComputed(Type.BOOL)
                                    .withDescription(
                                            "Should the generated certificate include an authority key identifier (default: `false`)."))
                    .attribute(
                            "key_algorithm",
                            Attribute.computed(Type.STRING)
                                    .withDescription(
                                            "Name of the algorithm used when generating the private key provided in `private_key_pem`."))
                    .block("subject", CertSupport.subjectBlock());
            CertSupport.nameAttributes(b);
            certAttributes(b);
            SCHEMA = Schema.of(b.build());
        }

        SelfSigned(Clock clock, SecureRandom random) {
            super(clock, random);
        }

        @Override
        public String typeName() {
            return "tls_self_signed_cert";
        }

        @Override
        public Schema schema() {
            return SCHEMA;
        }

        @Override
        Set<String> extraStable() {
            return Set.of("key_algorithm");
        }

        @Override
        public Set<String> forceNew() {
            return Set.of(
                    "private_key_pem",
                    "subject",
                    "dns_names",
                    "ip_addresses",
                    "uris",
                    "validity_period_hours",
                    "allowed_uses",
                    "is_ca_certificate",
                    "set_subject_key_id",
                    "set_authority_key_id");
        }

        @Override
        public Map<String, Value> defaults() {
            Map<String, Value> d = new java.util.HashMap<>(super.defaults());
            d.put("set_authority_key_id", Value.FALSE);
            return d;
        }

        @Override
        public Value create(Value planned, Value config, String idempotencyToken, ProviderDiagnostics.Builder diags) {
            Optional<Keys.Key> key = Keys.parsePrivateKeyPem(Attrs.string(planned, "private_key_pem"));
            if (key.isEmpty()) {
                diags.error(
                        "Failed to parse private key PEM",
                        "private_key_pem is not an RSA, ECDSA or ED25519 private key" + " in PEM format.",
                        AttributePath.of("private_key_pem"));
                return null;
            }
            SubjectPublicKeyInfo spki = SubjectPublicKeyInfo.getInstance(Keys.publicKeyDer(key.get()));
            X500Name subject = CertSupport.subject(planned);
            GeneralNames sans = CertSupport.altNames(
                    Attrs.stringList(planned, "dns_names"),
                    Attrs.stringList(planned, "ip_addresses"),
                    Attrs.stringList(planned, "uris"),
                    diags);
            if (diags.hasErrors()) {
                return null;
            }
            byte[] aki = Boolean.TRUE.equals(Attrs.bool(planned, "set_authority_key_id"))
                    ? CertSupport.subjectKeyId(spki)
                    : null;
            Value v = issue(planned, subject, subject, spki, sans, key.get(), aki, diags);
            return v == null
                    ? null
                    : Attrs.with(
                            v,
                            "key_algorithm",
                            Value.string(key.get().algorithm().name()));
        }
    }

    static final class Request implements ManagedResource {
        private static final Schema SCHEMA;

        static {
            Block.Builder b = Block.builder()
                    .attribute(
                            "private_key_pem",
                            Attribute.required(Type.STRING)
                                    .withSensitive()
                                    .withDescription(
                                            "Private key in PEM (RFC 1421) format, that the certificate will belong to."))
                    .attribute(
                            "cert_request_pem",
                            Attribute.computed(Type.STRING)
                                    .withDescription("The certificate request data in PEM (RFC 1421) format."))
                    .attribute(
                            "key_algorithm",
                            Attribute.computed(Type.STRING)
                                    .withDescription(
                                            "Name of the algorithm used when generating the private key provided in `private_key_pem`."))
                    .attribute(
                            "id",
                            Attribute.computed(Type.STRING)
                                    .withDescription(
                                            "Unique identifier for this resource: hexadecimal representation of the SHA1 checksum of the resource."))
                    .block("subject", CertSupport.subjectBlock());
            CertSupport.nameAttributes(b);
            SCHEMA = Schema.of(b.build());
        }

        @Override
        public String typeName() {
            return "tls_cert_request";
        }

        @Override
        public Schema schema() {
            return SCHEMA;
        }

        @Override
        public Set<String> forceNew() {
            return Set.of("private_key_pem", "subject", "dns_names", "ip_addresses", "uris");
        }

        @Override
        public Value create(Value planned, Value config, String idempotencyToken, ProviderDiagnostics.Builder diags) {
            Optional<Keys.Key> key = Keys.parsePrivateKeyPem(Attrs.string(planned, "private_key_pem"));
            if (key.isEmpty()) {
                diags.error(
                        "Failed to parse private key PEM",
                        "private_key_pem is not an RSA, ECDSA or ED25519 private key" + " in PEM format.",
                        AttributePath.of("private_key_pem"));
                return null;
            }
            GeneralNames sans = CertSupport.altNames(
                    Attrs.stringList(planned, "dns_names"),
                    Attrs.stringList(planned, "ip_addresses"),
                    Attrs.stringList(planned, "uris"),
                    diags);
            if (diags.hasErrors()) {
                return null;
            }
            try {
                PKCS10CertificationRequestBuilder b = new PKCS10CertificationRequestBuilder(
                        CertSupport.subject(planned), SubjectPublicKeyInfo.getInstance(Keys.publicKeyDer(key.get())));
                if (sans != null) {
                    ExtensionsGenerator ext = new ExtensionsGenerator();
                    ext.addExtension(Extension.subjectAlternativeName, false, sans);
                    b.addAttribute(PKCSObjectIdentifiers.pkcs_9_at_extensionRequest, ext.generate());
                }
                PKCS10CertificationRequest csr =
                        b.build(new JcaContentSignerBuilder(CertSupport.signatureAlgorithm(key.get()))
                                .setProvider(Keys.BC)
                                .build(key.get().privateKey()));
                byte[] der = csr.getEncoded();
                return Attrs.with(
                        planned,
                        "cert_request_pem",
                        Value.string(Pem.encode("CERTIFICATE REQUEST", der)),
                        "key_algorithm",
                        Value.string(key.get().algorithm().name()),
                        "id",
                        Value.string(HexFormat.of().formatHex(Keys.digest("SHA-1", der))));
            } catch (IOException | OperatorCreationException e) {
                diags.error(
                        "Error creating certificate request",
                        "The request could not be created (" + e.getClass().getSimpleName() + ").",
                        null);
                return null;
            }
        }
    }

    static final class LocallySigned extends Cert {
        private static final Schema SCHEMA;

        static {
            Block.Builder b = Block.builder()
                    .attribute(
                            "cert_request_pem",
                            Attribute.required(Type.STRING)
                                    .withDescription("Certificate request data in PEM (RFC 1421) format."))
                    .attribute(
                            "ca_private_key_pem",
                            Attribute.required(Type.STRING)
                                    .withSensitive()
                                    .withDescription(
                                            "Private key of the Certificate Authority (CA) used to sign the certificate, in PEM (RFC 1421) format."))
                    .attribute(
                            "ca_cert_pem",
                            Attribute.required(Type.STRING)
                                    .withDescription(
                                            "Certificate data of the Certificate Authority (CA) in PEM (RFC 1421) format."))
                    .attribute(
                            "ca_key_algorithm",
                            Attribute.computed(Type.STRING)
                                    .withDescription(
                                            "Name of the algorithm used when generating the private key provided in `ca_private_key_pem`."));
            certAttributes(b);
            SCHEMA = Schema.of(b.build());
        }

        LocallySigned(Clock clock, SecureRandom random) {
            super(clock, random);
        }

        @Override
        public String typeName() {
            return "tls_locally_signed_cert";
        }

        @Override
        public Schema schema() {
            return SCHEMA;
        }

        @Override
        Set<String> extraStable() {
            return Set.of("ca_key_algorithm");
        }

        @Override
        public Set<String> forceNew() {
            return Set.of(
                    "cert_request_pem",
                    "ca_private_key_pem",
                    "ca_cert_pem",
                    "validity_period_hours",
                    "allowed_uses",
                    "is_ca_certificate",
                    "set_subject_key_id");
        }

        @Override
        public Value create(Value planned, Value config, String idempotencyToken, ProviderDiagnostics.Builder diags) {
            List<Pem.Block> csrBlocks = Pem.decodeAll(Attrs.string(planned, "cert_request_pem"));
            List<Pem.Block> caBlocks = Pem.decodeAll(Attrs.string(planned, "ca_cert_pem"));
            Optional<Keys.Key> caKey = Keys.parsePrivateKeyPem(Attrs.string(planned, "ca_private_key_pem"));
            if (csrBlocks.isEmpty() || !csrBlocks.get(0).type().equals("CERTIFICATE REQUEST")) {
                diags.error(
                        "Failed to parse certificate request PEM",
                        "cert_request_pem is not a certificate request in PEM" + " format.",
                        AttributePath.of("cert_request_pem"));
                return null;
            }
            if (caBlocks.isEmpty() || !caBlocks.get(0).type().equals("CERTIFICATE")) {
                diags.error(
                        "Failed to parse CA certificate PEM",
                        "ca_cert_pem is not a certificate in PEM format.",
                        AttributePath.of("ca_cert_pem"));
                return null;
            }
            if (caKey.isEmpty()) {
                diags.error(
                        "Failed to parse CA private key PEM",
                        "ca_private_key_pem is not an RSA, ECDSA or ED25519 private" + " key in PEM format.",
                        AttributePath.of("ca_private_key_pem"));
                return null;
            }
            try {
                PKCS10CertificationRequest csr =
                        new PKCS10CertificationRequest(csrBlocks.get(0).der());
                if (!csr.isSignatureValid(new JcaContentVerifierProviderBuilder()
                        .setProvider(Keys.BC)
                        .build(csr.getSubjectPublicKeyInfo()))) {
                    diags.error(
                            "Invalid certificate request",
                            "The certificate request's signature does not verify.",
                            AttributePath.of("cert_request_pem"));
                    return null;
                }
                X509CertificateHolder ca =
                        new X509CertificateHolder(caBlocks.get(0).der());
                if (!Arrays.equals(ca.getSubjectPublicKeyInfo().getEncoded(), Keys.publicKeyDer(caKey.get()))) {
                    diags.error(
                            "Failed to create certificate",
                            "The CA private key does not match the CA certificate's" + " public key.",
                            AttributePath.of("ca_private_key_pem"));
                    return null;
                }
                GeneralNames sans = null;
                for (org.bouncycastle.asn1.pkcs.Attribute a :
                        csr.getAttributes(PKCSObjectIdentifiers.pkcs_9_at_extensionRequest)) {
                    Extensions ext = Extensions.getInstance(a.getAttrValues().getObjectAt(0));
                    sans = GeneralNames.fromExtensions(ext, Extension.subjectAlternativeName);
                }
                byte[] aki = null;
                Extension skid = ca.getExtension(Extension.subjectKeyIdentifier);
                if (skid != null) {
                    aki = SubjectKeyIdentifier.getInstance(skid.getParsedValue())
                            .getKeyIdentifier();
                }
                Value v = issue(
                        planned,
                        ca.getSubject(),
                        csr.getSubject(),
                        csr.getSubjectPublicKeyInfo(),
                        sans,
                        caKey.get(),
                        aki,
                        diags);
                return v == null
                        ? null
                        : Attrs.with(
                                v,
                                "ca_key_algorithm",
                                Value.string(caKey.get().algorithm().name()));
            } catch (IOException | OperatorCreationException | PKCSException | IllegalArgumentException e) {
                diags.error(
                        "Failed to create certificate",
                        "The certificate request or CA certificate could not be read ("
                                + e.getClass().getSimpleName() + ").",
                        null);
                return null;
            }
        }
    }
}
