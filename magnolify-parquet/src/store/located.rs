//! Errors of an object store, located at the object they concern as a
//! file's errors are at the file.

use std::sync::Arc;

use object_store::path::Path as ObjectPath;

use crate::error::Error;

/// An object's path as the file errors name.
pub(crate) fn object_file(path: &ObjectPath) -> Arc<std::path::Path> {
    Arc::from(std::path::Path::new(path.as_ref()))
}

/// An object store's error, at the object it concerns.
pub(crate) fn store_error(path: &ObjectPath, error: object_store::Error) -> Error {
    Error::from(std::io::Error::other(error)).in_file(&Some(object_file(path)))
}
