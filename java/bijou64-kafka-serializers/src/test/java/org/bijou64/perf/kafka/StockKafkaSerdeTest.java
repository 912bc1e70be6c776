package org.bijou64.perf.kafka;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.IntegerDeserializer;
import org.apache.kafka.common.serialization.IntegerSerializer;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.LongSerializer;
import org.bijou64.Vectors;
import org.junit.jupiter.api.Test;

/** Pins the behaviour of Kafka's stock serdes that our docs and the comparison rely on. */
class StockKafkaSerdeTest {
    @Test
    void longSerdeIsEightBigEndianBytes() {
        try (LongSerializer ser = new LongSerializer();
                LongDeserializer de = new LongDeserializer()) {
            assertArrayEquals(Vectors.hex("000000000000002a"), ser.serialize("t", 42L));
            assertNull(ser.serialize("t", null));
            assertNull(de.deserialize("t", (byte[]) null));
            assertThrows(SerializationException.class, () -> de.deserialize("t", Vectors.hex("2a")));
            // A bijou64 record read by LongDeserializer fails too: the mix-up is caught in both directions.
            assertThrows(SerializationException.class, () -> de.deserialize("t", Vectors.hex("f834")));
        }
    }

    @Test
    void integerSerdeIsFourBigEndianBytes() {
        try (IntegerSerializer ser = new IntegerSerializer();
                IntegerDeserializer de = new IntegerDeserializer()) {
            assertArrayEquals(Vectors.hex("0000002a"), ser.serialize("t", 42));
            assertEquals(42, de.deserialize("t", Vectors.hex("0000002a")));
            assertThrows(SerializationException.class, () -> de.deserialize("t", Vectors.hex("2a")));
        }
    }
}
