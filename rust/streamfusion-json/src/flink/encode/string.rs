//! CHAR / VARCHAR / STRING (Jackson-escaped) and BINARY / VARBINARY / BYTES (standard padded Base64), from every
//! Arrow string and binary layout.

use arrow_array::cast::AsArray;
use arrow_array::{Array, GenericBinaryArray, GenericStringArray, OffsetSizeTrait};
use arrow_schema::DataType;
use base64::Engine as _;

use super::{from_fn, BoxEnc, Inline};
use crate::escape::{column_needs_escaping, write_jackson_str, write_verbatim_bytes};

/// CHAR / VARCHAR / STRING from Utf8, LargeUtf8 or Utf8View; for a Utf8 column with nothing to escape also its
/// [`Inline::Verbatim`] form (else [`Inline::Other`]).
pub(crate) fn string<'a>(array: &'a dyn Array) -> (BoxEnc<'a>, Inline<'a>) {
    match array.data_type() {
        DataType::Utf8 => {
            let a = array.as_string::<i32>();
            let enc = utf8(a);
            let inline = if enc.1 {
                Inline::Verbatim {
                    offsets: a.value_offsets(),
                    values: a.value_data(),
                }
            } else {
                Inline::Other
            };
            (enc.0, inline)
        }
        DataType::LargeUtf8 => (utf8(array.as_string::<i64>()).0, Inline::Other),
        _ => {
            let a = array.as_string_view();
            (
                from_fn(move |idx, out| write_jackson_str(out, a.value(idx))),
                Inline::Other,
            )
        }
    }
}

/// A string column: when one pass over its value bytes finds nothing to escape (the common case), every value
/// is copied verbatim (and the flag says so); otherwise each value takes the escaping loop.
fn utf8<'a, O: OffsetSizeTrait>(a: &'a GenericStringArray<O>) -> (BoxEnc<'a>, bool) {
    if column_needs_escaping::<true, O>(a) {
        (
            from_fn(move |idx, out| write_jackson_str(out, a.value(idx))),
            false,
        )
    } else {
        let (offsets, data) = (a.value_offsets(), a.value_data());
        (
            from_fn(move |idx, out| {
                write_verbatim_bytes(
                    out,
                    data,
                    offsets[idx].as_usize(),
                    offsets[idx + 1].as_usize(),
                )
            }),
            true,
        )
    }
}

/// BINARY / VARBINARY / BYTES from Binary, LargeBinary, BinaryView or FixedSizeBinary.
pub(crate) fn binary<'a>(array: &'a dyn Array) -> BoxEnc<'a> {
    match array.data_type() {
        DataType::Binary => base64_of(array.as_binary::<i32>()),
        DataType::LargeBinary => base64_of(array.as_binary::<i64>()),
        DataType::BinaryView => {
            let a = array.as_binary_view();
            from_fn(move |idx, out| write_base64(out, a.value(idx)))
        }
        _ => {
            let a = array.as_fixed_size_binary();
            from_fn(move |idx, out| write_base64(out, a.value(idx)))
        }
    }
}

fn base64_of<'a, O: OffsetSizeTrait>(a: &'a GenericBinaryArray<O>) -> BoxEnc<'a> {
    from_fn(move |idx, out| write_base64(out, a.value(idx)))
}

/// Appends `bytes` as a quoted standard Base64 string with padding (Jackson's `writeBinary` default variant).
#[inline]
fn write_base64(out: &mut Vec<u8>, bytes: &[u8]) {
    let start = out.len();
    let len = bytes.len().div_ceil(3) * 4;
    out.resize(start + len + 2, b'"');
    let written = base64::engine::general_purpose::STANDARD
        .encode_slice(bytes, &mut out[start + 1..start + 1 + len])
        .expect("the slice is sized by the Base64 length formula");
    debug_assert_eq!(written, len);
}
