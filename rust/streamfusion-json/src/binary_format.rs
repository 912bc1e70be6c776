//! The constants of Flink's binary row format (`BinaryRowData`, `BinaryArrayData`, `BinaryMapData`), shared by
//! the reader of binary rows handed over by the JVM (`ffi`, feature `ffi`) and the decoder's writer of binary
//! rows (`decode`). The layout itself is described where each side uses it.

/// Bits of a row's header (the row kind byte) before the null bits of its fields
/// (`BinaryRowData.HEADER_SIZE_IN_BITS`).
pub(crate) const HEADER_BITS: usize = 8;
/// The highest bit of a slot: set for a string or binary of at most [`MAX_INLINE`] bytes stored in the slot
/// itself (`AbstractBinaryWriter.writeBytesToFixLenPart`).
pub(crate) const INLINE_MARK: u64 = 1 << 63;
/// The longest string or binary stored inline in its slot (`BinaryFormat.MAX_FIX_PART_DATA_SIZE`).
pub(crate) const MAX_INLINE: usize = 7;
/// Flink's largest compact DECIMAL precision (`DecimalData.MAX_COMPACT_PRECISION`): up to it the unscaled
/// value is a `long` in the slot.
pub(crate) const MAX_COMPACT_PRECISION: u8 = 18;

/// Bytes of a row's null bit set for `arity` fields, header included
/// (`BinaryRowData.calculateBitSetWidthInBytes`).
#[must_use]
pub(crate) fn null_bits_bytes(arity: usize) -> usize {
    (arity + 63 + HEADER_BITS) / 64 * 8
}
