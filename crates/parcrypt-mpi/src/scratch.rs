//! Temporary output files that must not outlive a failed run, on any rank.
//!
//! An output is written under a temporary name in its folder and renamed by rank 0 only once
//! every rank succeeded ([`super::shared_file`]). Until then its name is registered here, on
//! every rank that writes into it, and it is removed
//! - on an error: the [`Scratch`] guard's drop (also while a panic unwinds);
//! - on the launcher's SIGTERM or SIGINT (another rank failed or died, the job was cancelled):
//!   the handler that [`install_stop_handler`] sets unlinks every registered name itself
//!   (`unlink(2)` is async-signal-safe) before `_exit`, so a rank that dies with SIGKILL still
//!   has its temporary file removed by the ranks the launcher stops;
//! - before a rank ends the job with `MPI_Abort` (a timeout): [`remove_all_now`].
//!
//! A name stays registered until the output was renamed; unlinking it after the rename fails
//! harmlessly (the name no longer exists). Rank 0 marks the file it is about to rename
//! ([`Scratch::renaming`]): a signal that comes after the rename (the job cancelled once the
//! output was complete) finds the name gone and says the output is kept, since `rename(2)` and
//! `unlink(2)` on one name cannot both succeed.
use std::ffi::{CString, c_char};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicPtr, Ordering};

/// Names registered at once (a run has an output and a scratch file at most).
const SLOTS: usize = 8;

/// The registered names, as C strings. A name is never freed once registered (a few bytes per
/// temporary file): a signal handler may be reading it on another thread.
static NAMES: [AtomicPtr<c_char>; SLOTS] = [const { AtomicPtr::new(std::ptr::null_mut()) }; SLOTS];

/// A registered temporary file. Dropping it unregisters the name and, if this rank owns the
/// file, removes it.
#[derive(Debug)]
pub struct Scratch {
    slot: Option<usize>,
    path: PathBuf,
    owner: bool,
}

impl Scratch {
    /// Registers `path`. `owner`: this rank created the file and removes it when dropped;
    /// other ranks remove it only on a signal or an abort.
    pub fn register(path: &Path, owner: bool) -> Self {
        let slot = CString::new(path.as_os_str().as_encoded_bytes())
            .ok()
            .and_then(|c| {
                let raw = c.into_raw();
                let slot = NAMES.iter().position(|s| {
                    s.compare_exchange(
                        std::ptr::null_mut(),
                        raw,
                        Ordering::SeqCst,
                        Ordering::SeqCst,
                    )
                    .is_ok()
                });
                if slot.is_none() {
                    // SAFETY: `raw` came from `into_raw` above and was not published.
                    drop(unsafe { CString::from_raw(raw) });
                }
                slot
            });
        Self {
            slot,
            path: path.to_path_buf(),
            owner,
        }
    }

    /// The file's name.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Rank 0 is about to rename this file to its final name: from now on a stop signal that
    /// finds the name gone reports the output as written in full and kept.
    pub fn renaming(&self) {
        if let Some(slot) = self.slot {
            COMMITTING.store(slot as i32, Ordering::SeqCst);
        }
    }

    /// The file was renamed to its final name: forget it without removing anything.
    pub fn keep(mut self) {
        if self
            .slot
            .is_some_and(|s| COMMITTING.load(Ordering::SeqCst) == s as i32)
        {
            COMMITTED.store(true, Ordering::SeqCst);
        }
        self.unregister();
        self.owner = false;
    }

