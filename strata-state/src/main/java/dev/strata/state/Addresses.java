package dev.strata.state;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** Parsing, quoting and ordering of addresses, kept to what the state needs until P3 brings dev.strata.addr. */
final class Addresses {
    private Addresses() {}

    /**
     * Go compares strings as UTF-8 bytes; Java's compareTo compares UTF-16 units, which differs for
     * characters outside the BMP. Terraform's sort order is Go's.
     */
    static int compareGo(String a, String b) {
        int n = Math.min(a.length(), b.length());
        for (int i = 0; i < n; i++) {
            char x = a.charAt(i);
            char y = b.charAt(i);
            if (x != y) {
                if (x < 0xD800 && y < 0xD800) {
                    return Character.compare(x, y);
                }
                return Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
            }
        }
        return Integer.compare(a.length(), b.length());
    }

    /** An HCL quoted string, as Terraform renders string instance keys. */
    static String quote(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                case '$', '%' -> {
                    sb.append(c);
                    if (i + 1 < s.length() && s.charAt(i + 1) == '{') {
                        sb.append(c);
                    }
                }
                default -> sb.append(c);
            }
        }
        return sb.append('"').toString();
    }

    static Result<StateAddress> parse(String text) {
        Cursor c = new Cursor(text);
        try {
            StringBuilder module = new StringBuilder();
            while (c.peekWord("module")) {
                c.expectWord("module");
                c.expect('.');
                String name = c.name();
                InstanceKey key = c.optionalKey();
                if (!module.isEmpty()) {
                    module.append('.');
                }
                module.append("module.").append(name).append(key);
                if (c.atEnd()) {
                    return Result.of(new StateAddress.Module(module.toString()));
                }
                c.expect('.');
            }
            ResourceMode mode = ResourceMode.MANAGED;
            String type = c.name();
            if (type.equals("data")) {
                mode = ResourceMode.DATA;
                c.expect('.');
                type = c.name();
            }
            c.expect('.');
            String name = c.name();
            ResourceAddr r = new ResourceAddr(module.toString(), mode, type, name);
            if (c.atEnd()) {
                return Result.of(new StateAddress.Resource(r));
            }
            InstanceKey key = c.optionalKey();
            if (!c.atEnd()) {
                throw c.error("unexpected \"" + text.substring(c.pos) + "\" after the resource address");
            }
            return Result.of(new StateAddress.Instance(r.instance(key)));
        } catch (BadAddress e) {
            return Result.of(new StateAddress.Module(""), Diagnostics.of(Diagnostic.error(
                    "Invalid address",
                    "\"" + text + "\" is not a valid resource address: " + e.getMessage()
                            + ". Addresses look like aws_instance.web, aws_instance.web[0], "
                            + "data.aws_ami.ubuntu or module.net.aws_subnet.a[\"x\"].",
                    null)));
        }
    }

    /** Only used to unwind the hand-written parser; turned into a diagnostic by {@link #parse}. */
    private static final class BadAddress extends Exception {
        BadAddress(String message) {
            super(message, null, false, false);
        }
    }

    private static final class Cursor {
        final String s;
        int pos;

        Cursor(String s) {
            this.s = s;
        }

        boolean atEnd() {
            return pos >= s.length();
        }

        boolean peekWord(String w) {
            return s.startsWith(w + ".", pos);
        }

        void expectWord(String w) throws BadAddress {
            if (!s.startsWith(w, pos)) {
                throw error("expected \"" + w + "\"");
            }
            pos += w.length();
        }

        void expect(char ch) throws BadAddress {
            if (atEnd() || s.charAt(pos) != ch) {
                throw error(atEnd() ? "it ends where \"" + ch + "\" was expected" : "expected \"" + ch + "\" at position " + (pos + 1));
            }
            pos++;
        }

        String name() throws BadAddress {
            int start = pos;
            while (!atEnd()) {
                char ch = s.charAt(pos);
                boolean ok = Character.isLetter(ch) || ch == '_' || (pos > start && (Character.isDigit(ch) || ch == '-'));
                if (!ok) {
                    break;
                }
                pos++;
            }
            if (pos == start) {
                throw error(atEnd() ? "a name is missing at the end" : "expected a name at position " + (pos + 1));
            }
            return s.substring(start, pos);
        }

        InstanceKey optionalKey() throws BadAddress {
            if (atEnd() || s.charAt(pos) != '[') {
                return InstanceKey.NONE;
            }
            pos++;
            InstanceKey key;
            if (!atEnd() && s.charAt(pos) == '"') {
                pos++;
                StringBuilder sb = new StringBuilder();
                while (true) {
                    if (atEnd()) {
                        throw error("the quoted key is not closed");
                    }
                    char ch = s.charAt(pos++);
                    if (ch == '"') {
                        break;
                    }
                    if (ch == '\\' && !atEnd()) {
                        char e = s.charAt(pos++);
                        sb.append(switch (e) {
                            case 'n' -> '\n';
                            case 'r' -> '\r';
                            case 't' -> '\t';
                            default -> e;
                        });
                    } else {
                        sb.append(ch);
                    }
                }
                key = new InstanceKey.StringKey(sb.toString());
            } else {
                int start = pos;
                while (!atEnd() && Character.isDigit(s.charAt(pos))) {
                    pos++;
                }
                if (start == pos) {
                    throw error("an instance key must be a whole number or a quoted string");
                }
                try {
                    key = new InstanceKey.IntKey(Long.parseLong(s.substring(start, pos)));
                } catch (NumberFormatException e) {
                    throw error("the instance key is too large");
                }
            }
            expect(']');
            return key;
        }

        BadAddress error(String message) {
            return new BadAddress(message);
        }
    }
}
