package dev.strata.providers.tls;

import dev.strata.provider.Block;
import dev.strata.provider.Schema;
import dev.strata.provider.sdk.SdkProvider;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.List;

/**
 * {@code hashicorp/tls}: private keys, certificate requests and certificates made locally and
 * kept in state. Keys and certificates use BouncyCastle, because the JDK has no public API for
 * the PEM, SEC 1, OpenSSH and X.509-building formats the provider must produce.
 */
final class TlsProvider extends SdkProvider {

    TlsProvider(Clock clock, SecureRandom random) {
        super(
                Schema.of(Block.builder().build()),
                List.of(
                        new PrivateKeyResource(random),
                        new Certificates.SelfSigned(clock, random),
                        new Certificates.Request(),
                        new Certificates.LocallySigned(clock, random)),
                List.of(new PublicKeyData(), new CertificateData()));
    }
}
