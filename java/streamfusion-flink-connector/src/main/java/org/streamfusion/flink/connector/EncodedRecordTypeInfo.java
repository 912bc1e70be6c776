package org.streamfusion.flink.connector;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/** Flink's type information for {@link EncodedRecord}: an atomic, non-key type serialized by {@link EncodedRecordSerializer}. */
@Internal
public final class EncodedRecordTypeInfo extends TypeInformation<EncodedRecord> {
    private static final long serialVersionUID = 1L;

    /** The one instance. */
    public static final EncodedRecordTypeInfo INSTANCE = new EncodedRecordTypeInfo();

    private EncodedRecordTypeInfo() {}

    @Override
    public boolean isBasicType() {
        return false;
    }

    @Override
    public boolean isTupleType() {
        return false;
    }

    @Override
    public int getArity() {
        return 1;
    }

    @Override
    public int getTotalFields() {
        return 1;
    }

    @Override
    public Class<EncodedRecord> getTypeClass() {
        return EncodedRecord.class;
    }

    @Override
    public boolean isKeyType() {
        return false;
    }

    /** @return {@link EncodedRecordSerializer#INSTANCE}, whatever the config */
    @Override
    public TypeSerializer<EncodedRecord> createSerializer(SerializerConfig config) {
        return EncodedRecordSerializer.INSTANCE;
    }

    /**
     * Flink 1.x's abstract form of {@link #createSerializer(SerializerConfig)} (removed in Flink 2.0, where this
     * is an ordinary method nothing calls).
     *
     * @return {@link EncodedRecordSerializer#INSTANCE}, whatever the config
     */
    public TypeSerializer<EncodedRecord> createSerializer(ExecutionConfig config) {
        return EncodedRecordSerializer.INSTANCE;
    }

    @Override
    public String toString() {
        return "EncodedRecord";
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof EncodedRecordTypeInfo;
    }

    @Override
    public int hashCode() {
        return EncodedRecordTypeInfo.class.hashCode();
    }

    @Override
    public boolean canEqual(Object obj) {
        return obj instanceof EncodedRecordTypeInfo;
    }
}
