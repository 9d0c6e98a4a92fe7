package dev.strata.providers.tls;

import dev.strata.addr.AttributePath;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import dev.strata.provider.Attribute;
import dev.strata.provider.Block;
import dev.strata.provider.NestedBlock;
import dev.strata.provider.NestingMode;
import dev.strata.provider.ProviderDiagnostics;
import dev.strata.provider.sdk.Attrs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.security.SecureRandom;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.bouncycastle.asn1.ASN1Encodable;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.DERSequence;
import org.bouncycastle.asn1.x500.AttributeTypeAndValue;
import org.bouncycastle.asn1.x500.RDN;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x500.style.IETFUtils;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.ExtensionsGenerator;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;

/** What certificate requests and certificates share: subjects, names, usages, signatures, times. */
final class CertSupport {

    private CertSupport() {}

    static final DateTimeFormatter RFC3339 =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ssXXX").withZone(ZoneOffset.UTC);

    static final Block SUBJECT = Block.builder()
            .attribute("common_name", Attribute.optional(Type.STRING).withDescription("Distinguished name: `CN`"))
            .attribute("organization", Attribute.optional(Type.STRING).withDescription("Distinguished name: `O`"))
            .attribute(
                    "organizational_unit", Attribute.optional(Type.STRING).withDescription("Distinguished name: `OU`"))
            .attribute(
                    "street_address",
                    Attribute.optional(Type.list(Type.STRING)).withDescription("Distinguished name: `STREET`"))
            .attribute("locality", Attribute.optional(Type.STRING).withDescription("Distinguished name: `L`"))
            .attribute("province", Attribute.optional(Type.STRING).withDescription("Distinguished name: `ST`"))
            .attribute("country", Attribute.optional(Type.STRING).withDescription("Distinguished name: `C`"))
            .attribute("postal_code", Attribute.optional(Type.STRING).withDescription("Distinguished name: `PC`"))
            .attribute(
                    "serial_number",
                    Attribute.optional(Type.STRING).withDescription("Distinguished name: `SERIALNUMBER`"))
            .build();

    static NestedBlock subjectBlock() {
        return new NestedBlock(NestingMode.LIST, SUBJECT, 0, 1);
    }

    static void nameAttributes(Block.Builder b) {
        b.attribute(
                        "dns_names",
                        Attribute.optional(Type.list(Type.STRING))
                                .withDescription(
                                        "List of DNS names for which a certificate is being requested (i.e. certificate subjects)."))
                .attribute(
                        "ip_addresses",
                        Attribute.optional(Type.list(Type.STRING))
                                .withDescription(
                                        "List of IP addresses for which a certificate is being requested (i.e. certificate subjects)."))
                .attribute(
                        "uris",
                        Attribute.optional(Type.list(Type.STRING))
                                .withDescription(
                                        "List of URIs for which a certificate is being requested (i.e. certificate subjects)."));
    }

    /** The subject in the order Go's {@code pkix.Name} writes it. */
    static X500Name subject(Value config) {
        X500NameBuilder b = new X500NameBuilder(BCStyle.INSTANCE);
        Value list = Attrs.get(config, "subject");
        if (list.isKnownAndNotNull() && !list.elements().isEmpty()) {
            Value s = list.elements().get(0);
            add(b, BCStyle.C, Attrs.string(s, "country"));
            add(b, BCStyle.ST, Attrs.string(s, "province"));
            add(b, BCStyle.L, Attrs.string(s, "locality"));
            for (String street : Attrs.stringList(s, "street_address")) {
                add(b, BCStyle.STREET, street);
            }
            add(b, BCStyle.POSTAL_CODE, Attrs.string(s, "postal_code"));
            add(b, BCStyle.O, Attrs.string(s, "organization"));
            add(b, BCStyle.OU, Attrs.string(s, "organizational_unit"));
            add(b, BCStyle.CN, Attrs.string(s, "common_name"));
            add(b, BCStyle.SERIALNUMBER, Attrs.string(s, "serial_number"));
        }
        return b.build();
    }

    private static void add(X500NameBuilder b, ASN1ObjectIdentifier oid, String v) {
        if (v != null && !v.isEmpty()) {
            b.addRDN(oid, v);
        }
    }

