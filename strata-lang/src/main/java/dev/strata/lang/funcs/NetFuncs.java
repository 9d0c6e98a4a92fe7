package dev.strata.lang.funcs;

import static dev.strata.lang.funcs.Args.str;

import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/** cidrhost, cidrnetmask, cidrsubnet, cidrsubnets, for IPv4 and IPv6. */
final class NetFuncs {
    private NetFuncs() {}

    /** A network prefix: the masked address as an unsigned integer, its length, and 32 or 128 bits. */
    record Prefix(BigInteger addr, int len, int bits) {
        BigInteger size() {
            return BigInteger.ONE.shiftLeft(bits - len);
        }

        /**
         * An IPv6 prefix whose address is IPv4-mapped (::ffff:a.b.c.d). Terraform treats the address as
         * IPv4 where it looks at the address alone but keeps the 128-bit mask, which shows in results.
         */
        boolean mapped() {
            return bits == 128 && isMapped(addr);
        }

        /** A mapped address prints as IPv4, with the part of the mask that covers its last 32 bits. */
        String render() {
            return NetFuncs.render(addr, bits) + "/" + (mapped() ? Math.max(0, len - 96) : len);
        }
    }

    static void register(Functions.Registry r) {
        r.add(Function.builder("cidrhost")
                .param("prefix", Type.STRING)
                .param("hostnum", Type.NUMBER)
                .returns(Type.STRING)
                .impl((a, t) -> {
                    Prefix p = parse(str(a, 0));
                    BigInteger host = whole(a, 1);
                    BigInteger size = p.size();
                    BigInteger idx = host.signum() < 0 ? size.add(host) : host;
                    if (idx.signum() < 0 || idx.compareTo(size) >= 0) {
                        throw FunctionError.callRevealing(
                                "prefix of " + p.len() + " does not accommodate a host numbered " + idx);
                    }
                    // A mapped prefix numbers its hosts from bit 32 of the 128, as Terraform does.
                    BigInteger hostBits = p.mapped() ? idx.shiftLeft(96) : idx;
                    return Value.string(render(p.addr().or(hostBits), p.bits()));
                })
                .build());
        r.add(Function.builder("cidrnetmask")
                .param("prefix", Type.STRING)
                .returns(Type.STRING)
                .impl((a, t) -> {
                    Prefix p = parse(str(a, 0));
                    if (p.bits() == 128 && !p.mapped()) {
                        throw FunctionError.callRevealing("IPv6 addresses cannot have a netmask: " + str(a, 0));
                    }
                    BigInteger mask = BigInteger.ONE
                            .shiftLeft(p.bits())
                            .subtract(BigInteger.ONE)
                            .xor(BigInteger.ONE.shiftLeft(p.bits() - p.len()).subtract(BigInteger.ONE));
                    return Value.string(render(mask, p.bits()));
                })
                .build());
        r.add(Function.builder("cidrsubnet")
                .param("prefix", Type.STRING)
                .param("newbits", Type.NUMBER)
                .param("netnum", Type.NUMBER)
                .returns(Type.STRING)
                .impl((a, t) -> {
                    Prefix p = parse(str(a, 0));
                    int newbits = Args.integer(a, 1, true, "newbits");
                    BigInteger netnum = whole(a, 2);
                    return Value.string(subnet(p, newbits, netnum, -1).render());
                })
                .build());
        r.add(Function.builder("cidrsubnets")
                .param("prefix", Type.STRING)
                .varParam(Dsl.p("newbits", Type.NUMBER))
                .returns(Type.list(Type.STRING))
                .impl((a, t) -> {
                    Prefix p = parse(str(a, 0));
                    List<String> out = new ArrayList<>();
                    BigInteger next = p.addr();
                    BigInteger end = p.addr().add(p.size());
                    for (int i = 1; i < a.size(); i++) {
                        int nb = Args.integer(a, i, true, "newbits");
                        int len = p.len() + nb;
                        if (nb < 1) {
                            throw FunctionError.arg(i, "must extend prefix by at least one bit");
                        }
                        if (len > p.bits()) {
                            throw FunctionError.argRevealing(
                                    i,
                                    "would extend prefix to " + len + " bits, which is too long for an "
                                            + (p.bits() == 32 ? "IPv4" : "IPv6") + " address");
                        }
                        BigInteger step = BigInteger.ONE.shiftLeft(p.bits() - len);
                        BigInteger[] qr = next.divideAndRemainder(step);
                        BigInteger start = qr[1].signum() == 0
                                ? next
                                : qr[0].add(BigInteger.ONE).multiply(step);
                        if (start.add(step).compareTo(end) > 0) {
                            throw FunctionError.arg(
                                    i,
                                    "not enough remaining address space for a subnet with a prefix of " + len
                                            + " bits after " + (out.isEmpty() ? p.render() : out.get(out.size() - 1)));
                        }
                        Prefix s = new Prefix(start, len, p.bits());
                        out.add(s.render());
                        next = start.add(step);
                    }
                    return Args.strList(out);
                })
                .build());
    }

    private static BigInteger whole(List<Value> a, int i) {
        BigDecimal n = a.get(i).asNumber();
        if (!Args.isWhole(n)) {
            throw FunctionError.arg(i, "value must be a whole number");
        }
        return n.toBigIntegerExact();
    }

