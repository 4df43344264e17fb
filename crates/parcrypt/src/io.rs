//! File input and output that never leaves a partial or empty output file behind, and never
//! writes over one of a command's inputs ([`check_not_input`]).
//!
//! Output goes to a temporary file in the destination's folder, which is renamed over the
//! destination only when everything was written and synced.
use crate::error::{Error, Result};
use std::io::Write;
use std::path::Path;

/// The most bytes [`read_file`] reads into memory: 1 GiB (larger inputs go through the
/// streamed paths, as `parcrypt cipher` does).
pub const MAX_READ_BYTES: u64 = 1 << 30;

/// The most bytes of a key, ciphertext, RSA input or label file: 1 MiB. The largest key
/// parcrypt reads (16384 bits, five primes, PEM) is under 20 KB and a ciphertext at most
/// 2048 bytes, so anything larger is refused before it is read whole.
pub const MAX_KEY_FILE_BYTES: u64 = 1 << 20;

/// Reads a whole file of at most [`MAX_READ_BYTES`], naming the file in the error.
pub fn read_file(path: &Path) -> Result<Vec<u8>> {
    read_file_at_most(path, MAX_READ_BYTES)
}

/// Reads a whole file of at most `limit` bytes: a larger one (by its size, or by what it gives
/// when read, for a pipe or a device) is an [`Error::Io`] naming the file and the limit, and
/// no more than `limit + 1` bytes are ever read.
pub fn read_file_at_most(path: &Path, limit: u64) -> Result<Vec<u8>> {
    use std::io::Read;
    let io_err = |source| Error::Io {
        path: path.to_path_buf(),
        source,
    };
    let too_big = |size: u64| {
        io_err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("{size} bytes or more, above the limit of {limit} bytes for this file"),
        ))
    };
    let file = std::fs::File::open(path).map_err(io_err)?;
    let size = file.metadata().map_err(io_err)?.len();
    if size > limit {
        return Err(too_big(size));
    }
    let mut data = Vec::with_capacity(size as usize);
    file.take(limit + 1)
        .read_to_end(&mut data)
        .map_err(io_err)?;
    if data.len() as u64 > limit {
        return Err(too_big(data.len() as u64));
    }
    Ok(data)
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

/// Writes several files as one: each to a temporary file beside it (written and synced)
/// first, then each put in place.
///
/// With `replace` false, a file is put in place only where none exists, atomically (a
/// no-replace rename or link, so two writers at once cannot both win: the loser gets an
/// [`Error::Io`] of kind `AlreadyExists`); with `replace` true, existing files are replaced,
/// the old ones kept as hard links beside them until every new one is in place. If putting
/// any file in place fails, the files this call already placed are undone — an old file gets
/// its old contents back, a new one is removed — so the set is never left half old, half new.
/// (Killed between two renames, the folder keeps the old file's link as a hidden
/// `.parcrypt-old-*` file.) `files` are `(path, data, mode)` as [`write_atomic`] takes them.
pub fn write_files_together(files: &[(&Path, &[u8], Option<u32>)], replace: bool) -> Result<()> {
    let staged = files
        .iter()
        .map(|&(path, data, mode)| stage(path, data, mode))
        .collect::<Result<Vec<_>>>()?;
    // Placed so far: the file's index and, when it replaced one, the old file's link.
    let mut placed: Vec<(usize, Option<tempfile::TempPath>)> = Vec::new();
    for (i, tmp) in staged.into_iter().enumerate() {
        let path = files[i].0;
        let outcome = if replace {
            match keep_old(path) {
                Ok(old) => tmp.persist(path).map(|_| old).map_err(|e| e.error),
                Err(source) => Err(source),
            }
        } else {
            tmp.persist_noclobber(path)
                .map(|_| None)
                .map_err(|e| e.error)
        };
        match outcome {
            Ok(old) => placed.push((i, old)),
            Err(source) => {
                for (j, old) in placed.into_iter().rev() {
                    let _ = match old {
                        Some(old) => old.persist(files[j].0).map_err(|e| e.error),
                        None => std::fs::remove_file(files[j].0),
                    };
                }
                return Err(Error::Io {
                    path: path.to_path_buf(),
                    source,
                });
            }
        }
    }
    Ok(())
}