    fn unregister(&mut self) {
        if let Some(slot) = self.slot.take() {
            // Leaked on purpose (see NAMES).
            NAMES[slot].store(std::ptr::null_mut(), Ordering::SeqCst);
        }
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        self.unregister();
        if self.owner {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// The slot of the file rank 0 is renaming into place (−1: none).
static COMMITTING: AtomicI32 = AtomicI32::new(-1);
/// Rank 0 renamed its output into place and forgot the temporary name.
static COMMITTED: AtomicBool = AtomicBool::new(false);

/// Removes every registered file now. Async-signal-safe: atomic loads, `unlink(2)` and errno
/// only.
pub fn remove_all_now() {
    remove_all_now_telling();
}

/// [`remove_all_now`], telling whether the output had already been renamed into place (the
/// file marked [`Scratch::renaming`] was gone when unlinked, or was kept).
fn remove_all_now_telling() -> bool {
    let committing = COMMITTING.load(Ordering::SeqCst);
    let mut renamed = COMMITTED.load(Ordering::SeqCst);
    for (i, slot) in NAMES.iter().enumerate() {
        let name = slot.load(Ordering::SeqCst);
        if !name.is_null() {
            // SAFETY: a registered pointer is a NUL-terminated string that is never freed.
            let gone = unsafe { libc::unlink(name) } != 0
                && std::io::Error::last_os_error().raw_os_error() == Some(libc::ENOENT);
            renamed |= gone && i as i32 == committing;
        }
    }
    renamed
}

/// Whether this rank says why it stops (rank 0 only).
static SPEAKS: AtomicBool = AtomicBool::new(false);
/// The status to exit with on a signal once rank 0 has printed its own error (0: not yet).
static STOP_QUIETLY: AtomicI32 = AtomicI32::new(0);

/// Answers SIGTERM and SIGINT (from the launcher: another rank failed or died, or the job was
/// cancelled) by removing the registered temporary files and exiting with status 1; rank 0
/// (`speaks`) first says so in one line, unless it has already printed its own error
/// ([`stop_quietly`]).
pub fn install_stop_handler(speaks: bool) {
    SPEAKS.store(speaks, Ordering::SeqCst);
    extern "C" fn on_stop(_: libc::c_int) {
        const MSG: &[u8] = b"error: stopped: another rank failed or died, or the job was \
            cancelled; no output file was written\n";
        const KEPT: &[u8] = b"error: stopped: another rank died or the job was cancelled \
            after the output was written in full and renamed into place; it is kept\n";
        let renamed = remove_all_now_telling();
        let quiet = STOP_QUIETLY.load(Ordering::SeqCst);
        // SAFETY: write(2) and _exit(2) are async-signal-safe; MSG is a static buffer; the
        // atomic loads are lock-free.
        unsafe {
            if quiet != 0 {
                libc::_exit(quiet);
            }
            if SPEAKS.load(Ordering::SeqCst) {
                let msg = if renamed { KEPT } else { MSG };
                libc::write(2, msg.as_ptr().cast(), msg.len());
            }
            libc::_exit(1);
        }
    }
    for sig in [libc::SIGTERM, libc::SIGINT] {
        // SAFETY: installs a handler that calls only async-signal-safe functions.
        unsafe {
            libc::signal(sig, on_stop as *const () as libc::sighandler_t);
        }
    }
}

/// After rank 0 has printed its error line: a later signal from the launcher (another rank
/// exited non-zero first, as every rank does on a collective error) ends it with `status` and
/// no second line (the temporary files are still removed).
pub fn stop_quietly(status: i32) {
    STOP_QUIETLY.store(status.max(1), Ordering::SeqCst);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registered_files_go_on_drop_on_remove_all_and_stay_when_kept() {
        let dir = tempfile::tempdir().unwrap();
        let make = |name: &str| {
            let p = dir.path().join(name);
            std::fs::write(&p, b"x").unwrap();
            p
        };
        let a = make("a.tmp");
        drop(Scratch::register(&a, true));
        assert!(!a.exists(), "the owner removes its file");
        let b = make("b.tmp");
        drop(Scratch::register(&b, false));
        assert!(b.exists(), "a non-owner leaves it to the owner");
        let c = make("c.tmp");
        let held = Scratch::register(&c, false);
        remove_all_now();
        assert!(!c.exists(), "the signal path removes every registered file");
        drop(held);
        let d = make("d.tmp");
        Scratch::register(&d, true).keep();
        remove_all_now();
        assert!(d.exists(), "a kept file is no longer registered");
    }
}
