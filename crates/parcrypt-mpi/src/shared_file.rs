//! One output file written by every rank at its own offsets, appearing atomically.
//!
//! Rank 0 creates a temporary file in the output's folder (`.parcrypt-XXXXXX.tmp`, mode 0600)
//! and broadcasts its name; every rank opens it (the folder must be shared by every host, as
//! the input is) and writes its parts with positioned writes (`pwrite`, [`PartWriter`]). Each
//! rank syncs its writes before the collective check; only if every rank succeeded does rank
//! 0 check the length, set the final mode and rename the file over the output. On any failure
//! the temporary file is removed ([`super::scratch`]): by rank 0's guard, or by whichever
//! ranks the launcher stops.
//!
//! Why positioned writes and not MPI-IO (`MPI_File_write_at_all`): every rank writes one
//! contiguous, block-aligned range that no other rank touches, so MPI-IO's collective
//! buffering (which gathers small interleaved pieces onto aggregator ranks) would only add a
//! copy; `pwrite` needs no `unsafe` binding (rsmpi 0.8 has no MPI-IO wrapper), streams in
//! pieces of any size on every rank independently, and its errors name the file. It needs a
//! POSIX-coherent shared folder for disjoint writes (local disk, NFS with the `fsync` each rank
//! does before the check, Lustre, GPFS), which is what the input already needs.
use super::collective::Wait;
use super::comm::Ranks;
use super::error::{MpiError, MpiResult};
use super::scratch::Scratch;
use std::fs::File;
use std::io::Write;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

