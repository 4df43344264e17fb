//! What `auto` runs, chosen by measurement: the first time a size is asked for, every
//! constant-time backend this CPU offers that takes the size is timed on a modulus of that
//! size (a few milliseconds), and the fastest is kept in the process. Which backend wins, and
//! by how much, depends on the microarchitecture (IFMA on Zen 4's 256-bit datapaths against
//! Zen 5's 512-bit ones), so CPU flags alone do not decide it.
//!
//! **Nothing is written to disk unless the caller asks**: a library that times its kernels
//! writes no file behind its user's back. A program that wants later runs on the same kind of
//! CPU to choose without timing (as FFTW keeps its wisdom) calls
//! [`keep_choices_on_disk`]`(true)` once at start; the `parcrypt` command does. The cache is
//! then `$PARCRYPT_CACHE_DIR/kernels.json`, else `$XDG_CACHE_HOME/parcrypt/…`, else
//! `$HOME/.cache/parcrypt/…`, per CPU model and set of backends offered;
//! `PARCRYPT_CACHE_DIR=off` (or empty, or a relative path) keeps choices in the process even
//! then. A cache that cannot be read or written, is not a regular file or is longer than
//! [`MAX_CACHE_BYTES`] is ignored (the choice is then timed again).
//! The timings are of public random operands: nothing secret is timed or stored.
use super::{Backend, CtModulus};
use rug::Integer;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// One choice: the backend, and why (the times measured, or where they were read).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Choice {
    /// The backend `auto` runs for the size.
    pub backend: Backend,
    /// Microseconds per timed exponentiation (a 96-bit exponent) of each backend (name, µs).
    pub times_us: Vec<(String, f64)>,
    /// Where the choice came from: `measured` (this process timed it) or `cached` (read
    /// from the cache file).
    #[serde(skip, default)]
    pub source: &'static str,
}

impl Choice {
    /// One line for records: `ifma (measured: ifma 40.1 µs, mulx 92.3 µs, portable 210 µs)`.
    pub fn describe(&self) -> String {
        let times: Vec<String> = self
            .times_us
            .iter()
            .map(|(b, us)| format!("{b} {us:.1} µs"))
            .collect();
        if times.is_empty() {
            return format!("{} (the only backend for the size)", self.backend);
        }
        format!("{} ({}: {})", self.backend, self.source, times.join(", "))
    }
}

/// A backend later in [`Backend::ALL`]'s order must be this much faster than an earlier one to
/// be chosen over it: a first timing taken on a busy machine is kept, so a difference within
/// the noise must not decide.
pub const MARGIN: f64 = 0.05;

/// The backend with the least time, where a later one in [`Backend::ALL`]'s order must beat
/// an earlier one by [`MARGIN`]; `None` for no timings.
pub fn fastest(times: &[(Backend, f64)]) -> Option<Backend> {
    let mut best: Option<(Backend, f64)> = None;
    for b in Backend::ALL {
        if let Some(&(_, t)) = times.iter().find(|(x, t)| *x == b && t.is_finite()) {
            if best.is_none_or(|(_, bt)| t < bt * (1.0 - MARGIN)) {
                best = Some((b, t));
            }
        }
    }
    best.map(|(b, _)| b)
}

/// Sizes share a choice by limb count rounded up to a multiple of 8 (512 bits).
pub(crate) fn size_class(bits: u32) -> u32 {
    bits.div_ceil(512).max(1) * 512
}

/// The CPU model the cache is kept for: vendor, family, model, stepping and the model name.
pub fn cpu_model() -> String {
    let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let field = |name: &str| {
        info.lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_once(':'))
            .map(|(_, v)| v.trim().to_string())
            .unwrap_or_default()
    };
    format!(
        "{} family {} model {} stepping {} ({})",
        field("vendor_id"),
        field("cpu family"),
        field("model\t"),
        field("stepping"),
        field("model name")
    )
}

type Cache = BTreeMap<String, BTreeMap<u32, Choice>>;

/// Whether choices are read from and written to the cache file ([`keep_choices_on_disk`]).
static ON_DISK: AtomicBool = AtomicBool::new(false);

