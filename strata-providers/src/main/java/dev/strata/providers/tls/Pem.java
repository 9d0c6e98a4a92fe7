package dev.strata.providers.tls;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** PEM blocks as Go's {@code encoding/pem} writes them: 64-character lines, a final newline. */
final class Pem {

    private Pem() {}

    record Block(String type, byte[] der) {}

    private static final Pattern BLOCK =
            Pattern.compile("-----BEGIN ([A-Z0-9 ]+)-----\\r?\\n(.*?)-----END \\1-----", Pattern.DOTALL);

    static String encode(String type, byte[] der) {
        String b64 = Base64.getEncoder().encodeToString(der);
        StringBuilder b = new StringBuilder("-----BEGIN ").append(type).append("-----\n");
        for (int i = 0; i < b64.length(); i += 64) {
            b.append(b64, i, Math.min(b64.length(), i + 64)).append('\n');
        }
        return b.append("-----END ").append(type).append("-----\n").toString();
    }

    /** Every PEM block in {@code text}, in order; headers such as {@code Proc-Type} are not supported. */
    static List<Block> decodeAll(String text) {
        List<Block> out = new ArrayList<>();
        Matcher m = BLOCK.matcher(text);
        while (m.find()) {
            String body = m.group(2).replaceAll("\\s", "");
            try {
                out.add(new Block(m.group(1), Base64.getDecoder().decode(body.getBytes(StandardCharsets.US_ASCII))));
            } catch (IllegalArgumentException e) {
                // not base64: not a PEM block we can use
            }
        }
        return out;
    }
}
