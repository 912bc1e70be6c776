package org.bijou64;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;
import org.quicktheories.api.Pair;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/**
 * QuickTheories generators of the inputs a decoder meets, shared by the property tests of every module that
 * decodes bijou64 (the codecs here, the Kafka serdes, the Connect converters), and the outcome of a decode as
 * a comparable string.
 */
public final class ByteInputs {
    private ByteInputs() {}

    /**
     * Byte arrays of 0 to 12 bytes, mostly near a valid record: the Java codec's encoding of a value of any bit
     * length under any mapping, left valid, changed in one byte, cut short or extended by one byte; a tag byte
     * {@code f0}-{@code ff} (the longer tiers) with a random tail of up to 10 bytes; or 0 to 12 random bytes.
     */
    public static Gen<byte[]> records() {
        Gen<byte[]> valid = Generate.longRange(Long.MIN_VALUE, Long.MAX_VALUE)
                .zip(
                        Generate.range(0, 63),
                        Generate.enumValues(Mapping.class),
                        (v, shift, mapping) ->
                                Bijou64.codec(mapping, Implementation.JAVA).encode(v >> shift));
        Gen<byte[]> changed = valid.zip(Generate.range(0, 8), anyByte(), (bytes, at, b) -> {
            byte[] copy = bytes.clone();
            copy[at % copy.length] = b;
            return copy;
        });
        Gen<byte[]> cut = valid.zip(Generate.range(0, 8), (bytes, n) -> Arrays.copyOf(bytes, n % bytes.length));
        Gen<byte[]> extended = valid.zip(anyByte(), (bytes, extra) -> {
            byte[] copy = Arrays.copyOf(bytes, bytes.length + 1);
            copy[bytes.length] = extra;
            return copy;
        });
        Gen<byte[]> longTag = Generate.range(0xf0, 0xff)
                .zip(Generate.byteArrays(Generate.range(0, 10), anyByte()), (tag, tail) -> {
                    byte[] out = new byte[tail.length + 1];
                    out[0] = (byte) (int) tag;
                    System.arraycopy(tail, 0, out, 1, tail.length);
                    return out;
                });
        Gen<byte[]> random = Generate.byteArrays(Generate.range(0, 12), anyByte());
        return Generate.frequency(
                        Pair.of(2, valid),
                        Pair.of(3, changed),
                        Pair.of(2, cut),
                        Pair.of(2, extended),
                        Pair.of(2, longTag),
                        Pair.of(2, random))
                .describedAs(ByteInputs::hex);
    }

    /**
     * Slabs of 0 to 40 records of {@link #records()} with their offsets: right, one offset moved by -3 to 3 (so
     * sometimes still right), or the list cut short.
     */
    public static Gen<Slab> slabs() {
        Gen<List<byte[]>> lists = Generate.range(0, 40).flatMap(n -> listOf(records(), n));
        return lists.zip(
                Generate.range(0, 3), Generate.range(0, 40), Generate.range(-3, 3), (list, breakage, at, delta) -> {
                    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                    int[] offsets = new int[list.size() + 1];
                    for (int i = 0; i < list.size(); i++) {
                        bytes.writeBytes(list.get(i));
                        offsets[i + 1] = bytes.size();
                    }
                    if (breakage == 1) {
                        offsets[at % offsets.length] += delta;
                    } else if (breakage == 2 && offsets.length > 1) {
                        offsets = Arrays.copyOf(offsets, offsets.length - 1 - at % (offsets.length - 1));
                    }
                    return new Slab(bytes.toByteArray(), offsets);
                });
    }

    /** A slab and its offsets as {@code decodeAll} takes them. */
    public record Slab(byte[] bytes, int[] offsets) {
        @Override
        public String toString() {
            return hex(bytes) + " offsets " + Arrays.toString(offsets);
        }
    }

    /**
     * @return {@code "ok:"} and the value (arrays printed element by element), or the exception's class and
     *     message, with the {@link Bijou64Exception.Kind} and record index for a {@link Bijou64Exception}
     */
    public static String outcome(Supplier<?> decode) {
        try {
            Object value = decode.get();
            if (value instanceof long[] longs) {
                return "ok:" + Arrays.toString(longs);
            }
            if (value instanceof int[] ints) {
                return "ok:" + Arrays.toString(ints);
            }
            return "ok:" + value;
        } catch (Bijou64Exception e) {
            return "Bijou64Exception:" + e.kind() + ":" + e.recordIndex() + ":" + e.getMessage();
        } catch (RuntimeException e) {
            return e.getClass().getName() + ":" + e.getMessage();
        }
    }

    /** @return the bytes as lowercase hex, two digits each */
    public static String hex(byte[] bytes) {
        StringBuilder out = new StringBuilder(bytes.length * 2);
        for (byte b : bytes) {
            out.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
        }
        return out.toString();
    }

    private static Gen<Byte> anyByte() {
        return Generate.bytes(Byte.MIN_VALUE, Byte.MAX_VALUE, (byte) 0);
    }

    private static <T> Gen<List<T>> listOf(Gen<T> element, int size) {
        return source -> {
            List<T> out = new ArrayList<>(size);
            for (int i = 0; i < size; i++) {
                out.add(element.generate(source));
            }
            return out;
        };
    }
}