/// Keeps `auto`'s kernel choices in a cache file across processes (`true`), or in this process
/// only (`false`, the default). See the module docs for where the file is.
pub fn keep_choices_on_disk(on: bool) {
    ON_DISK.store(on, Ordering::Relaxed);
}

/// The cache file, or `None` when caching on disk is off (the default; see
/// [`keep_choices_on_disk`]) or no directory is known.
pub fn cache_file() -> Option<PathBuf> {
    if !ON_DISK.load(Ordering::Relaxed) {
        return None;
    }
    let var = |name| std::env::var_os(name);
    cache_file_from(
        var("PARCRYPT_CACHE_DIR"),
        var("XDG_CACHE_HOME"),
        var("HOME"),
    )
}

/// [`cache_file`] from the three variables' values. `PARCRYPT_CACHE_DIR` set to `off`, to
/// nothing or to a relative path turns the disk cache off (a relative path would write into
/// whatever folder the command runs in); a relative `XDG_CACHE_HOME` is ignored, as the XDG
/// specification says, and so is a relative `HOME`.
fn cache_file_from(
    parcrypt: Option<OsString>,
    xdg: Option<OsString>,
    home: Option<OsString>,
) -> Option<PathBuf> {
    let absolute = |d: OsString| Some(PathBuf::from(d)).filter(|p| p.is_absolute());
    let dir = match parcrypt {
        Some(d) if d == "off" => return None,
        Some(d) => absolute(d)?,
        None => match xdg.and_then(absolute) {
            Some(x) => x.join("parcrypt"),
            None => absolute(home?)?.join(".cache/parcrypt"),
        },
    };
    Some(dir.join("kernels.json"))
}

/// The most bytes of the cache file read (a few CPU models' choices take 1 to 2 KiB): a
/// longer file is ignored, as a garbled one is.
pub const MAX_CACHE_BYTES: u64 = 16 * 1024;

/// The cache at `path`, or an empty one when it is missing, garbled, longer than
/// [`MAX_CACHE_BYTES`] or not a regular file: a FIFO is never opened (opening one waits for a
/// writer), a link to a device (`/dev/zero`) is never read, and at most
/// [`MAX_CACHE_BYTES`] + 1 bytes are read whatever the file becomes after the check.
fn read_cache(path: &std::path::Path) -> Cache {
    read_bounded(path)
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_default()
}

fn read_bounded(path: &std::path::Path) -> Option<Vec<u8>> {
    use std::io::Read;
    if !std::fs::metadata(path).ok()?.is_file() {
        return None;
    }
    let file = std::fs::File::open(path).ok()?;
    if !file.metadata().ok()?.is_file() {
        return None;
    }
    let mut bytes = Vec::new();
    file.take(MAX_CACHE_BYTES + 1)
        .read_to_end(&mut bytes)
        .ok()?;
    (bytes.len() as u64 <= MAX_CACHE_BYTES).then_some(bytes)
}

fn write_cache(path: &std::path::Path, cache: &Cache) {
    let Some(dir) = path.parent() else { return };
    let Ok(text) = serde_json::to_vec_pretty(cache) else {
        return;
    };
    if text.len() as u64 > MAX_CACHE_BYTES {
        return; // it would not be read back
    }
    if std::fs::create_dir_all(dir).is_ok() {
        let _ = crate::io::write_atomic(path, &text, None);
    }
}

/// The choices made in this process, by size class.
static CHOSEN: Mutex<Vec<(u32, Choice)>> = Mutex::new(Vec::new());

