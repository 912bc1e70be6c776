// Generator of java_big_decimal.txt: the real java.math.BigDecimal text forms.
//
// The committed table was printed by Temurin 25.0.3:
//
//   java JavaBigDecimal.java > java_big_decimal.txt
//
// Line format: `<unscaled> <scale> <stripTrailingZeros().toString()>
//               <stripTrailingZeros().toPlainString()> <toPlainString()>`
// i.e. DecimalStyle::Scientific, ::PlainStripped, ::PlainKeepScale. Unscaled values span every
// length from 1 to 39 digits (i128 range), many with trailing zeros; scales 0..=38.
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Random;

public class JavaBigDecimal {
    static final BigInteger I128_MIN = BigInteger.ONE.shiftLeft(127).negate();
    static final BigInteger I128_MAX = BigInteger.ONE.shiftLeft(127).subtract(BigInteger.ONE);

    static void line(BigInteger u, int scale) {
        BigDecimal d = new BigDecimal(u, scale);
        BigDecimal s = d.stripTrailingZeros();
        System.out.println(u + " " + scale + " " + s.toString() + " " + s.toPlainString() + " " + d.toPlainString());
    }

    public static void main(String[] args) {
        System.out.println("# Printed by " + System.getProperty("java.vm.vendor") + " "
                + System.getProperty("java.runtime.version") + " via JavaBigDecimal.java (seed 20240611)");
        Random r = new Random(20240611L);
        long[][] fixed = {{150, 2}, {0, 2}, {100, 0}, {10000, 2}, {1200, 0}, {1230, 0}, {123, 0}, {10, 0},
                {27, 9}, {270, 10}, {1, 6}, {1, 7}, {-1234500, 4}, {-50, 2}, {0, 0}, {0, 38}, {1, 38}, {-1, 38}};
        for (long[] f : fixed) line(BigInteger.valueOf(f[0]), (int) f[1]);
        for (int scale : new int[] {0, 1, 18, 37, 38}) {
            line(I128_MIN, scale);
            line(I128_MAX, scale);
            line(BigInteger.TEN.pow(37), scale);
            line(BigInteger.TEN.pow(38).subtract(BigInteger.ONE).negate(), scale);
        }
        // Every scale against small values near the plain/scientific boundary (adjusted exponent -6/-7).
        for (int scale = 0; scale <= 38; scale++) {
            for (long u : new long[] {1, 7, 12, 120, 1000, 123456, 1234567, 10000000, -5, -3400}) {
                line(BigInteger.valueOf(u), scale);
            }
        }
        for (int i = 0; i < 2000; i++) {
            int len = 1 + r.nextInt(39);
            BigInteger u = new BigInteger(140, r).mod(BigInteger.TEN.pow(len));
            if (r.nextInt(3) == 0) u = u.divide(BigInteger.TEN.pow(r.nextInt(8))).multiply(BigInteger.TEN.pow(r.nextInt(8)));
            if (u.compareTo(I128_MAX) > 0) u = u.mod(I128_MAX);
            if (r.nextBoolean()) u = u.negate();
            line(u, r.nextInt(39));
        }
    }
}