    private static final Map<ASN1ObjectIdentifier, String> GO_NAMES = Map.of(
            BCStyle.C,
            "C",
            BCStyle.O,
            "O",
            BCStyle.OU,
            "OU",
            BCStyle.CN,
            "CN",
            BCStyle.SERIALNUMBER,
            "SERIALNUMBER",
            BCStyle.L,
            "L",
            BCStyle.ST,
            "ST",
            BCStyle.STREET,
            "STREET",
            BCStyle.POSTAL_CODE,
            "POSTALCODE");

    /** A name as Go's {@code pkix.Name.String()} prints it: RDNs last to first, RFC 2253 escaping. */
    static String goString(X500Name name) {
        RDN[] rdns = name.getRDNs();
        List<String> parts = new ArrayList<>();
        for (int i = rdns.length - 1; i >= 0; i--) {
            List<String> atvs = new ArrayList<>();
            for (AttributeTypeAndValue atv : rdns[i].getTypesAndValues()) {
                String type = GO_NAMES.getOrDefault(atv.getType(), atv.getType().getId());
                atvs.add(type + "=" + escape(IETFUtils.valueToString(atv.getValue())));
            }
            parts.add(String.join("+", atvs));
        }
        return String.join(",", parts);
    }

    // IETFUtils already escapes per RFC 4514; Go also leaves '=' unescaped.
    private static String escape(String s) {
        return s.replace("\\=", "=");
    }

    /** The subjectAltName entries, or problems with them. */
    static GeneralNames altNames(
            List<String> dns, List<String> ips, List<String> uris, ProviderDiagnostics.Builder diags) {
        List<GeneralName> names = new ArrayList<>();
        for (String d : dns) {
            names.add(new GeneralName(GeneralName.dNSName, d));
        }
        for (String ip : ips) {
            if (!ip.matches("[0-9.]+|[0-9a-fA-F:.]*:[0-9a-fA-F:.]*")) {
                diags.error(
                        "Invalid IP address", "\"" + ip + "\" is not an IP address.", AttributePath.of("ip_addresses"));
                continue;
            }
            try {
                names.add(new GeneralName(
                        GeneralName.iPAddress,
                        new org.bouncycastle.asn1.DEROctetString(
                                InetAddress.getByName(ip).getAddress())));
            } catch (UnknownHostException e) {
                diags.error(
                        "Invalid IP address", "\"" + ip + "\" is not an IP address.", AttributePath.of("ip_addresses"));
            }
        }
        for (String u : uris) {
            names.add(new GeneralName(GeneralName.uniformResourceIdentifier, u));
        }
        return names.isEmpty() ? null : new GeneralNames(names.toArray(new GeneralName[0]));
    }

    static final Map<String, Integer> KEY_USAGES = new LinkedHashMap<>();
    static final Map<String, KeyPurposeId> EXT_KEY_USAGES = new LinkedHashMap<>();

    static {
        KEY_USAGES.put("digital_signature", KeyUsage.digitalSignature);
        KEY_USAGES.put("content_commitment", KeyUsage.nonRepudiation);
        KEY_USAGES.put("key_encipherment", KeyUsage.keyEncipherment);
        KEY_USAGES.put("data_encipherment", KeyUsage.dataEncipherment);
        KEY_USAGES.put("key_agreement", KeyUsage.keyAgreement);
        KEY_USAGES.put("cert_signing", KeyUsage.keyCertSign);
        KEY_USAGES.put("crl_signing", KeyUsage.cRLSign);
        KEY_USAGES.put("encipher_only", KeyUsage.encipherOnly);
        KEY_USAGES.put("decipher_only", KeyUsage.decipherOnly);
        EXT_KEY_USAGES.put("any_extended", KeyPurposeId.anyExtendedKeyUsage);
        EXT_KEY_USAGES.put("server_auth", KeyPurposeId.id_kp_serverAuth);
        EXT_KEY_USAGES.put("client_auth", KeyPurposeId.id_kp_clientAuth);
        EXT_KEY_USAGES.put("code_signing", KeyPurposeId.id_kp_codeSigning);
        EXT_KEY_USAGES.put("email_protection", KeyPurposeId.id_kp_emailProtection);
        EXT_KEY_USAGES.put("ipsec_end_system", KeyPurposeId.id_kp_ipsecEndSystem);
        EXT_KEY_USAGES.put("ipsec_tunnel", KeyPurposeId.id_kp_ipsecTunnel);
        EXT_KEY_USAGES.put("ipsec_user", KeyPurposeId.id_kp_ipsecUser);
        EXT_KEY_USAGES.put("timestamping", KeyPurposeId.id_kp_timeStamping);
        EXT_KEY_USAGES.put("ocsp_signing", KeyPurposeId.id_kp_OCSPSigning);
        EXT_KEY_USAGES.put(
                "microsoft_server_gated_crypto",
                KeyPurposeId.getInstance(new ASN1ObjectIdentifier("1.3.6.1.4.1.311.10.3.3")));
        EXT_KEY_USAGES.put(
                "netscape_server_gated_crypto",
                KeyPurposeId.getInstance(new ASN1ObjectIdentifier("2.16.840.1.113730.4.1")));
        EXT_KEY_USAGES.put(
                "microsoft_commercial_code_signing",
                KeyPurposeId.getInstance(new ASN1ObjectIdentifier("1.3.6.1.4.1.311.2.1.22")));
        EXT_KEY_USAGES.put(
                "microsoft_kernel_code_signing",
                KeyPurposeId.getInstance(new ASN1ObjectIdentifier("1.3.6.1.4.1.311.61.1.1")));
    }