/// The backend `auto` runs for a modulus of `bits` bits (see the module docs), and why.
pub fn choice_for(bits: u32) -> Choice {
    let candidates: Vec<Backend> = Backend::ALL
        .into_iter()
        .filter(|b| b.available() && b.supports_bits(bits))
        .collect();
    if candidates.len() <= 1 {
        return Choice {
            backend: candidates.first().copied().unwrap_or(Backend::Portable),
            times_us: Vec::new(),
            source: "only",
        };
    }
    let class = size_class(bits);
    let mut chosen = CHOSEN.lock().unwrap_or_else(|p| p.into_inner());
    // A choice is kept per 512-bit class, but a backend may take only part of a class (IFMA
    // stops at 8318 bits): the memo and the cache are used only where the backend takes these
    // bits, so a hand-edited cache or another size of the class never picks one that cannot
    // run (rsa/kernel.rs builds the CRT of `auto` on the choice and expects it to run).
    if let Some((_, c)) = chosen
        .iter()
        .find(|(k, c)| *k == class && candidates.contains(&c.backend))
    {
        return c.clone();
    }
    // Keyed by what runs here too: under Valgrind (no AVX-512) the same CPU offers fewer.
    let offered: Vec<&str> = Backend::ALL
        .into_iter()
        .filter(|b| b.available())
        .map(Backend::name)
        .collect();
    let cpu = format!("{} [{}]", cpu_model(), offered.join(", "));
    let file = cache_file();
    let mut cache = file.as_deref().map(read_cache).unwrap_or_default();
    let cached = cache
        .get(&cpu)
        .and_then(|m| m.get(&class))
        .filter(|c| candidates.contains(&c.backend))
        .cloned();
    let choice = match cached {
        Some(mut c) => {
            c.source = "cached";
            c
        }
        None => {
            let times = time_backends(&candidates, class);
            let c = Choice {
                backend: fastest(&times).unwrap_or(candidates[0]),
                times_us: times
                    .iter()
                    .map(|(b, t)| (b.name().to_string(), t * 1e6))
                    .collect(),
                source: "measured",
            };
            if let Some(path) = &file {
                cache.entry(cpu).or_default().insert(class, c.clone());
                write_cache(path, &cache);
            }
            c
        }
    };
    chosen.push((class, choice.clone()));
    choice
}

/// Bits of the timed exponent: enough squarings and products to rank the backends, few
/// enough to keep the timing of an 8192-bit modulus within milliseconds.
const EXP_BITS: u32 = 96;

