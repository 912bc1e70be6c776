//! Flink mode: the bytes of Flink's `json` format (`JsonRowDataSerializationSchema` + `RowDataToJsonConverters`,
//! serialized by Flink's shaded Jackson), written straight from Arrow arrays.

pub(crate) mod columns;
pub(crate) mod decimal;
pub(crate) mod float;
pub(crate) mod plan;
pub(crate) mod temporal;
