//! Which CPU a run measured on, closely enough to tell two machines' verdicts apart: vendor,
//! family, model, stepping, the SIMD extensions the kernel reports, L1d per core and whether
//! logical CPUs share a core (SMT). It names the folder of the results archive by machine
//! (`results/machines/<key>/`, [`CpuId::key`]) and one line for people ([`CpuId::describe`]).
//!
//! Read from `/proc/cpuinfo` (x86 field names); anything missing stays empty or `None`, never
//! an error. Records written before it existed read with every field empty (`serde(default)`).
use serde::{Deserialize, Serialize};

/// The SIMD and arithmetic extensions recorded, in this order, when `/proc/cpuinfo` lists them.
pub const SIMD_FLAGS: &[&str] = &[
    "sse4_2",
    "avx",
    "avx2",
    "bmi2",
    "adx",
    "avx512f",
    "avx512bw",
    "avx512vl",
    "avx512ifma",
    "avx512vbmi2",
    "avx512_fp16",
    "amx_tile",
];

/// The CPU's identity as the kernel reports it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct CpuId {
    /// `AMD`, `Intel`, or the raw `vendor_id`; empty when unknown.
    pub vendor: String,
    /// "cpu family".
    pub family: Option<u32>,
    /// "model" (the number, not the name).
    pub model: Option<u32>,
    /// "stepping".
    pub stepping: Option<u32>,
    /// The extensions of [`SIMD_FLAGS`] present, in that order.
    pub simd: Vec<String>,
    /// L1 data cache per core in KiB ("L1d 48K" of CPU 0's caches).
    pub l1d_kib: Option<u32>,
    /// Whether logical CPUs share a core: "siblings" above "cpu cores"; `None` if not listed.
    pub smt: Option<bool>,
}

impl CpuId {
    /// Reads the identity from `/proc/cpuinfo`'s text and CPU 0's cache list (`"L1d 48K"`, ...).
    pub fn from_cpuinfo(cpuinfo: &str, caches: &[String]) -> Self {
        let field = |key: &str| {
            cpuinfo.lines().find_map(|line| {
                let (k, v) = line.split_once(':')?;
                (k.trim() == key).then(|| v.trim().to_string())
            })
        };
        let number = |key: &str| field(key).and_then(|v| v.parse::<u32>().ok());
        let vendor = match field("vendor_id").as_deref() {
            Some("AuthenticAMD") => "AMD".to_string(),
            Some("GenuineIntel") => "Intel".to_string(),
            Some(other) => other.to_string(),
            None => String::new(),
        };
        let flags = field("flags").unwrap_or_default();
        let present: Vec<&str> = flags.split_whitespace().collect();
        let simd = SIMD_FLAGS
            .iter()
            .filter(|f| present.contains(f))
            .map(|f| f.to_string())
            .collect();
        let smt = match (number("siblings"), number("cpu cores")) {
            (Some(s), Some(c)) if c > 0 => Some(s > c),
            _ => None,
        };
        Self {
            vendor,
            family: number("cpu family"),
            model: number("model"),
            stepping: number("stepping"),
            simd,
            l1d_kib: caches.iter().find_map(|c| l1d_kib(c)),
            smt,
        }
    }

    /// The archive folder's name, vendor-family-model: `amd-f25-m17`, `intel-f6-m167`;
    /// `None` when the vendor, family or model is unknown.
    pub fn key(&self) -> Option<String> {
        let vendor: String = self
            .vendor
            .to_ascii_lowercase()
            .chars()
            .filter(char::is_ascii_alphanumeric)
            .collect();
        match (vendor.is_empty(), self.family, self.model) {
            (false, Some(f), Some(m)) => Some(format!("{vendor}-f{f}-m{m}")),
            _ => None,
        }
    }

    /// One line for people: "AMD EPYC, family 25 model 17 stepping 1, AVX-512 IFMA, L1d 32 KiB,
    /// 2 logical CPUs, no SMT".
    pub fn describe(&self, cpu_model: &str, logical_cpus: usize) -> String {
        let mut parts = vec![cpu_model.to_string()];
        if let (Some(f), Some(m)) = (self.family, self.model) {
            let stepping = self
                .stepping
                .map_or(String::new(), |s| format!(" stepping {s}"));
            parts.push(format!("family {f} model {m}{stepping}"));
        }
        let has = |f: &str| self.simd.iter().any(|s| s == f);
        let widest = if has("avx512ifma") {
            Some("AVX-512 IFMA")
        } else if has("avx512f") {
            Some("AVX-512")
        } else if has("avx2") {
            Some("AVX2")
        } else {
            None
        };
        parts.extend(widest.map(str::to_string));
        parts.extend(self.l1d_kib.map(|k| format!("L1d {k} KiB")));
        parts.push(format!("{logical_cpus} logical CPUs"));
        parts.extend(
            self.smt
                .map(|s| if s { "SMT" } else { "no SMT" }.to_string()),
        );
        parts.join(", ")
    }
}

/// KiB of an `"L1d 48K"` cache entry; `None` for other entries.
fn l1d_kib(cache: &str) -> Option<u32> {
    let size = cache.strip_prefix("L1d ")?;
    if let Some(k) = size.strip_suffix('K') {
        k.parse().ok()
    } else {
        size.strip_suffix('M')?
            .parse::<u32>()
            .ok()
            .map(|m| m * 1024)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ZEN4: &str = "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\n\
        model\t\t: 17\nmodel name\t: AMD EPYC\nstepping\t: 1\nsiblings\t: 2\ncpu cores\t: 2\n\
        flags\t\t: fpu sse4_2 avx avx2 bmi2 adx avx512f avx512ifma avx512vl\n";

    #[test]
    fn identity_key_and_line_from_cpuinfo() {
        let id = CpuId::from_cpuinfo(ZEN4, &["L1d 32K".to_string(), "L2 1M".to_string()]);
        assert_eq!(id.vendor, "AMD");
        assert_eq!(
            (id.family, id.model, id.stepping),
            (Some(25), Some(17), Some(1))
        );
        assert_eq!(
            id.simd,
            [
                "sse4_2",
                "avx",
                "avx2",
                "bmi2",
                "adx",
                "avx512f",
                "avx512vl",
                "avx512ifma"
            ]
        );
        assert_eq!((id.l1d_kib, id.smt), (Some(32), Some(false)));
        assert_eq!(id.key().as_deref(), Some("amd-f25-m17"));
        assert_eq!(
            id.describe("AMD EPYC", 2),
            "AMD EPYC, family 25 model 17 stepping 1, AVX-512 IFMA, L1d 32 KiB, 2 logical CPUs, no SMT"
        );
        let ht = ZEN4
            .replace("AuthenticAMD", "GenuineIntel")
            .replace("siblings\t: 2", "siblings\t: 4");
        let id = CpuId::from_cpuinfo(&ht, &[]);
        assert_eq!((id.smt, id.l1d_kib), (Some(true), None));
        assert_eq!(id.key().as_deref(), Some("intel-f25-m17"));
    }

    #[test]
    fn nothing_known_reads_empty_and_old_records_still_read() {
        let id = CpuId::from_cpuinfo("", &[]);
        assert_eq!(id, CpuId::default());
        assert_eq!(id.key(), None);
        assert_eq!(id.describe("unknown", 1), "unknown, 1 logical CPUs");
        assert_eq!(serde_json::from_str::<CpuId>("{}").unwrap(), id);
        assert_eq!(l1d_kib("L1d 1M"), Some(1024));
        assert_eq!(l1d_kib("L2 1M"), None);
    }
}
