package dev.strata.tfplugin;

import java.io.ByteArrayInputStream;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/**
 * The one line a go-plugin server prints on stdout once it listens:
 * {@code CORE|APP|NETWORK|ADDRESS|PROTOCOL|SERVER_CERT}. CORE is go-plugin's own protocol version
 * (1), APP the negotiated plugin protocol (5 or 6 for Terraform providers), SERVER_CERT the
 * server's certificate as base64 DER without padding, empty when TLS is off.
 *
 * @param serverCertificate present when the plugin serves TLS; it is pinned as the only trust anchor
 */
public record Handshake(
        int coreVersion,
        int protocolVersion,
        String network,
        String address,
        String protocol,
        Optional<X509Certificate> serverCertificate) {

    static final int CORE_PROTOCOL_VERSION = 1;

    /** Parses and validates a handshake line against the protocol versions this client offered. */
    static Handshake parse(String line, List<Integer> offeredVersions) throws HandshakeException {
        String trimmed = line.strip();
        String[] parts = trimmed.split("\\|", -1);
        if (parts.length < 4) {
            throw new HandshakeException("expected fields CORE|APP|NETWORK|ADDRESS|PROTOCOL|CERT separated by '|'");
        }
        int core = parseInt(parts[0], "core protocol version");
        if (core != CORE_PROTOCOL_VERSION) {
            throw new HandshakeException(
                    "core protocol version " + core + " is not supported; expected " + CORE_PROTOCOL_VERSION);
        }
        int app = parseInt(parts[1], "plugin protocol version");
        if (!offeredVersions.contains(app)) {
            throw new HandshakeException(
                    "the plugin chose protocol version " + app + ", but Strata offered only " + offeredVersions);
        }
        String network = parts[2];
        if (!network.equals("unix") && !network.equals("tcp")) {
            throw new HandshakeException("network \"" + network + "\" is not supported; expected unix or tcp");
        }
        String address = parts[3];
        if (address.isEmpty()) {
            throw new HandshakeException("the address is empty");
        }
        // go-plugin servers older than gRPC support omit the protocol field and speak net/rpc.
        String protocol = parts.length > 4 ? parts[4] : "netrpc";
        if (!protocol.equals("grpc")) {
            throw new HandshakeException(
                    "protocol \"" + protocol + "\" is not supported; Terraform providers speak grpc");
        }
        Optional<X509Certificate> cert = Optional.empty();
        if (parts.length > 5 && !parts[5].isEmpty()) {
            cert = Optional.of(decodeCertificate(parts[5]));
        }
        return new Handshake(core, app, network, address, protocol, cert);
    }

    private static int parseInt(String s, String what) throws HandshakeException {
        try {
            return Integer.parseInt(s);
        } catch (NumberFormatException e) {
            throw new HandshakeException(what + " \"" + s + "\" is not a number");
        }
    }

    private static X509Certificate decodeCertificate(String b64) throws HandshakeException {
        byte[] der;
        try {
            // go-plugin uses unpadded standard base64; the JDK decoder accepts missing padding.
            der = Base64.getDecoder().decode(b64);
        } catch (IllegalArgumentException e) {
            throw new HandshakeException("the server certificate is not valid base64");
        }
        try {
            return (X509Certificate)
                    CertificateFactory.getInstance("X.509").generateCertificate(new ByteArrayInputStream(der));
        } catch (CertificateException e) {
            throw new HandshakeException("the server certificate is not a valid X.509 certificate: " + e.getMessage());
        }
    }

    /** A handshake line that cannot be used; the message says which part is wrong. */
    static final class HandshakeException extends Exception {
        HandshakeException(String message) {
            super(message);
        }
    }
}
