// Generator of java_float_to_string.txt: the real JDK's Double.toString / Float.toString.
//
// The committed table was printed by Temurin 25.0.3 (JDK >= 19 digits, Raffaello Giulietti's
// algorithm). Run with the JDK whose output you want to pin:
//
//   java JavaFloatToString.java table > java_float_to_string.txt
//
// The JDK 17 / JDK 19+ pair of tables (java_float_to_string_jdk17.txt, java_float_to_string_jdk25.txt: the same
// values, each printed by one JDK) pins both digit algorithms the encoder offers. JDK 17 and earlier print
// FloatingDecimal's digits, which differ from the shortest for some values, so the pair lists edges, random values
// and, among 2,000,000 seeded candidates per type, the first ones whose text differs between the two JDKs:
//
//   J17=/usr/lib/jvm/java-17-openjdk-amd64/bin/java J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
//   $J17 JavaFloatToString.java candidates > /tmp/c17.txt
//   $J25 JavaFloatToString.java candidates > /tmp/c25.txt
//   paste -d ' ' /tmp/c17.txt /tmp/c25.txt | awk '($3 "") != ($6 "") && \
//       ($1 == "d" ? (NR - 1) % 4 != 3 || ++i % 12 == 0 : ++j % 90 == 0) { print $1, $2 }' > /tmp/differing.txt
//   $J17 JavaFloatToString.java pinned /tmp/differing.txt > java_float_to_string_jdk17.txt
//   $J25 JavaFloatToString.java pinned /tmp/differing.txt > java_float_to_string_jdk25.txt
//
// The awk compares the texts as strings (`""` concatenation; awk would compare `2.0E23` and
// `1.9999999999999998E23` as numbers, and find them equal) and keeps every differing double of the random-bits
// and short-decimal candidates, every 12th differing integer-valued double (they are nine in ten of the
// differing doubles) and every 90th differing float (about one float in six differs). `pinned` drops repeats.
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

    public static void main(String[] args) throws java.io.IOException {
        String mode = args.length > 0 ? args[0] : "table";
        switch (mode) {
            case "table" -> table();
            case "candidates" -> candidates();
            case "pinned" -> pinned(args[1]);
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

    /** Seeded candidates, 2,000,000 doubles then 2,000,000 floats, the same list on every JDK. */
    static void candidates() {
        Random r = new Random(20261206L);
        for (int i = 0; i < 2_000_000; i++) d(candidateDouble(r, i));
        for (int i = 0; i < 2_000_000; i++) f(candidateFloat(r, i));
    }

    /** Random bits, then short decimals (1 to 4 digits, any exponent) and their neighbours, then integers. */
    static double candidateDouble(Random r, int i) {
        switch (i % 4) {
            case 0:
                return Double.longBitsToDouble(r.nextLong() & Long.MAX_VALUE);
            case 1:
            case 2: {
                int digits = 1 + r.nextInt(4);
                long m = (long) Math.pow(10, digits - 1) + (long) (r.nextDouble() * 9 * Math.pow(10, digits - 1));
                double v = Double.parseDouble(m + "E" + (r.nextInt(650) - 330));
                long bits = Double.doubleToRawLongBits(v) + r.nextInt(5) - 2;
                v = Double.longBitsToDouble(Math.max(1, bits));
                return Double.isFinite(v) ? v : Double.MAX_VALUE;
            }
            default:
                return (double) (r.nextLong() >>> r.nextInt(64)) + (r.nextBoolean() ? 0.5 : 0.0);
        }
    }

    static float candidateFloat(Random r, int i) {
        switch (i % 4) {
            case 0:
                return Float.intBitsToFloat(r.nextInt() & Integer.MAX_VALUE);
            case 1:
            case 2: {
                int digits = 1 + r.nextInt(4);
                long m = (long) Math.pow(10, digits - 1) + (long) (r.nextDouble() * 9 * Math.pow(10, digits - 1));
                float v = Float.parseFloat(m + "E" + (r.nextInt(90) - 48));
                int bits = Float.floatToRawIntBits(v) + r.nextInt(5) - 2;
                v = Float.intBitsToFloat(Math.max(1, bits));
                return Float.isFinite(v) ? v : Float.MAX_VALUE;
            }
            default:
                return (float) (r.nextLong() >>> r.nextInt(64)) + (r.nextBoolean() ? 0.5f : 0.0f);
        }
    }

    /**
     * Edges, subnormals, powers of two and ten, seeded random values, then the candidates listed in {@code file}
     * (lines {@code d <bits>} / {@code f <bits>}), each once.
     */
    static void pinned(String file) throws java.io.IOException {
        System.out.println("# Printed by " + System.getProperty("java.vm.vendor") + " "
                + System.getProperty("java.runtime.version") + " via JavaFloatToString.java pinned (seed 20261206)");
        for (double v : new double[] {0.0, -0.0, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY,
                Double.MIN_VALUE, -Double.MIN_VALUE, Double.MAX_VALUE, -Double.MAX_VALUE, Double.MIN_NORMAL,
                Math.nextDown(Double.MIN_NORMAL), Math.nextUp(Double.MIN_NORMAL), 1e23, 2e23, 9.007199254740993E15,
                Math.nextUp(1e23), Math.nextDown(2e23), 1e-3, Math.nextDown(1e-3), 1e7, Math.nextDown(1e7),
                0.1 + 0.2, 2e-3, 9.5e21, Math.ulp(1.0), (double) Long.MAX_VALUE, 0x1p62, 0x1p63, 0x1p-21,
                0x1.8p-21, 0x1p-22}) {
            d(v);
        }
        for (long b = 1; b <= 64; b++) d(Double.longBitsToDouble(b));
        for (int e = -1074; e <= 1023; e++) {
            double p = Math.scalb(1.0, e);
            d(p);
            if (e > -1074) d(Math.nextDown(p));
            d(Math.nextUp(p));
        }
        for (int e = -324; e <= 308; e++) {
            double p = Double.parseDouble("1E" + e);
            if (p != 0 && Double.isFinite(p)) {
                d(p);
                d(Math.nextDown(p));
                d(Math.nextUp(p));
            }
        }
        Random r = new Random(20261206L);
        for (int i = 0; i < 3000; i++) d(Double.longBitsToDouble(r.nextLong()));
        for (int i = 0; i < 500; i++) d(Double.longBitsToDouble(r.nextLong() & 0x000f_ffff_ffff_ffffL));
        for (int i = 0; i < 500; i++) d(Math.pow(10, -4 + 12 * r.nextDouble()));
        for (float v : new float[] {0.0f, -0.0f, Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY,
                Float.MIN_VALUE, -Float.MIN_VALUE, Float.MAX_VALUE, -Float.MAX_VALUE, Float.MIN_NORMAL,
                Math.nextDown(Float.MIN_NORMAL), Math.nextUp(Float.MIN_NORMAL), 1e-3f, Math.nextDown(1e-3f),
                1e7f, Math.nextDown(1e7f), 1.0E10f, 3.0E10f, 1.23456789E8f, 1.0E17f, 0.1f, 2e-3f, 1e-44f}) {
            f(v);
        }
        for (int b = 1; b <= 64; b++) f(Float.intBitsToFloat(b));
        for (int e = -149; e <= 127; e++) {
            float p = Math.scalb(1.0f, e);
            f(p);
            if (e > -149) f(Math.nextDown(p));
            f(Math.nextUp(p));
        }
        for (int e = -45; e <= 38; e++) {
            float p = Float.parseFloat("1E" + e);
            if (p != 0 && Float.isFinite(p)) {
                f(p);
                f(Math.nextDown(p));
                f(Math.nextUp(p));
            }
        }
        for (int i = 0; i < 3000; i++) f(Float.intBitsToFloat(r.nextInt()));
        for (int i = 0; i < 500; i++) f(Float.intBitsToFloat(r.nextInt() & 0x007f_ffff));
        for (int i = 0; i < 500; i++) f((float) Math.pow(10, -4 + 12 * r.nextDouble()));
        java.util.Set<String> listed = new java.util.LinkedHashSet<>(
                java.nio.file.Files.readAllLines(java.nio.file.Path.of(file)));
        for (String line : listed) {
            String bits = line.substring(2);
            if (line.startsWith("d ")) d(Double.longBitsToDouble(Long.parseUnsignedLong(bits, 16)));
            else f(Float.intBitsToFloat(Integer.parseUnsignedInt(bits, 16)));
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