    static Prefix subnet(Prefix p, int newbits, BigInteger netnum, int argIndex) {
        int len = p.len() + newbits;
        if (newbits < 0) {
            throw FunctionError.call("must extend prefix by at least one bit");
        }
        if (len > p.bits()) {
            throw FunctionError.callRevealing(
                    "insufficient address space to extend prefix of " + p.len() + " by " + newbits);
        }
        if (netnum.signum() < 0 || netnum.compareTo(BigInteger.ONE.shiftLeft(newbits)) >= 0) {
            throw FunctionError.callRevealing(
                    "prefix extension of " + newbits + " does not accommodate a subnet numbered " + netnum);
        }
        BigInteger addr = p.addr().add(netnum.shiftLeft(p.bits() - len));
        return new Prefix(addr, len, p.bits());
    }

    static Prefix parse(String cidr) {
        int slash = cidr.indexOf('/');
        String fail = "invalid CIDR expression: invalid CIDR address: " + cidr;
        if (slash < 0) {
            throw FunctionError.callRevealing(fail);
        }
        String ip = cidr.substring(0, slash);
        String lenText = cidr.substring(slash + 1);
        BigInteger addr;
        int bits;
        if (ip.contains(":")) {
            addr = parseV6(ip);
            bits = 128;
        } else {
            addr = parseV4(ip);
            bits = 32;
        }
        if (addr == null
                || lenText.isEmpty()
                || lenText.length() > 3
                || !lenText.chars().allMatch(Character::isDigit)) {
            throw FunctionError.callRevealing(fail);
        }
        int len = Integer.parseInt(lenText);
        if (len > bits) {
            throw FunctionError.callRevealing(fail);
        }
        BigInteger hostMask = BigInteger.ONE.shiftLeft(bits - len).subtract(BigInteger.ONE);
        return new Prefix(addr.andNot(hostMask), len, bits);
    }

    private static BigInteger parseV4(String ip) {
        String[] parts = ip.split("\\.", -1);
        if (parts.length != 4) {
            return null;
        }
        long v = 0;
        for (String part : parts) {
            // Leading zeros are decimal, not octal: Terraform keeps the address parsing of Go before 1.17.
            String digits = part.replaceFirst("^0+(?=.)", "");
            if (part.isEmpty() || digits.length() > 3 || !part.chars().allMatch(c -> c >= '0' && c <= '9')) {
                return null;
            }
            int n = Integer.parseInt(digits);
            if (n > 255) {
                return null;
            }
            v = (v << 8) | n;
        }
        return BigInteger.valueOf(v);
    }

    private static BigInteger parseV6(String ip) {
        int dbl = ip.indexOf("::");
        if (dbl >= 0 && ip.indexOf("::", dbl + 1) >= 0) {
            return null;
        }
        List<Integer> head = new ArrayList<>();
        List<Integer> tail = new ArrayList<>();
        if (!groups(dbl < 0 ? ip : ip.substring(0, dbl), head)) {
            return null;
        }
        if (dbl >= 0 && !groups(ip.substring(dbl + 2), tail)) {
            return null;
        }
        int total = head.size() + tail.size();
        if (dbl < 0 ? total != 8 : total > 7) {
            return null;
        }
        BigInteger v = BigInteger.ZERO;
        List<Integer> all = new ArrayList<>(head);
        for (int i = 0; i < 8 - total; i++) {
            all.add(0);
        }
        all.addAll(tail);
        for (int g : all) {
            v = v.shiftLeft(16).or(BigInteger.valueOf(g));
        }
        return v;
    }

    private static boolean groups(String s, List<Integer> out) {
        if (s.isEmpty()) {
            return true;
        }
        String[] parts = s.split(":", -1);
        for (int i = 0; i < parts.length; i++) {
            String g = parts[i];
            if (i == parts.length - 1 && g.contains(".")) {
                BigInteger v4 = parseV4(g);
                if (v4 == null) {
                    return false;
                }
                out.add(v4.intValue() >>> 16);
                out.add(v4.intValue() & 0xffff);
                continue;
            }
            if (g.isEmpty() || g.length() > 4 || !g.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
                return false;
            }
            out.add(Integer.parseInt(g, 16));
        }
        return true;
    }

    private static boolean isMapped(BigInteger addr) {
        return addr.shiftRight(32).equals(BigInteger.valueOf(0xffff));
    }

    /** Dotted quad (also for an IPv4-mapped IPv6 address), or RFC 5952 text: lower case, the longest run of two or more zero groups as ::. */
    static String render(BigInteger addr, int bits) {
        if (bits == 32 || isMapped(addr)) {
            long v = addr.longValue();
            return ((v >> 24) & 255) + "." + ((v >> 16) & 255) + "." + ((v >> 8) & 255) + "." + (v & 255);
        }
        int[] g = new int[8];
        for (int i = 0; i < 8; i++) {
            g[i] = addr.shiftRight(16 * (7 - i)).intValue() & 0xffff;
        }
        int bestStart = -1;
        int bestLen = 1;
        for (int i = 0; i < 8; ) {
            if (g[i] != 0) {
                i++;
                continue;
            }
            int j = i;
            while (j < 8 && g[j] == 0) {
                j++;
            }
            if (j - i > bestLen) {
                bestStart = i;
                bestLen = j - i;
            }
            i = j;
        }
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                b.append("::");
                i += bestLen - 1;
                continue;
            }
            if (b.length() > 0 && b.charAt(b.length() - 1) != ':') {
                b.append(':');
            }
            b.append(Integer.toHexString(g[i]));
        }
        return b.toString();
    }
}
