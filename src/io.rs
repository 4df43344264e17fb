//! File input and output that never leaves a partial or empty output file behind.
//!
//! Output goes to a temporary file in the destination's folder, which is renamed over the
//! destination only when everything was written and synced.
use crate::error::{Error, Result};
use std::io::Write;
use std::path::Path;

/// Reads a whole file, naming the file in the error.
pub fn read_file(path: &Path) -> Result<Vec<u8>> {
    std::fs::read(path).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// Writes `data` to `path` atomically: a temporary file beside it, then a rename.
///
/// `mode` sets Unix permissions on the new file (for example `0o600` for private keys).
pub fn write_atomic(path: &Path, data: &[u8], mode: Option<u32>) -> Result<()> {
    let io_err = |source| Error::Io {
        path: path.to_path_buf(),
        source,
    };
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::Builder::new()
        .prefix(".parcrypt-")
        .suffix(".tmp")
        .tempfile_in(dir)
        .map_err(io_err)?;
    #[cfg(unix)]
    if let Some(mode) = mode {
        use std::os::unix::fs::PermissionsExt;
        tmp.as_file()
            .set_permissions(std::fs::Permissions::from_mode(mode))
            .map_err(io_err)?;
    }
    #[cfg(not(unix))]
    let _ = mode;
    tmp.write_all(data).map_err(io_err)?;
    tmp.as_file().sync_all().map_err(io_err)?;
    tmp.persist(path).map_err(|e| io_err(e.error))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_write_creates_file_and_leaves_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out.bin");
        write_atomic(&out, b"hello", Some(0o600)).unwrap();
        assert_eq!(std::fs::read(&out).unwrap(), b"hello");
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1, "only the output file remains");
    }

    #[test]
    fn unwritable_destination_is_an_error_not_a_file() {
        let out = Path::new("/nonexistent-dir-parcrypt/out.bin");
        let err = write_atomic(out, b"x", None).unwrap_err();
        assert!(
            err.to_string()
                .contains("/nonexistent-dir-parcrypt/out.bin")
        );
        assert!(!out.exists());
    }
}
