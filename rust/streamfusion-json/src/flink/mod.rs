//! Flink mode: the bytes of Flink's `json` format (`JsonRowDataSerializationSchema` + `RowDataToJsonConverters`,
//! serialized by Flink's shaded Jackson), written straight from Arrow arrays.
//!
//! [`plan`] maps each Arrow type to its Flink type once per schema; [`bind`] binds each planned type to its
//! array once per batch, choosing an encoder of [`encode`]'s type families; [`decimal`], [`float`] (JDK 19+
//! digits), [`float_jdk17`] (JDK 17 digits) and [`temporal`] produce the text Java writes for those values.

pub(crate) mod bind;
pub(crate) mod decimal;
pub(crate) mod encode;
pub(crate) mod float;
pub(crate) mod float_jdk17;
pub(crate) mod plan;
pub(crate) mod temporal;