/// `data` in a synced temporary file beside `path`, with `mode` ([`write_atomic`]'s).
fn stage(path: &Path, data: &[u8], mode: Option<u32>) -> Result<tempfile::NamedTempFile> {
    let io_err = |source| Error::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut tmp = tempfile::Builder::new()
        .prefix(".parcrypt-")
        .suffix(".tmp")
        .tempfile_in(parent_of(path))
        .map_err(io_err)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        tmp.as_file()
            .set_permissions(std::fs::Permissions::from_mode(mode.unwrap_or(PUBLIC_MODE)))
            .map_err(io_err)?;
    }
    #[cfg(not(unix))]
    let _ = mode;
    tmp.write_all(data).map_err(io_err)?;
    tmp.as_file().sync_all().map_err(io_err)?;
    Ok(tmp)
}

/// A hard link to the file at `path` under a fresh hidden name beside it, removed when
/// dropped; `None` when there is no file there.
fn keep_old(path: &Path) -> std::io::Result<Option<tempfile::TempPath>> {
    if std::fs::symlink_metadata(path).is_err() {
        return Ok(None);
    }
    let link = tempfile::Builder::new()
        .prefix(".parcrypt-old-")
        .make_in(parent_of(path), |p| std::fs::hard_link(path, p))?;
    Ok(Some(link.into_temp_path()))
}

/// The folder a file's temporary files go to: its parent, or `.`.
fn parent_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
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
    fn files_above_the_limit_are_refused_with_the_limit_named() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big");
        std::fs::write(&path, vec![7u8; 1001]).unwrap();
        assert_eq!(read_file_at_most(&path, 1001).unwrap().len(), 1001);
        let err = read_file_at_most(&path, 1000).unwrap_err().to_string();
        assert!(err.contains("above the limit of 1000 bytes"), "{err}");
        assert!(err.contains("big"), "{err}");
        // A device that never ends stops at the limit.
        #[cfg(unix)]
        {
            let err = read_file_at_most(Path::new("/dev/zero"), 4096).unwrap_err();
            assert!(err.to_string().contains("4097 bytes or more"), "{err}");
        }
    }

    /// The files of `dir` but hidden temporaries' count.
    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn files_written_together_never_replace_unless_asked_and_undo_a_half_write() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a"), dir.path().join("b"));
        write_files_together(&[(&a, b"a1", Some(0o600)), (&b, b"b1", None)], false).unwrap();
        assert_eq!(names(dir.path()), ["a", "b"]);
        // Without replace: b exists, so a is not written either (a's new file is removed).
        std::fs::remove_file(&a).unwrap();
        let err = write_files_together(&[(&a, b"a2", None), (&b, b"b2", None)], false).unwrap_err();
        match &err {
            Error::Io { path, source } => {
                assert_eq!(path, &b);
                assert_eq!(source.kind(), std::io::ErrorKind::AlreadyExists);
            }
            other => panic!("{other}"),
        }
        assert_eq!(names(dir.path()), ["b"]);
        assert_eq!(std::fs::read(&b).unwrap(), b"b1");
        // With replace, a second file that cannot be put in place (its path is a folder)
        // gives the first its old contents back.
        std::fs::write(&a, b"a-old").unwrap();
        let folder = dir.path().join("f");
        std::fs::create_dir(&folder).unwrap();
        std::fs::write(folder.join("inside"), b"x").unwrap();
        assert!(write_files_together(&[(&a, b"a3", None), (&folder, b"f3", None)], true).is_err());
        assert_eq!(std::fs::read(&a).unwrap(), b"a-old");
        assert_eq!(
            names(dir.path()),
            ["a", "b", "f"],
            "no temporary or old link left"
        );
        // And when it can, both are replaced and the old links are gone.
        write_files_together(&[(&a, b"a4", None), (&b, b"b4", None)], true).unwrap();
        assert_eq!(std::fs::read(&a).unwrap(), b"a4");
        assert_eq!(std::fs::read(&b).unwrap(), b"b4");
        assert_eq!(names(dir.path()), ["a", "b", "f"]);
    }

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
