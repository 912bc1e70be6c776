// Generator of java_float_to_string.txt: the real JDK's Double.toString / Float.toString.
//
// The committed table was printed by Temurin 25.0.3 (JDK >= 19 digits, Raffaello Giulietti's
// algorithm). Run with the JDK whose output you want to pin:
//
//   java JavaFloatToString.java table > java_float_to_string.txt
//
// Extra modes used for one-off exhaustive checks (output not committed):
//   java JavaFloatToString.java one-digit    every double/float within 3 ulps of d*10^e (d=1..9, all e)
//   java JavaFloatToString.java f32-hash     FNV-1a hash of "text\n" over all 2^32 float bit
//                                            patterns, one line per 2^24 block (NaN/Inf quoted like Jackson)
//
// Line format: `d <16 hex digits> <Double.toString>` or `f <8 hex digits> <Float.toString>`.
import java.util.Random;
import java.util.stream.IntStream;

public class JavaFloatToString {
    static void d(double v) {
        System.out.println("d " + String.format("%016x", Double.doubleToRawLongBits(v)) + " " + Double.toString(v));
    }

    static void f(float v) {
        System.out.println("f " + String.format("%08x", Float.floatToRawIntBits(v)) + " " + Float.toString(v));
    }

    public static void main(String[] args) {
        String mode = args.length > 0 ? args[0] : "table";
        switch (mode) {
            case "table" -> table();
            case "one-digit" -> oneDigit();
            case "f32-hash" -> f32Hash();
            default -> throw new IllegalArgumentException(mode);
        }
    }

    static void table() {
        System.out.println("# Printed by " + System.getProperty("java.vm.vendor") + " "
                + System.getProperty("java.runtime.version") + " via JavaFloatToString.java (seed 20240611)");
        Random r = new Random(20240611L);
        for (double v : new double[] {0.0, -0.0, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY,
                Double.MIN_VALUE, -Double.MIN_VALUE, Double.MAX_VALUE, -Double.MAX_VALUE, Double.MIN_NORMAL,
                Math.nextDown(Double.MIN_NORMAL), Math.nextUp(Double.MIN_NORMAL), 1e-3, Math.nextDown(1e-3),
                1e7, Math.nextDown(1e7), 1e23, 2e23, 9.5e21, 0.1 + 0.2}) {
            d(v);
        }
        for (long b = 1; b <= 40; b++) d(Double.longBitsToDouble(b));
        for (int i = 0; i < 1200; i++) d(Double.longBitsToDouble(r.nextLong()));
        for (int i = 0; i < 300; i++) d(Double.longBitsToDouble(r.nextLong() & 0x000f_ffff_ffff_ffffL));
        for (int i = 0; i < 300; i++) d(Math.pow(10, -4 + 12 * r.nextDouble()));
        for (int e : IntStream.concat(IntStream.concat(IntStream.rangeClosed(-324, -300), IntStream.rangeClosed(-10, 25)),
                IntStream.rangeClosed(300, 308)).toArray()) {
            for (int dig = 1; dig <= 9; dig++) d(Double.parseDouble(dig + "E" + e));
        }
        for (float v : new float[] {0.0f, -0.0f, Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY,
                Float.MIN_VALUE, -Float.MIN_VALUE, Float.MAX_VALUE, -Float.MAX_VALUE, Float.MIN_NORMAL,
                Math.nextDown(Float.MIN_NORMAL), Math.nextUp(Float.MIN_NORMAL), 1e-3f, Math.nextDown(1e-3f),
                1e7f, Math.nextDown(1e7f), 3.0E10f, 1.23456789E8f, 1.0E17f, 0.1f}) {
            f(v);
        }
        for (int b = 1; b <= 40; b++) f(Float.intBitsToFloat(b));
        for (int i = 0; i < 1200; i++) f(Float.intBitsToFloat(r.nextInt()));
        for (int i = 0; i < 300; i++) f(Float.intBitsToFloat(r.nextInt() & 0x007f_ffff));
        for (int i = 0; i < 300; i++) f((float) Math.pow(10, -4 + 12 * r.nextDouble()));
        for (int e = -45; e <= 38; e++) {
            for (int dig = 1; dig <= 9; dig++) f(Float.parseFloat(dig + "E" + e));
        }
    }

    static void oneDigit() {
        for (int e = -324; e <= 308; e++) {
            for (int dig = 1; dig <= 9; dig++) {
                long c = Double.doubleToRawLongBits(Double.parseDouble(dig + "E" + e));
                for (long b = Math.max(1, c - 3); b <= c + 3; b++) {
                    double v = Double.longBitsToDouble(b);
                    if (!Double.isInfinite(v)) d(v);
                }
            }
        }
        for (int e = -45; e <= 38; e++) {
            for (int dig = 1; dig <= 9; dig++) {
                int c = Float.floatToRawIntBits(Float.parseFloat(dig + "E" + e));
                for (int b = Math.max(1, c - 3); b <= c + 3; b++) {
                    float v = Float.intBitsToFloat(b);
                    if (!Float.isInfinite(v)) f(v);
                }
            }
        }
    }

    static void f32Hash() {
        long[] hashes = new long[256];
        IntStream.range(0, 256).parallel().forEach(block -> {
            long h = 0xcbf29ce484222325L;
            for (int i = 0; i < (1 << 24); i++) {
                float v = Float.intBitsToFloat((block << 24) | i);
                String s = Float.isFinite(v) ? Float.toString(v) : "\"" + Float.toString(v) + "\"";
                for (int k = 0; k < s.length(); k++) {
                    h = (h ^ s.charAt(k)) * 0x100000001b3L;
                }
                h = (h ^ '\n') * 0x100000001b3L;
            }
            hashes[block] = h;
        });
        for (int block = 0; block < 256; block++) {
            System.out.println(String.format("%02x %016x", block, hashes[block]));
        }
    }
}
