package dev.strata.lang.value;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Terraform's number semantics: numbers are binary floating point with a 512-bit mantissa, and
 * print as the shortest decimal that reads back as the same binary value. Results of
 * arithmetic go through {@link #round512}, so {@code 1/3} prints with 155 digits ending in 5,
 * exactly as Terraform does, while {@code 0.1 + 0.2} prints {@code 0.3}.
 */
public final class Numbers {
    private Numbers() {}

    private static final int BITS = 512;
    private static final MathContext DIVISION = new MathContext(340, RoundingMode.HALF_EVEN);

    /** The exact value of the 512-bit binary float nearest to {@code x}. */
    public static BigDecimal binary512(BigDecimal x) {
        if (x.signum() == 0) {
            return BigDecimal.ZERO;
        }
        if (isExactInteger(x)) {
            return x;
        }
        BigDecimal abs = x.abs();
        int k;
        if (abs.compareTo(BigDecimal.ONE) >= 0) {
            k = BITS - abs.toBigInteger().bitLength();
        } else {
            // Each decimal digit below the point is worth about 3.33 bits; start a little high.
            k = BITS + (int) Math.ceil((abs.scale() - abs.precision() + 1) * 3.33) + 4;
        }
        BigInteger m = scaled(abs, k);
        while (m.bitLength() > BITS) {
            k--;
            m = scaled(abs, k);
        }
        BigDecimal r = k >= 0
                ? new BigDecimal(m)
                        .multiply(new BigDecimal(BigInteger.valueOf(5).pow(k), k))
                : new BigDecimal(m.shiftLeft(-k));
        return x.signum() < 0 ? r.negate() : r;
    }

    /**
     * Whether {@code x} is a whole number that a 512-bit float holds exactly, with room to spare: the
     * common case (counts, indexes, ports), which then needs none of the binary conversion.
     */
    private static boolean isExactInteger(BigDecimal x) {
        if (x.scale() > 0 && x.stripTrailingZeros().scale() > 0) {
            return false;
        }
        // An integer's decimal digits bound its bits (log2 10 < 3.33); 150 digits stay below 2^500.
        return x.precision() - x.scale() <= 150;
    }

    private static BigInteger scaled(BigDecimal abs, int k) {
        BigDecimal s = k >= 0
                ? abs.multiply(new BigDecimal(BigInteger.TWO.pow(k)))
                : abs.divide(new BigDecimal(BigInteger.TWO.pow(-k)));
        return s.setScale(0, RoundingMode.HALF_EVEN).toBigInteger();
    }

    /** The shortest decimal that identifies the same 512-bit float as {@code x}. */
    public static BigDecimal round512(BigDecimal x) {
        if (x.signum() == 0) {
            return BigDecimal.ZERO;
        }
        if (isExactInteger(x)) {
            // Below 2^511 the floats are at most 1 apart, so no shorter decimal names the same one.
            BigDecimal r = x.stripTrailingZeros();
            return r.scale() < 0 ? r.setScale(0) : r;
        }
        BigDecimal target = binary512(x);
        int lo = 1;
        int hi = Math.max(target.precision(), 1);
        // Round-tripping is monotonic in the number of digits, so search for the fewest.
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            BigDecimal d = target.round(new MathContext(mid, RoundingMode.HALF_EVEN));
            if (binary512(d).compareTo(target) == 0) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        BigDecimal r = target.round(new MathContext(lo, RoundingMode.HALF_EVEN)).stripTrailingZeros();
        return r.scale() < 0 ? r.setScale(0) : r;
    }

    /** Division as Terraform computes it; empty when dividing by zero (Terraform gives infinity). */
    public static java.util.Optional<BigDecimal> divide(BigDecimal a, BigDecimal b) {
        if (b.signum() == 0) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(round512(a.divide(b, DIVISION)));
    }

    /** Terraform's %: the remainder of truncated division, with the sign of {@code a}; a % 0 is a. */
    public static BigDecimal modulo(BigDecimal a, BigDecimal b) {
        if (b.signum() == 0) {
            return a;
        }
        return a.remainder(b);
    }
}
