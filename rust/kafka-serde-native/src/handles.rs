//! Handles: how the JVM holds a native object (an encoder, a decoder) as a `long` with an explicit
//! open / use / close lifecycle, without ever holding a pointer.
//!
//! Each kind of object has one process-wide [`Registry`] keyed by ids from a counter that never repeats, so a
//! closed, never-opened or forged handle is looked up, not dereferenced: it is an `IllegalStateException`
//! instead of undefined behaviour. Each registered object sits behind its own mutex, so concurrent calls on one
//! handle are serialised (safe, one at a time) and calls on different handles run in parallel.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use jni::sys::jlong;

use crate::error::JniError;

/// A handle as the JVM holds it: a registry id, never a pointer. Ids start at 1 and are never reused, so 0 is
/// never a valid handle (the Java side uses it for "closed").
#[repr(transparent)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Handle(jlong);

impl From<jlong> for Handle {
    fn from(id: jlong) -> Self {
        Self(id)
    }
}

impl From<Handle> for jlong {
    fn from(handle: Handle) -> Self {
        handle.0
    }
}

/// The open objects of one kind, by handle.
pub(crate) struct Registry<T> {
    /// What the handles are, for error messages ("StreamFusion encoder").
    kind: &'static str,
    next: AtomicI64,
    open: Mutex<BTreeMap<Handle, Arc<Mutex<T>>>>,
}

impl<T> Registry<T> {
    /// An empty registry of handles to `kind`s.
    pub(crate) const fn new(kind: &'static str) -> Self {
        Registry {
            kind,
            next: AtomicI64::new(1),
            open: Mutex::new(BTreeMap::new()),
        }
    }

    /// The map, whatever an earlier panic did: every operation on it completes or leaves it as it was, so a
    /// poisoned lock still guards a consistent map.
    fn open(&self) -> MutexGuard<'_, BTreeMap<Handle, Arc<Mutex<T>>>> {
        self.open.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Registers `object` under a new handle.
    pub(crate) fn insert(&self, object: T) -> Handle {
        let handle = Handle(self.next.fetch_add(1, Ordering::Relaxed));
        self.open().insert(handle, Arc::new(Mutex::new(object)));
        handle
    }

    /// The object behind `handle`; a closed or unknown handle is an error. The returned `Arc` keeps the
    /// object alive for the caller even if another thread closes the handle meanwhile.
    pub(crate) fn lookup(&self, handle: Handle) -> Result<Arc<Mutex<T>>, JniError> {
        self.open().get(&handle).cloned().ok_or_else(|| {
            JniError::IllegalState(format!(
                "{} handle {} is closed or was never opened",
                self.kind, handle.0
            ))
        })
    }

    /// Runs `f` on the object behind `handle` while holding its lock.
    pub(crate) fn with<R>(
        &self,
        handle: Handle,
        f: impl FnOnce(&mut T) -> Result<R, JniError>,
    ) -> Result<R, JniError> {
        let shared = self.lookup(handle)?;
        let mut object = shared.lock().map_err(|_| {
            JniError::IllegalState(format!(
                "{} handle {} is unusable: an earlier call panicked inside it; close it",
                self.kind, handle.0
            ))
        })?;
        f(&mut object)
    }

    /// Removes `handle`; its object is dropped once no call in flight still uses it.
    pub(crate) fn remove(&self, handle: Handle) -> Result<(), JniError> {
        match self.open().remove(&handle) {
            Some(_) => Ok(()),
            None => Err(JniError::IllegalState(format!(
                "{} handle {} is already closed or was never opened",
                self.kind, handle.0
            ))),
        }
    }
}
