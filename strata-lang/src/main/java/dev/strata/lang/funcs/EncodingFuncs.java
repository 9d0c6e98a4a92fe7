package dev.strata.lang.funcs;

import static dev.strata.lang.funcs.Args.str;

import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/** base64*, csvdecode, json*, text*base64, urlencode, yaml*. */
final class EncodingFuncs {
    private EncodingFuncs() {}

    static void register(Functions.Registry r) {
        r.add(strFn(
                "base64encode", "str", s -> Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8))));
        r.add(strFn(
                "base64decode",
                "str",
                s -> utf8(decodeBase64(s, -1), -1, "the result of decoding the provided string is not valid UTF-8")));
        r.add(strFn(
                "base64gzip",
                "str",
                s -> Base64.getEncoder().encodeToString(gzip(s.getBytes(StandardCharsets.UTF_8)))));
        r.add(strFn("urlencode", "str", EncodingFuncs::urlencode));
        r.add(Function.builder("jsonencode")
                .param(new Param("val", Type.DYNAMIC, true, false, false))
                .returns(Type.STRING)
                .impl((a, t) -> Value.string(Json.encode(a.get(0))))
                .build());
        r.add(Function.builder("jsondecode")
                .param("str", Type.STRING)
                .returns(Type.DYNAMIC)
                .impl((a, t) -> Json.decode(str(a, 0)))
                .build());
        r.add(Function.builder("yamlencode")
                .param(new Param("value", Type.DYNAMIC, true, false, false))
                .returns(Type.STRING)
                .impl((a, t) -> Value.string(Yaml.encode(a.get(0))))
                .build());
        r.add(Function.builder("yamldecode")
                .param("src", Type.STRING)
                .returns(Type.DYNAMIC)
                .impl((a, t) -> Yaml.decode(str(a, 0)))
                .build());
        r.add(Function.builder("csvdecode")
                .param("str", Type.STRING)
                .returns(a -> {
                    Value s = a.get(0);
                    if (!s.isKnown()) {
                        return Type.DYNAMIC;
                    }
                    return Type.list(csvRowType(Csv.parse(s.asString())));
                })
                .impl((a, t) -> csvdecode(str(a, 0)))
                .build());
        r.add(Function.builder("textencodebase64")
                .param("string", Type.STRING)
                .param("encoding", Type.STRING)
                .returns(Type.STRING)
                .impl((a, t) -> {
                    Charset cs = charset(a, 1);
                    try {
                        ByteBuffer b = cs.newEncoder()
                                .onUnmappableCharacter(CodingErrorAction.REPORT)
                                .onMalformedInput(CodingErrorAction.REPORT)
                                .encode(java.nio.CharBuffer.wrap(str(a, 0)));
                        byte[] out = new byte[b.remaining()];
                        b.get(out);
                        return Value.string(Base64.getEncoder().encodeToString(out));
                    } catch (CharacterCodingException e) {
                        throw FunctionError.arg(
                                0, "the given string contains characters that cannot be represented in " + cs.name());
                    }
                })
                .build());
        r.add(Function.builder("textdecodebase64")
                .param("source", Type.STRING)
                .param("encoding", Type.STRING)
                .returns(Type.STRING)
                .impl((a, t) -> {
                    Charset cs = charset(a, 1);
                    byte[] bytes = decodeBase64(str(a, 0), 0);
                    try {
                        return Value.string(cs.newDecoder()
                                .onMalformedInput(CodingErrorAction.REPORT)
                                .onUnmappableCharacter(CodingErrorAction.REPORT)
                                .decode(ByteBuffer.wrap(bytes))
                                .toString());
                    } catch (CharacterCodingException e) {
                        throw FunctionError.arg(
                                0, "the given string contains symbols that are not defined for " + cs.name());
                    }
                })
                .build());
    }

    /**
     * Gzip framed the way Go's gzip writer frames it (OS byte 255, a sync-flushed block, then an
     * empty final stored block), so short inputs give Terraform's exact bytes; inputs with repeats
     * can still differ because zlib and Go choose different matches.
     */
    static byte[] gzip(byte[] in) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(new byte[] {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, (byte) 0xff});
        Deflater d = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
        try {
            d.setInput(in);
            byte[] buf = new byte[8192];
            int n;
            do {
                n = d.deflate(buf, 0, buf.length, Deflater.SYNC_FLUSH);
                out.write(buf, 0, n);
            } while (n == buf.length);
        } finally {
            d.end();
        }
        out.writeBytes(new byte[] {1, 0, 0, (byte) 0xff, (byte) 0xff});
        CRC32 crc = new CRC32();
        crc.update(in);
        long c = crc.getValue();
        for (int i = 0; i < 4; i++) {
            out.write((int) (c >>> (8 * i)) & 0xff);
        }
        for (int i = 0; i < 4; i++) {
            out.write((in.length >>> (8 * i)) & 0xff);
        }
        return out.toByteArray();
    }

    private static Function strFn(String name, String param, java.util.function.UnaryOperator<String> f) {
        return Function.builder(name)
                .param(param, Type.STRING)
                .returns(Type.STRING)
                .impl((a, t) -> Value.string(f.apply(str(a, 0))))
                .build();
    }

    /** Strict standard Base64 with padding; {@code argIndex} -1 reports the error on the call. */
    static byte[] decodeBase64(String given, int argIndex) {
        // Like Go's decoder, line breaks are ignored.
        String s = given.replace("\r", "").replace("\n", "");
        int bad = -1;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean ok = c >= 'A' && c <= 'Z'
                    || c >= 'a' && c <= 'z'
                    || c >= '0' && c <= '9'
                    || c == '+'
                    || c == '/'
                    || c == '=';
            if (!ok) {
                bad = i;
                break;
            }
        }
        if (bad < 0 && s.length() % 4 != 0) {
            bad = s.length() - s.length() % 4;
        }
        byte[] out = null;
        if (bad < 0) {
            try {
                out = Base64.getDecoder().decode(s);
            } catch (IllegalArgumentException e) {
                bad = 0;
            }
        }
        if (out == null) {
            if (argIndex >= 0) {
                throw FunctionError.arg(argIndex, "the given value is has an invalid base64 symbol at offset " + bad);
            }
            throw FunctionError.callRevealing("failed to decode base64 data " + Args.q(given));
        }
        return out;
    }

    static String utf8(byte[] b, int argIndex, String msg) {
        // The String constructor decodes without an intermediate char buffer (ASCII and Latin-1 text is
        // stored as it is), but replaces malformed input instead of reporting it. Without a replacement
        // character in the result the input was well-formed; with one, the strict decoder decides.
        String lenient = new String(b, StandardCharsets.UTF_8);
        if (lenient.indexOf('\ufffd') < 0) {
            return lenient;
        }
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(b))
                    .toString();
        } catch (CharacterCodingException e) {
            throw argIndex >= 0 ? FunctionError.arg(argIndex, msg) : FunctionError.call(msg);
        }
    }

    private static Charset charset(List<Value> a, int i) {
        String name = str(a, i);
        try {
            return Charset.forName(name);
        } catch (IllegalArgumentException e) {
            throw FunctionError.argRevealing(
                    i, Args.q(name) + " is not a supported IANA encoding name or alias in this Terraform version");
        }
    }

    /** Go's url.QueryEscape: unreserved characters stay, space becomes '+', the rest %XX. */
    static String urlencode(String s) {
        StringBuilder b = new StringBuilder();
        for (byte x : s.getBytes(StandardCharsets.UTF_8)) {
            int c = x & 0xff;
            if (c >= 'a' && c <= 'z'
                    || c >= 'A' && c <= 'Z'
                    || c >= '0' && c <= '9'
                    || c == '-'
                    || c == '_'
                    || c == '.'
                    || c == '~') {
                b.append((char) c);
            } else if (c == ' ') {
                b.append('+');
            } else {
                b.append('%').append(String.format("%02X", c));
            }
        }
        return b.toString();
    }

    private static Type csvRowType(List<List<String>> rows) {
        Map<String, Type> attrs = new TreeMap<>();
        for (String h : checkHeader(rows)) {
            attrs.put(h, Type.STRING);
        }
        return new dev.strata.lang.types.ObjectType(attrs);
    }

    private static List<String> checkHeader(List<List<String>> rows) {
        if (rows.isEmpty()) {
            throw FunctionError.call("missing header line");
        }
        Set<String> seen = new LinkedHashSet<>();
        for (String h : rows.get(0)) {
            if (!seen.add(h)) {
                throw FunctionError.callRevealing("duplicate column name " + Args.q(h));
            }
        }
        return rows.get(0);
    }

    private static Value csvdecode(String s) {
        List<List<String>> rows = Csv.parse(s);
        List<String> header = checkHeader(rows);
        Type rowType = csvRowType(rows);
        List<Value> out = new ArrayList<>();
        for (int i = 1; i < rows.size(); i++) {
            List<String> row = rows.get(i);
            if (row.size() != header.size()) {
                throw FunctionError.call("CSV parse error on line " + (i + 1) + ": wrong number of fields");
            }
            Map<String, Value> obj = new LinkedHashMap<>();
            for (int c = 0; c < row.size(); c++) {
                obj.put(header.get(c), Value.string(row.get(c)));
            }
            out.add(Value.object(obj));
        }
        return Value.list(rowType, out);
    }
}
