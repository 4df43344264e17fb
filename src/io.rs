//! File input and output that never leaves a partial or empty output file behind, and never
//! writes over one of a command's inputs ([`check_not_input`]).
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

/// Permissions of an output that is not secret: owner read-write, everyone else read.
pub const PUBLIC_MODE: u32 = 0o644;

/// Writes `data` to `path` atomically: a temporary file beside it, then a rename.
///
/// `mode` sets Unix permissions on the new file: `Some(0o600)` for private keys and
/// decrypted plaintext; `None` gives [`PUBLIC_MODE`] (0644: reports, CSV, JSON, ciphertext),
/// as a file made by most tools would be. (The temporary file itself starts as 0600.)
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
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = mode.unwrap_or(PUBLIC_MODE);
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

/// Checks, before any work, that `path` could be written by [`write_atomic`]: its folder
/// exists, is a folder and takes a new file, and `path` itself is not a folder.
///
/// The error is [`Error::InvalidParameter`] (a usage error), naming the path and the reason.
pub fn check_writable(path: &Path) -> Result<()> {
    let bad = |why: String| {
        Err(Error::InvalidParameter(format!(
            "{}: {why}",
            path.display()
        )))
    };
    if path.as_os_str().is_empty() {
        return Err(Error::InvalidParameter("empty output file name".into()));
    }
    if path.is_dir() {
        return bad("is a folder, not a file".into());
    }
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if !dir.exists() {
        return bad(format!("folder {} does not exist", dir.display()));
    }
    if !dir.is_dir() {
        return bad(format!("{} is not a folder", dir.display()));
    }
    match tempfile::Builder::new()
        .prefix(".parcrypt-probe-")
        .tempfile_in(dir)
    {
        Ok(_) => Ok(()),
        Err(e) => bad(format!("cannot write in {}: {e}", dir.display())),
    }
}

/// Whether `a` and `b` name the same existing file: the same device and inode on Unix (links
/// followed), so a symbolic link, a hard link or a `./`-variant of a name is caught; elsewhere
/// the same canonical path. A path that does not exist names no file: `false`.
pub fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (std::fs::metadata(a), std::fs::metadata(b)) {
            (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}

/// Refuses, before any work, an output that is the same file ([`same_file`]) as one of the
/// command's inputs, so that no command replaces its key, its input or its label with its
/// result. `out` and each input are `(option, path)`: `("--out", out)`, `("--key", key)`. An
/// output that does not exist yet is fine; so is an input that does not exist (reading it
/// fails later with its own error).
///
/// The error is [`Error::InvalidParameter`] (a usage error), naming both options and paths.
pub fn check_not_input(out: (&str, &Path), inputs: &[(&str, &Path)]) -> Result<()> {
    let (flag, path) = out;
    match inputs.iter().find(|(_, input)| same_file(path, input)) {
        Some((other, input)) => Err(Error::InvalidParameter(format!(
            "{flag} {} is the same file as {other} {} (parcrypt never overwrites its inputs)",
            path.display(),
            input.display()
        ))),
        None => Ok(()),
    }
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

    #[cfg(unix)]
    #[test]
    fn outputs_are_0644_unless_a_mode_is_given() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let mode = |name: &str, m: Option<u32>| {
            let p = dir.path().join(name);
            write_atomic(&p, b"x", m).unwrap();
            std::fs::metadata(&p).unwrap().permissions().mode() & 0o777
        };
        assert_eq!(mode("report.md", None), 0o644);
        assert_eq!(mode("key.pem", Some(0o600)), 0o600);
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

    #[test]
    fn an_output_that_is_an_input_is_refused_through_any_name() {
        let dir = tempfile::tempdir().unwrap();
        let key = dir.path().join("key.pem");
        let other = dir.path().join("in.bin");
        std::fs::write(&key, b"KEY").unwrap();
        std::fs::write(&other, b"IN").unwrap();
        let inputs = [("--key", key.as_path()), ("--in", other.as_path())];
        let dotted = dir.path().join(".").join("key.pem");
        let mut names = vec![key.clone(), dotted];
        #[cfg(unix)]
        {
            let soft = dir.path().join("soft.pem");
            std::os::unix::fs::symlink(&key, &soft).unwrap();
            let hard = dir.path().join("hard.pem");
            std::fs::hard_link(&key, &hard).unwrap();
            names.extend([soft, hard]);
        }
        for name in &names {
            let err = check_not_input(("--out", name), &inputs).unwrap_err();
            assert!(matches!(err, Error::InvalidParameter(_)), "{err}");
            let msg = err.to_string();
            assert!(
                msg.contains("--out") && msg.contains("same file as --key"),
                "{msg}"
            );
        }
        let err = check_not_input(("--json", &other), &inputs).unwrap_err();
        assert!(err.to_string().contains("same file as --in"), "{err}");
        // A new output, or one that is another existing file, is fine.
        let fresh = dir.path().join("out.bin");
        assert!(check_not_input(("--out", &fresh), &inputs).is_ok());
        std::fs::write(&fresh, b"old output").unwrap();
        assert!(check_not_input(("--out", &fresh), &inputs).is_ok());
        assert!(!same_file(&fresh, &dir.path().join("missing")));
        assert_eq!(std::fs::read(&key).unwrap(), b"KEY");
    }

    #[test]
    fn writable_paths_are_checked_before_any_work() {
        let dir = tempfile::tempdir().unwrap();
        assert!(check_writable(&dir.path().join("out.json")).is_ok());
        let folder = check_writable(dir.path()).unwrap_err().to_string();
        assert!(folder.contains("is a folder"), "{folder}");
        let missing = check_writable(&dir.path().join("no/out.json"))
            .unwrap_err()
            .to_string();
        assert!(missing.contains("does not exist"), "{missing}");
        assert!(matches!(
            check_writable(Path::new("")),
            Err(Error::InvalidParameter(_))
        ));
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            0,
            "no probe left"
        );
    }
}
