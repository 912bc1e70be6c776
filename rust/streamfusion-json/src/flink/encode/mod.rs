//! Flink-mode column encoders, one module per type family. Each encoder is bound to one batch's array and
//! writes the JSON of one non-null slot straight into the slab; the enclosing row (or [`Col`]) decides between
//! `null` and omission. Each family's constructors pick the encoder for the array's physical layout.
//!
//! [`Col`]: super::bind::Col

pub(crate) mod nested;
pub(crate) mod scalar;
pub(crate) mod string;
pub(crate) mod temporal;

pub(crate) use nested::{Node, RowEnc};

/// An encoder bound to one batch's array, behind the one dynamic call per value.
pub(crate) type BoxEnc<'a> = Box<dyn Enc + 'a>;

/// Writes the JSON of one non-null slot.
pub(crate) trait Enc {
    fn write(&mut self, idx: usize, out: &mut Vec<u8>);

    /// The node slot `idx` becomes when Jackson converts it with `reuse`, the node already stored under the same
    /// map key (see [`Node`]); anything but a ROW is simply its text.
    fn node(&mut self, idx: usize, _reuse: Option<Node>) -> Node {
        let mut raw = Vec::new();
        self.write(idx, &mut raw);
        Node::Raw(raw)
    }

    /// Whether the values are ROWs (directly or through a dictionary), which repeated map keys merge.
    fn is_row(&self) -> bool {
        false
    }
}

/// The encoder of a type whose JSON depends on the slot's value alone: `write(idx, out)`, typically a closure
/// over the typed array (one dynamic call per value, as for any encoder).
pub(crate) fn from_fn<'a>(write: impl Fn(usize, &mut Vec<u8>) + 'a) -> BoxEnc<'a> {
    Box::new(FromFn(write))
}

struct FromFn<F>(F);
impl<F: Fn(usize, &mut Vec<u8>)> Enc for FromFn<F> {
    #[inline]
    fn write(&mut self, idx: usize, out: &mut Vec<u8>) {
        (self.0)(idx, out);
    }
}
