package dev.strata.cloudsim;

/** An IPv4 CIDR block. */
record Cidr(long base, int prefix) {

    static Cidr parse(String text) throws ApiError {
        String[] p = text.split("/");
        if (p.length != 2) {
            throw ApiError.badRequest("\"" + text + "\" is not a CIDR block");
        }
        String[] o = p[0].split("\\.");
        if (o.length != 4) {
            throw ApiError.badRequest("\"" + text + "\" is not an IPv4 CIDR block");
        }
        try {
            long addr = 0;
            for (String s : o) {
                int v = Integer.parseInt(s);
                if (v < 0 || v > 255) {
                    throw ApiError.badRequest("\"" + text + "\" is not an IPv4 CIDR block");
                }
                addr = (addr << 8) | v;
            }
            int prefix = Integer.parseInt(p[1]);
            if (prefix < 0 || prefix > 32) {
                throw ApiError.badRequest("\"" + text + "\" has an invalid prefix length");
            }
            if ((addr & ~mask(prefix) & 0xffffffffL) != 0) {
                throw ApiError.badRequest("\"" + text + "\" has host bits set");
            }
            return new Cidr(addr, prefix);
        } catch (NumberFormatException e) {
            throw ApiError.badRequest("\"" + text + "\" is not an IPv4 CIDR block");
        }
    }

    static long mask(int prefix) {
        return prefix == 0 ? 0 : (0xffffffffL << (32 - prefix)) & 0xffffffffL;
    }

    boolean contains(Cidr inner) {
        return inner.prefix >= prefix && (inner.base & mask(prefix)) == base;
    }

    boolean overlaps(Cidr o) {
        return contains(o) || o.contains(this);
    }

    long size() {
        return 1L << (32 - prefix);
    }

    static String address(long a) {
        return ((a >> 24) & 255) + "." + ((a >> 16) & 255) + "." + ((a >> 8) & 255) + "." + (a & 255);
    }
}
