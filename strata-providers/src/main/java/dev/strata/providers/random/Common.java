package dev.strata.providers.random;

import dev.strata.lang.types.Type;
import dev.strata.provider.Attribute;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Random;

/** What the random provider's resources share. */
final class Common {

    private Common() {}

    static final String KEEPERS = "keepers";

    static Attribute keepers() {
        return Attribute.optional(Type.map(Type.STRING))
                .withDescription("Arbitrary map of values that, when changed, will trigger recreation of resource.");
    }

    /**
     * The generator for a resource with a {@code seed} argument: deterministic for a given
     * seed (seeded with the seed's CRC-64/ISO checksum, as HashiCorp's provider seeds its
     * generator), the secure generator otherwise.
     */
    static Random forSeed(String seed, SecureRandom secure) {
        if (seed == null || seed.isEmpty()) {
            return secure;
        }
        return new Random(crc64Iso(seed.getBytes(StandardCharsets.UTF_8)));
    }

    private static final long[] CRC64_ISO = table(0xD800000000000000L);

    private static long[] table(long poly) {
        long[] t = new long[256];
        for (int i = 0; i < 256; i++) {
            long crc = i;
            for (int j = 0; j < 8; j++) {
                crc = (crc & 1) == 1 ? (crc >>> 1) ^ poly : crc >>> 1;
            }
            t[i] = crc;
        }
        return t;
    }

    static long crc64Iso(byte[] data) {
        long crc = ~0L;
        for (byte b : data) {
            crc = CRC64_ISO[(int) ((crc ^ b) & 0xff)] ^ (crc >>> 8);
        }
        return ~crc;
    }

    /**
     * A UUID the way HashiCorp's go-uuid makes one: 16 random bytes in the 8-4-4-4-12 layout,
     * with no version bits set.
     */
    static String uuid(Random random) {
        byte[] b = new byte[16];
        random.nextBytes(b);
        String h = HexFormat.of().formatHex(b);
        return h.substring(0, 8) + "-" + h.substring(8, 12) + "-" + h.substring(12, 16) + "-" + h.substring(16, 20)
                + "-" + h.substring(20);
    }
}
