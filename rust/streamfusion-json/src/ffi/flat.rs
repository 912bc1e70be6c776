//! The flat handoff: columns of flat types described by buffer addresses and capacities, checked against their
//! type's layout and read in place.

use std::ptr::NonNull;
use std::sync::Arc;

use arrow_buffer::{ArrowNativeType, BooleanBuffer, Buffer, NullBuffer};
use arrow_data::ArrayData;
use arrow_schema::{DataType, Field};

use crate::error::{Error, Result};

/// Buffers described per column of the flat handoff: the validity bitmap, then the first and the second
/// buffer of the type's layout (the second only for variable-width types).
pub const FLAT_BUFFERS: usize = 3;

/// Words per column of the flat handoff: the value count, then the address and the capacity (bytes) of each
/// of its [`FLAT_BUFFERS`] buffers (0, 0 for a buffer the type does not have).
pub const FLAT_WORDS: usize = 1 + 2 * FLAT_BUFFERS;

/// The owner of a [`Buffer`] over the caller's memory: the caller keeps it alive until the buffer is dropped
/// and frees it itself, so dropping this frees nothing.
#[derive(Debug)]
struct Borrowed;

/// The buffer layout of a flat type: what the two buffers after the validity bitmap are.
enum FlatLayout {
    /// Values of this many bytes each (integers, floats, decimals, dates, times, timestamps, intervals,
    /// fixed-size binary).
    Fixed(usize),
    /// Bit-packed booleans.
    Bits,
    /// `i32` offsets, then the bytes (Utf8, Binary).
    Offsets32,
    /// `i64` offsets, then the bytes (LargeUtf8, LargeBinary).
    Offsets64,
}

fn flat_layout(data_type: &DataType) -> Option<FlatLayout> {
    use DataType::*;
    Some(match data_type {
        Boolean => FlatLayout::Bits,
        Utf8 | Binary => FlatLayout::Offsets32,
        LargeUtf8 | LargeBinary => FlatLayout::Offsets64,
        FixedSizeBinary(width) => FlatLayout::Fixed(usize::try_from(*width).ok()?),
        _ => FlatLayout::Fixed(data_type.primitive_width()?),
    })
}

/// A [`Buffer`] over `capacity` bytes of the caller's memory at `address` (a dangling empty buffer for
/// capacity 0).
///
/// # Safety
/// `address` must point to `capacity` readable bytes that stay valid and unchanged until the returned
/// buffer (and every array made from it) is dropped.
unsafe fn borrowed_buffer(address: i64, capacity: i64) -> Result<Buffer> {
    let len = usize::try_from(capacity)
        .map_err(|_| Error::InvalidHandoff(format!("buffer capacity {capacity} is negative")))?;
    match NonNull::new(address as usize as *mut u8) {
        // SAFETY: the caller guarantees `len` readable bytes at `ptr` for the buffer's lifetime.
        Some(ptr) => Ok(unsafe { Buffer::from_custom_allocation(ptr, len, Arc::new(Borrowed)) }),
        None if len == 0 => Ok(Buffer::from_vec(Vec::<u8>::new())),
        None => Err(Error::InvalidHandoff(format!(
            "a buffer of {len} bytes at a null address"
        ))),
    }
}

fn too_small(field: &Field, what: &str, have: usize, need: usize) -> Error {
    Error::InvalidHandoff(format!(
        "column `{}`: its {what} buffer holds {have} bytes, {need} are needed",
        field.name()
    ))
}

/// Checks that `offsets` (the first `len + 1` of them) start at or above 0, never decrease and end within
/// `data_len`: what makes every value's slice of the data buffer lie inside it.
fn check_offsets<O: Copy + TryInto<usize>>(
    field: &Field,
    offsets: &[O],
    data_len: usize,
) -> Result<()> {
    let mut previous = 0usize;
    for (i, offset) in offsets.iter().enumerate() {
        let offset = (*offset)
            .try_into()
            .ok()
            .filter(|&o| o >= previous || i == 0);
        match offset {
            Some(o) if o <= data_len => previous = o,
            _ => {
                return Err(Error::InvalidHandoff(format!(
                    "column `{}`: offset {i} is negative, decreasing or beyond the {data_len} data bytes",
                    field.name()
                )))
            }
        }
    }
    Ok(())
}