/// The I/O error of `path`, as the library reports it (naming the path once).
pub fn io_error(path: &Path, source: std::io::Error) -> MpiError {
    MpiError::Lib(parcrypt_harness::Error::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// This rank's handle on the temporary output.
#[derive(Debug)]
pub struct SharedOutput {
    file: File,
    scratch: Scratch,
    output: PathBuf,
}

impl SharedOutput {
    /// Every rank: rank 0 creates the temporary file beside `output`, every rank opens it.
    /// Agreed: an error on any rank is every rank's error, and leaves no file.
    pub fn create(ranks: &Ranks, output: &Path) -> MpiResult<Self> {
        let (file, scratch) = registered_beside(ranks, output, ".parcrypt-")?;
        let opened = match file {
            Some(file) => Ok(file),
            None => File::options()
                .write(true)
                .read(true)
                .open(scratch.path())
                .map_err(|e| {
                    MpiError::Runtime(format!(
                        "{}: {e} on {} (the output folder must be shared by every host)",
                        scratch.path().display(),
                        ranks.host_of_ranks()[ranks.rank()]
                    ))
                }),
        };
        let file = ranks.agree(opened)?;
        Ok(Self {
            file,
            scratch,
            output: output.to_path_buf(),
        })
    }

    /// The temporary file's name.
    pub fn temp_path(&self) -> &Path {
        self.scratch.path()
    }

    /// The final name.
    pub fn output(&self) -> &Path {
        &self.output
    }

    /// The open file (for reading back a part).
    pub fn file(&self) -> &File {
        &self.file
    }

    /// A writer of this rank's bytes from `offset` on.
    pub fn writer_at(&self, offset: u64) -> PartWriter<'_> {
        PartWriter {
            file: &self.file,
            at: offset,
            path: &self.output,
        }
    }

    /// Every rank: syncs this rank's writes (if `sync`); if every rank succeeded (`local`: the
    /// bytes this rank wrote), rank 0 checks that the file holds their sum, runs `check` on it
    /// (a full verification), gives it `mode`, syncs it (if `sync`) and renames it to the
    /// output. Agreed; on any failure the temporary file is gone. Rank 0 gets the bytes
    /// written in all.
    pub fn commit(
        self,
        ranks: &Ranks,
        local: MpiResult<u64>,
        sync: bool,
        mode: u32,
        check: &dyn Fn(&File) -> MpiResult<()>,
    ) -> MpiResult<u64> {
        let local = local.and_then(|written| {
            if sync {
                self.file
                    .sync_data()
                    .map_err(|e| io_error(&self.output, e))?;
            }
            Ok(written)
        });
        let written = ranks.agree(local)?;
        let total = ranks.reduce_sum(written);
        let renamed = match total {
            Some(total) => self
                .finish_on_root(total, sync, mode, check)
                .map(|()| total),
            None => Ok(0),
        };
        let renamed = ranks.agree(renamed)?;
        self.scratch.keep();
        Ok(renamed)
    }

    fn finish_on_root(
        &self,
        total: u64,
        sync: bool,
        mode: u32,
        check: &dyn Fn(&File) -> MpiResult<()>,
    ) -> MpiResult<()> {
        let err = |e| io_error(&self.output, e);
        let len = self.file.metadata().map_err(err)?.len();
        if len != total {
            return Err(MpiError::Runtime(format!(
                "{}: the ranks wrote {total} bytes but the file holds {len} (is the output \
                 folder shared by every host?)",
                self.output.display()
            )));
        }
        check(&self.file)?;
        use std::os::unix::fs::PermissionsExt;
        self.file
            .set_permissions(std::fs::Permissions::from_mode(mode))
            .map_err(err)?;
        if sync {
            self.file.sync_all().map_err(err)?;
        }
        self.scratch.renaming();
        std::fs::rename(self.scratch.path(), &self.output).map_err(err)
    }
}

/// Every rank: a new empty file in `near`'s folder made by rank 0 (named `prefix`, random
/// letters, `.tmp`), registered on every rank ([`super::scratch`]: removed when rank 0's guard
/// drops, or by any rank on a signal). Rank 0 also gets the open file. Agreed.
fn registered_beside(
    ranks: &Ranks,
    near: &Path,
    prefix: &str,
) -> MpiResult<(Option<File>, Scratch)> {
    let made = if ranks.is_root() {
        let dir = match near.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        tempfile::Builder::new()
            .prefix(prefix)
            .suffix(".tmp")
            .tempfile_in(dir)
            .and_then(|t| t.keep().map_err(|e| e.error))
            .map(|(file, path)| Some((file, Scratch::register(&path, true))))
            .map_err(|e| io_error(near, e))
    } else {
        Ok(None)
    };
    let mine = ranks.agree(made)?;
    let name = ranks.broadcast_from(
        0,
        mine.as_ref().map_or(&[][..], |(_, s)| bytes_of(s.path())),
        Wait::Busy,
    );
    Ok(match mine {
        Some((file, scratch)) => (Some(file), scratch),
        None => (None, Scratch::register(&path_of(name), false)),
    })
}

/// Every rank: a new empty file beside `near`, registered on every rank: where timed runs
/// write outputs that are then thrown away.
pub fn scratch_beside(ranks: &Ranks, near: &Path) -> MpiResult<Scratch> {
    registered_beside(ranks, near, ".parcrypt-bench-").map(|(_, scratch)| scratch)
}

/// A path from the bytes rank 0 sent (Unix paths are bytes).
fn path_of(bytes: Vec<u8>) -> PathBuf {
    use std::os::unix::ffi::OsStringExt;
    PathBuf::from(std::ffi::OsString::from_vec(bytes))
}

/// A path's bytes, to send (Unix paths are bytes).
fn bytes_of(path: &Path) -> &[u8] {
    use std::os::unix::ffi::OsStrExt;
    path.as_os_str().as_bytes()
}

/// Writes consecutive bytes at a file offset (`pwrite`), naming the output in its errors.
#[derive(Debug)]
pub struct PartWriter<'a> {
    file: &'a File,
    at: u64,
    path: &'a Path,
}

impl PartWriter<'_> {
    /// The offset of the next byte.
    pub fn offset(&self) -> u64 {
        self.at
    }

    /// The output's name (for errors).
    pub fn path(&self) -> &Path {
        self.path
    }
}

impl Write for PartWriter<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.file.write_at(buf, self.at)?;
        self.at += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