    static void checkUses(Value config, ProviderDiagnostics.Builder diags) {
        Value uses = Attrs.get(config, "allowed_uses").unmarkDeep();
        if (!uses.isKnownAndNotNull()) {
            return;
        }
        for (Value u : uses.elements()) {
            if (u.isKnownAndNotNull()
                    && !KEY_USAGES.containsKey(u.asString())
                    && !EXT_KEY_USAGES.containsKey(u.asString())) {
                diags.error(
                        "Invalid Attribute Value Match",
                        "Attribute allowed_uses value must be one of: " + Set.copyOf(allUses()) + ", got: \""
                                + u.asString() + "\"",
                        AttributePath.of("allowed_uses"));
            }
        }
    }

    private static List<String> allUses() {
        List<String> all = new ArrayList<>(KEY_USAGES.keySet());
        all.addAll(EXT_KEY_USAGES.keySet());
        return all;
    }

    /** Key usage, extended key usage and basic constraints, as Go's {@code x509.CreateCertificate} adds them. */
    static void usageExtensions(ExtensionsGenerator ext, List<String> uses, boolean isCa) throws IOException {
        int ku = isCa ? KeyUsage.keyCertSign : 0;
        List<KeyPurposeId> eku = new ArrayList<>();
        for (String u : uses) {
            if (KEY_USAGES.containsKey(u)) {
                ku |= KEY_USAGES.get(u);
            } else if (EXT_KEY_USAGES.containsKey(u)) {
                eku.add(EXT_KEY_USAGES.get(u));
            }
        }
        if (ku != 0) {
            ext.addExtension(Extension.keyUsage, true, new KeyUsage(ku));
        }
        if (!eku.isEmpty()) {
            ext.addExtension(Extension.extendedKeyUsage, false, new DERSequence(eku.toArray(new ASN1Encodable[0])));
        }
        ext.addExtension(Extension.basicConstraints, true, new org.bouncycastle.asn1.x509.BasicConstraints(isCa));
    }

    /** Go's subject key id: SHA-1 of the public key's bit string. */
    static byte[] subjectKeyId(SubjectPublicKeyInfo spki) {
        return Keys.digest("SHA-1", spki.getPublicKeyData().getBytes());
    }

    /** The signature algorithm Go picks for a signing key. */
    static String signatureAlgorithm(Keys.Key k) {
        return switch (k.algorithm()) {
            case RSA -> "SHA256withRSA";
            case ECDSA ->
                switch (k.curve().name()) {
                    case "P384" -> "SHA384withECDSA";
                    case "P521" -> "SHA512withECDSA";
                    default -> "SHA256withECDSA";
                };
            case ED25519 -> "Ed25519";
        };
    }

    /** A random positive 128-bit serial number, as the tls provider makes them. */
    static BigInteger serial(SecureRandom random) {
        return new BigInteger(128, random);
    }

    static String time(Instant t) {
        return RFC3339.format(t);
    }

    static byte[] encoded(org.bouncycastle.asn1.ASN1Object o) {
        try {
            return o.getEncoded();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Value stringValue(String s) {
        return s == null ? Value.nullValue(Type.STRING) : Value.string(s);
    }
}