/// Reads `buffer` as `len` `T`s (it is aligned: [`ArrayData::align_buffers`] ran).
fn typed<T: ArrowNativeType>(buffer: &Buffer, len: usize) -> &[T] {
    &buffer.typed_data::<T>()[..len]
}

/// One column of the flat handoff as [`ArrayData`] over the caller's buffers (no copy unless a buffer is
/// misaligned for its type, in which case Arrow copies it). Every buffer is checked to be large enough for
/// `len` values of the type, and variable-width offsets to stay inside their data, so a corrupt vector is an
/// error, never a read outside its memory.
///
/// # Safety
/// Each non-zero address in `words` ([`FLAT_WORDS`] of them) must point to at least its capacity of readable
/// bytes that stay valid and unchanged until the returned data is dropped.
pub(super) unsafe fn import_column(field: &Field, words: &[i64], rows: usize) -> Result<ArrayData> {
    let data_type = field.data_type();
    let layout = flat_layout(data_type).ok_or_else(|| {
        Error::InvalidHandoff(format!(
            "column `{}` of type {data_type} cannot cross flat; export it through the C Data Interface",
            field.name()
        ))
    })?;
    let len = usize::try_from(words[0])
        .ok()
        .filter(|&len| len == rows)
        .ok_or_else(|| {
            Error::InvalidHandoff(format!(
                "column `{}` has {} values but the root has {rows} rows",
                field.name(),
                words[0]
            ))
        })?;
    // SAFETY (all three): the caller guarantees each address is readable for its capacity meanwhile.
    let validity = unsafe { borrowed_buffer(words[1], words[2]) }?;
    let first = unsafe { borrowed_buffer(words[3], words[4]) }?;
    let second = unsafe { borrowed_buffer(words[5], words[6]) }?;
    let bitmap = len.div_ceil(8);
    if validity.len() < bitmap {
        return Err(too_small(field, "validity", validity.len(), bitmap));
    }
    let buffers = match layout {
        FlatLayout::Fixed(width) => {
            let need = len * width;
            if first.len() < need {
                return Err(too_small(field, "data", first.len(), need));
            }
            vec![first.slice_with_length(0, need)]
        }
        FlatLayout::Bits => {
            if first.len() < bitmap {
                return Err(too_small(field, "data", first.len(), bitmap));
            }
            vec![first]
        }
        FlatLayout::Offsets32 | FlatLayout::Offsets64 => {
            let width = if matches!(layout, FlatLayout::Offsets32) {
                4
            } else {
                8
            };
            let need = (len + 1) * width;
            if first.len() < need {
                return Err(too_small(field, "offsets", first.len(), need));
            }
            // Exactly the offsets checked below: a capacity that is not a multiple of the offset width (a
            // corrupt vector) would make Arrow's typed view of the whole buffer panic (found by the
            // `ffi_flat` fuzz target).
            vec![first.slice_with_length(0, need), second]
        }
    };
    let nulls = NullBuffer::new(BooleanBuffer::new(validity, 0, len));
    // SAFETY: the buffers hold `len` values of `data_type`'s layout (checked above); the offsets are checked
    // against the data below, before any value is read.
    let data = unsafe {
        ArrayData::builder(data_type.clone())
            .len(len)
            .nulls(Some(nulls).filter(|n| n.null_count() > 0))
            .buffers(buffers)
            .align_buffers(true)
            .build_unchecked()
    };
    match layout {
        FlatLayout::Offsets32 => check_offsets(
            field,
            typed::<i32>(&data.buffers()[0], len + 1),
            data.buffers()[1].len(),
        )?,
        FlatLayout::Offsets64 => check_offsets(
            field,
            typed::<i64>(&data.buffers()[0], len + 1),
            data.buffers()[1].len(),
        )?,
        FlatLayout::Fixed(_) | FlatLayout::Bits => {}
    }
    Ok(data)
}
