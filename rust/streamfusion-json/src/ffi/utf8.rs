//! The UTF-8 check of imported strings.

use arrow_buffer::ArrowNativeType;
use arrow_data::ArrayData;
use arrow_schema::DataType;

use crate::error::{Error, Result};

/// Checks that every non-null string value of `data` (and of its children, dictionaries included) is valid
/// UTF-8. Arrow's Utf8 types promise it and the encoder relies on it, but Arrow Java's vectors take any
/// bytes (Flink's `StringData.fromBytes` too), so it is checked once here, where the data enters Rust: one
/// pass over the bytes (ASCII runs a word at a time), an error naming the field (`path`) and row otherwise.
pub(super) fn check(path: &str, data: &ArrayData) -> Result<()> {
    match data.data_type() {
        DataType::Utf8 => check_values::<i32>(path, data)?,
        DataType::LargeUtf8 => check_values::<i64>(path, data)?,
        _ => {}
    }
    let names: Vec<String> = match data.data_type() {
        DataType::Struct(fields) => fields
            .iter()
            .map(|f| format!("{path}.{}", f.name()))
            .collect(),
        _ => vec![path.to_owned(); data.child_data().len()],
    };
    for (child, name) in data.child_data().iter().zip(&names) {
        check(name, child)?;
    }
    Ok(())
}

fn check_values<O: ArrowNativeType + TryInto<usize>>(path: &str, data: &ArrayData) -> Result<()> {
    let offsets = &data.buffer::<O>(0)[data.offset()..=data.offset() + data.len()];
    let offset = |o: &O| -> usize { (*o).try_into().ok().unwrap_or(usize::MAX) };
    let bytes = data.buffers()[1].as_slice();
    let (start, end) = (offset(&offsets[0]), offset(&offsets[data.len()]));
    // The fast path: the whole range is valid and every value starts on a character boundary.
    let whole = bytes.get(start..end).map(std::str::from_utf8);
    let boundaries = || {
        offsets.iter().all(|o| {
            bytes
                .get(offset(o))
                .is_none_or(|&b| !(0x80..0xC0).contains(&b))
        })
    };
    if matches!(whole, Some(Ok(_))) && boundaries() {
        return Ok(());
    }
    // Else value by value, null slots skipped (Flink never reads them).
    for row in 0..data.len() {
        if data.is_null(row) {
            continue;
        }
        let problem = match bytes.get(offset(&offsets[row])..offset(&offsets[row + 1])) {
            None => Some("its offsets lie outside the data".to_owned()),
            Some(value) => std::str::from_utf8(value).err().map(|e| {
                let at = e.valid_up_to();
                format!(
                    "the string is not valid UTF-8 (byte {at} of {}, 0x{:02x}); Flink would write U+FFFD \
                     in its place, Arrow's Utf8 type does not allow it",
                    value.len(),
                    value[at]
                )
            }),
        };
        if let Some(message) = problem {
            return Err(Error::InvalidValue {
                field: path.to_owned(),
                row,
                message,
            });
        }
    }
    Ok(())
}