/// Seconds per exponentiation of each backend on a `bits`-bit modulus and an
/// [`EXP_BITS`]-bit exponent, the least of 5 interleaved runs each (after one to warm up).
fn time_backends(backends: &[Backend], bits: u32) -> Vec<(Backend, f64)> {
    let mut rng = rug::rand::RandState::new();
    rng.seed(&Integer::from(bits));
    let m = (Integer::from(Integer::random_bits(bits, &mut rng)) | 1u32)
        | (Integer::from(1) << (bits - 1));
    let base = Integer::from(Integer::random_below_ref(&m, &mut rng));
    let exp = Integer::from(Integer::random_bits(EXP_BITS, &mut rng));
    let contexts: Vec<(Backend, CtModulus)> = backends
        .iter()
        .filter_map(|&b| CtModulus::new(&m, b).ok().map(|c| (b, c)))
        .collect();
    let mut best = vec![f64::INFINITY; contexts.len()];
    for round in 0..6 {
        for (i, (_, ctx)) in contexts.iter().enumerate() {
            let start = Instant::now();
            std::hint::black_box(ctx.pow_bits(&base, &exp, EXP_BITS));
            let t = start.elapsed().as_secs_f64();
            if round > 0 {
                best[i] = best[i].min(t);
            }
        }
    }
    contexts.iter().map(|(b, _)| *b).zip(best).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fastest_wins_and_ties_go_to_the_first() {
        let times = [
            (Backend::Portable, 3.0),
            (Backend::Mulx, 1.0),
            (Backend::Ifma, 2.0),
        ];
        assert_eq!(fastest(&times), Some(Backend::Mulx));
        // Zen 4's case: IFMA slower than MULX at some size.
        assert_eq!(
            fastest(&[(Backend::Ifma, 5.0), (Backend::Mulx, 4.0)]),
            Some(Backend::Mulx)
        );
        assert_eq!(
            fastest(&[(Backend::Ifma, 1.0), (Backend::Mulx, 1.0)]),
            Some(Backend::Ifma)
        );
        assert_eq!(
            fastest(&[(Backend::Ifma, f64::NAN), (Backend::Portable, 9.0)]),
            Some(Backend::Portable)
        );
        assert_eq!(fastest(&[]), None);
    }

    #[test]
    fn within_the_margin_the_earlier_backend_stays() {
        let times = [(Backend::Ifma, 1.0), (Backend::Mulx, 0.97)];
        assert_eq!(fastest(&times), Some(Backend::Ifma));
        let times = [(Backend::Ifma, 1.0), (Backend::Mulx, 0.9)];
        assert_eq!(fastest(&times), Some(Backend::Mulx));
    }

    #[test]
    fn sizes_share_a_choice_by_512_bits() {
        assert_eq!(size_class(1024), 1024);
        assert_eq!(size_class(1000), 1024);
        assert_eq!(size_class(1025), 1536);
        assert_eq!(size_class(48), 512);
    }

    #[test]
    fn a_choice_is_an_available_backend_that_takes_the_size_and_says_why() {
        for bits in [256, 1024, 2048] {
            let c = choice_for(bits);
            assert!(
                c.backend.available() && c.backend.supports_bits(bits),
                "{c:?}"
            );
            let line = c.describe();
            assert!(line.starts_with(c.backend.name()), "{line}");
            // Asked again, the same answer (kept in the process).
            assert_eq!(choice_for(bits).backend, c.backend);
        }
    }

    #[test]
    fn a_choice_kept_for_a_class_is_rechecked_against_the_size() {
        // One 512-bit class, two sizes: IFMA takes 8318 bits, not 8330.
        assert_eq!(size_class(8318), size_class(8330));
        for bits in [8318, 8330, 8318] {
            let c = choice_for(bits);
            assert!(c.backend.supports_bits(bits), "{bits}: {c:?}");
        }
    }

    #[test]
    fn the_cache_file_round_trips_per_cpu_and_size() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("kernels.json");
        let mut cache = Cache::new();
        let c = Choice {
            backend: Backend::Portable,
            times_us: vec![("portable".into(), 12.5)],
            source: "measured",
        };
        cache
            .entry("cpu A".into())
            .or_default()
            .insert(1024, c.clone());
        write_cache(&path, &cache);
        let back = read_cache(&path);
        let got = &back["cpu A"][&1024];
        assert_eq!((got.backend, &got.times_us), (c.backend, &c.times_us));
        // A garbled file reads as empty, not as an error.
        std::fs::write(&path, b"{not json").unwrap();
        assert!(read_cache(&path).is_empty());
    }

    #[test]
    fn a_long_file_a_fifo_and_a_device_read_as_no_cache_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let long = dir.path().join("long.json");
        let mut text = b"{\"cpu\": {}}".to_vec();
        text.resize(MAX_CACHE_BYTES as usize + 1, b' ');
        std::fs::write(&long, &text).unwrap();
        assert!(read_cache(&long).is_empty());
        text.truncate(MAX_CACHE_BYTES as usize);
        std::fs::write(&long, &text).unwrap();
        assert!(read_cache(&long).contains_key("cpu"));
        #[cfg(unix)]
        {
            let zero = dir.path().join("zero.json");
            std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
            assert!(read_cache(&zero).is_empty());
            let fifo = dir.path().join("fifo.json");
            let made = std::process::Command::new("mkfifo").arg(&fifo).status();
            if made.is_ok_and(|s| s.success()) {
                // Opening it for reading would wait for a writer forever.
                assert!(read_cache(&fifo).is_empty());
            } else {
                eprintln!("the FIFO case skipped: no mkfifo");
            }
        }
    }

    #[test]
    fn an_empty_or_relative_cache_dir_is_off() {
        let os = |s: &str| Some(OsString::from(s));
        let file = |p, x, h| cache_file_from(p, x, h);
        for off in ["off", "", "cache", "./here", "../up"] {
            assert_eq!(file(os(off), os("/x"), os("/h")), None, "{off:?}");
        }
        assert_eq!(
            file(os("/c"), None, None),
            Some(PathBuf::from("/c/kernels.json"))
        );
        assert_eq!(
            file(None, os("rel"), os("/h")),
            Some(PathBuf::from("/h/.cache/parcrypt/kernels.json"))
        );
        assert_eq!(
            file(None, os("/x"), os("/h")),
            Some(PathBuf::from("/x/parcrypt/kernels.json"))
        );
        assert_eq!(file(None, os(""), os("")), None);
        assert_eq!(file(None, None, os("h")), None);
    }
}
