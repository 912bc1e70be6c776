package org.streamfusion.flink.connector;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.base.TypeSerializerSingleton;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * Flink's serializer for {@link EncodedRecord}: the key, then the value, each as an {@code int} length
 * ({@code -1} for null) followed by the bytes; then the timestamp (a {@code boolean} present flag and a
 * {@code long}) and the headers (an {@code int} count, {@code -1} for null, then per header its key as
 * modified UTF-8 and its value as length and bytes), then the topic (a {@code boolean} present flag and the name
 * as modified UTF-8). {@link #copy(EncodedRecord)} returns its argument (the type is
 * immutable), so chaining the encoder to the sink with object reuse off costs no copy, where a Kryo or tuple
 * serializer would copy both arrays per record ({@code CopyingChainingOutput}).
 */
@Internal
public final class EncodedRecordSerializer extends TypeSerializerSingleton<EncodedRecord> {
    private static final long serialVersionUID = 1L;

    /** The one instance. */
    public static final EncodedRecordSerializer INSTANCE = new EncodedRecordSerializer();

    private EncodedRecordSerializer() {}

    /** @return true: records are never modified */
    @Override
    public boolean isImmutableType() {
        return true;
    }

    /** @return a record with a null key and an empty value */
    @Override
    public EncodedRecord createInstance() {
        return EncodedRecord.of(null, new byte[0]);
    }

    /** @return {@code from} itself (immutable) */
    @Override
    public EncodedRecord copy(EncodedRecord from) {
        return from;
    }

    /** @return {@code from} itself (immutable) */
    @Override
    public EncodedRecord copy(EncodedRecord from, EncodedRecord reuse) {
        return from;
    }

    /** @return -1: variable length */
    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public void serialize(EncodedRecord record, DataOutputView target) throws IOException {
        writeBytes(record.key(), target);
        writeBytes(record.value(), target);
        Long timestamp = record.timestamp();
        target.writeBoolean(timestamp != null);
        if (timestamp != null) {
            target.writeLong(timestamp);
        }
        List<Header> headers = record.headers();
        target.writeInt(headers == null ? -1 : headers.size());
        if (headers != null) {
            for (Header header : headers) {
                target.writeUTF(header.key());
                writeBytes(header.value(), target);
            }
        }
        String topic = record.topic();
        target.writeBoolean(topic != null);
        if (topic != null) {
            target.writeUTF(topic);
        }
        Integer partition = record.partition();
        target.writeInt(partition == null ? -1 : partition);
    }

    @Override
    public EncodedRecord deserialize(DataInputView source) throws IOException {
        byte[] key = readBytes(source);
        byte[] value = readBytes(source);
        Long timestamp = source.readBoolean() ? source.readLong() : null;
        int count = source.readInt();
        List<Header> headers = null;
        if (count >= 0) {
            headers = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                String headerKey = source.readUTF();
                headers.add(new RecordHeader(headerKey, readBytes(source)));
            }
        }
        String topic = source.readBoolean() ? source.readUTF() : null;
        int partition = source.readInt();
        return EncodedRecord.of(key, value, topic, partition < 0 ? null : partition, timestamp, headers);
    }

    @Override
    public EncodedRecord deserialize(EncodedRecord reuse, DataInputView source) throws IOException {
        return deserialize(source);
    }

    @Override
    public void copy(DataInputView source, DataOutputView target) throws IOException {
        serialize(deserialize(source), target);
    }

    private static void writeBytes(byte[] bytes, DataOutputView target) throws IOException {
        if (bytes == null) {
            target.writeInt(-1);
        } else {
            target.writeInt(bytes.length);
            target.write(bytes);
        }
    }

    private static byte[] readBytes(DataInputView source) throws IOException {
        int length = source.readInt();
        if (length < 0) {
            return null;
        }
        byte[] bytes = new byte[length];
        source.readFully(bytes);
        return bytes;
    }

    @Override
    public TypeSerializerSnapshot<EncodedRecord> snapshotConfiguration() {
        return new Snapshot();
    }

    /** The serializer's snapshot (stateless: there is one format). */
    public static final class Snapshot extends SimpleTypeSerializerSnapshot<EncodedRecord> {
        /** Restores {@link EncodedRecordSerializer#INSTANCE}. */
        public Snapshot() {
            super(() -> INSTANCE);
        }
    }
}
