//! The C Data Interface handoff: exported `ArrowArray` / `ArrowSchema` structs checked for liveness, moved out
//! of the caller's memory, and imported with the types of the schema.

use std::ffi::c_void;

use arrow_array::ffi::{from_ffi_and_data_type, FFI_ArrowArray, FFI_ArrowSchema};
use arrow_array::{make_array, ArrayRef};
use arrow_schema::Fields;

use crate::error::{Error, Result};

/// The leading fields of the C Data Interface's `ArrowSchema` up to `release`, to check it before moving it.
#[repr(C)]
struct SchemaHead {
    format: *const c_void,
    name: *const c_void,
    metadata: *const c_void,
    flags: i64,
    n_children: i64,
    children: *mut c_void,
    dictionary: *mut c_void,
    release: Option<unsafe extern "C" fn(*mut c_void)>,
}

/// The leading fields of the C Data Interface's `ArrowArray` up to `release`.
#[repr(C)]
struct ArrayHead {
    length: i64,
    null_count: i64,
    offset: i64,
    n_buffers: i64,
    n_children: i64,
    buffers: *mut c_void,
    children: *mut c_void,
    dictionary: *mut c_void,
    release: Option<unsafe extern "C" fn(*mut c_void)>,
}

/// Moves the exported structs out of the caller's memory (the caller's structs are left released), so that
/// from here on each is released exactly once, by Rust, on every path. A schema address of 0 means "the
/// schema that crossed last". A zero array address, or a struct that is already released, is an error;
/// every other struct is still taken and released.
///
/// # Safety
/// As [`Handoff::take_c_data`](super::Handoff::take_c_data).
pub(super) unsafe fn take(
    array_addresses: &[usize],
    schema_address: usize,
) -> Result<(Vec<FFI_ArrowArray>, Option<FFI_ArrowSchema>)> {
    // SAFETY: forwarded from the caller.
    let schema = unsafe { take_schema(schema_address) };
    let mut columns = Vec::with_capacity(array_addresses.len());
    let mut dead = None;
    for (column, &address) in array_addresses.iter().enumerate() {
        let ptr = address as *mut FFI_ArrowArray;
        // SAFETY: the caller guarantees a non-null pointer refers to an initialised struct of the C layout
        // that `ArrayHead` mirrors field by field up to `release`; reading it does not move it.
        let live = !ptr.is_null() && unsafe { (*ptr.cast::<ArrayHead>()).release.is_some() };
        if live {
            // SAFETY: a live struct is valid for reads and writes (caller's guarantee); `from_raw` moves it
            // out and leaves an empty released struct behind, so the caller's later release is a no-op.
            columns.push(unsafe { FFI_ArrowArray::from_raw(ptr) });
        } else if dead.is_none() {
            dead = Some(format!(
                "the ArrowArray of column {column} at {address:#x} is {}",
                liveness(ptr.is_null(), live)
            ));
        }
    }
    let schema = schema?;
    if let Some(dead) = dead {
        return Err(Error::InvalidHandoff(format!(
            "the exported Arrow structs must be live: {dead}"
        )));
    }
    Ok((columns, schema))
}

/// Moves the exported schema out of the caller's memory (0: none crossed). A released struct is an error.
///
/// # Safety
/// A non-zero address must point to an initialised `ArrowSchema` the caller may hand over.
pub(super) unsafe fn take_schema(schema_address: usize) -> Result<Option<FFI_ArrowSchema>> {
    let schema_ptr = schema_address as *mut FFI_ArrowSchema;
    if schema_ptr.is_null() {
        return Ok(None);
    }
    // SAFETY: the caller guarantees an initialised struct of the layout `SchemaHead` mirrors up to `release`.
    let live = unsafe { (*schema_ptr.cast::<SchemaHead>()).release.is_some() };
    if !live {
        return Err(Error::InvalidHandoff(format!(
            "the exported Arrow structs must be live: the ArrowSchema at {schema_address:#x} is {}",
            liveness(false, live)
        )));
    }
    // SAFETY: a live struct, moved out; an empty released struct is left behind.
    Ok(Some(unsafe { FFI_ArrowSchema::from_raw(schema_ptr) }))
}

fn liveness(null: bool, live: bool) -> &'static str {
    match (null, live) {
        (true, _) => "a null address",
        (false, true) => "live",
        (false, false) => "already released",
    }
}

/// The exported arrays as Arrow arrays of their fields' types, each `rows` long.
pub(super) fn import_columns(
    fields: &Fields,
    columns: Vec<FFI_ArrowArray>,
    rows: usize,
) -> Result<Vec<ArrayRef>> {
    fields
        .iter()
        .zip(columns)
        .map(|(field, column)| {
            // SAFETY: `column` was moved out of an export of a vector whose field is `field` (the schema
            // that crossed with it or before it, for the same root); `from_ffi_and_data_type` checks the
            // buffer count and layout against the type.
            let data = unsafe { from_ffi_and_data_type(column, field.data_type().clone()) }
                .map_err(Error::ArrowImport)?;
            if data.len() != rows {
                return Err(Error::InvalidHandoff(format!(
                    "column `{}` has {} values but the root has {rows} rows",
                    field.name(),
                    data.len()
                )));
            }
            Ok(make_array(data))
        })
        .collect()
}
