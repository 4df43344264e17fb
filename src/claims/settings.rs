//! The setting of the judged claims whose registries do not state it beside the claim: for
//! each, whether its evidence is obtained at the paper's setting (or one that preserves it)
//! or at a scaled one, and then what differs. Only the paper's setting can refute
//! ([`crate::results::Reason::ScaledSetting`]). Claims that state it themselves
//! ([`super::Claim::paper_setting`], [`super::Claim::scaled`]) are not listed here; a test holds
//! that every measured and modelled claim has exactly one source for its setting.

/// The setting of one claim: `None` for the paper's, `Some(what differs)` for a scaled one.
pub type Entry = (&'static str, Option<&'static str>);

/// 2 threads for the paper's eight-core FX-8320 (the energy of parallel ciphers).
const FX_THREADS: &str = "2 threads on this machine against the paper's eight-core FX-8320: the parallel form's speed over the sequential one is shown at our scale only";

/// PaRSA's Fig. 6 and Fig. 5 grain and threads.
const FIG6: &str = "2 threads against the paper's 8 on the Core i7, and work items of 2048-bit CRT decryptions (about 0.45 ms each) against the paper's about 0.7 µs per message (Table 8: 200 M messages in 17.94 s on 8 threads); parsa-fig6-fine-* measure items of the paper's grain";

/// Every judged claim's setting that its registry does not state beside it.
pub const SETTINGS: &[Entry] = &[
    (
        "parsa-fig5-working-set",
        Some(
            "working sets of 50–250 messages (quick) or 1,000–5,000 (full) on 2 threads, against the paper's 100–500 million on 8",
        ),
    ),
    ("parsa-fig6-flat", Some(FIG6)),
    ("parsa-fig6-guided-best", Some(FIG6)),
    ("parsa-fig6-dynamic-worst", Some(FIG6)),
    ("parsa-parsa2", None),
    ("parsa-parsa4", None),
    ("parsa-parsa8", None),
    ("parsa-s41-threads-le-hw", None),
    ("parsa-tables4-7-first-principles", None),
    ("parsa-s53-best", None),
    ("scc-blowfish-s2-symmetric-faster", None),
    ("scc-blowfish-fig8-best-chunk", None),
    (
        "scc-blowfish-fig8-best-chunk-folded",
        Some(
            "the rounds folded into one stage group per logical CPU (2 groups sharing a cache) against the paper's 36 stages on 36 cores of the SCC's mesh",
        ),
    ),
    ("scc-blowfish-fig8-best-chunk-scc", None),
    ("scc-blowfish-sv-speedup", None),
    (
        "scc-blowfish-sv-speedup-folded",
        Some("2 stage groups on 2 CPUs against the paper's 36 cores of the SCC"),
    ),
    ("scc-blowfish-sv-speedup-scc", None),
    ("scc-blowfish-fig11-energy-scc", None),
    ("crsa-s2-coordinator-nc", None),
    ("crsa-s2-time-nc", None),
    ("crsa-pipeline-nc1", None),
    ("crsa-pipeline-nc2", None),
    ("crsa-s2-all-busy", None),
    ("crsa-s3-efficiency", None),
    ("crsa-s4-binary-counts", None),
    ("crsa-s4-hypercube-mulmods", None),
    ("crsa-table1-worst", None),
    ("crsa-table1-average", None),
    ("crsa-table1-vs-crt", None),
    ("crsa-table2-crt-1024", None),
    ("crsa-table2-crt-2048", None),
    ("crsa-table2-crt-4096", None),
    ("crsa-fig4b-more-pes", None),
    ("cipher-energy-speed-pblock-ecb", Some(FX_THREADS)),
    ("cipher-energy-speed-parc4", Some(FX_THREADS)),
    ("cipher-energy-speed-parc4i", Some(FX_THREADS)),
    ("cipher-energy-low-clock-pblock-ecb", None),
    ("cipher-energy-low-clock-parc4", None),
    ("cipher-energy-low-clock-parc4i", None),
    ("cipher-energy-default-energy-pblock-ecb", None),
    ("cipher-energy-default-energy-parc4", None),
    ("cipher-energy-default-energy-parc4i", None),
    ("cipher-energy-rc4a-faster", None),
    (
        "cipher-energy-stream-faster",
        Some(
            "our implementations decide it: Blowfish interleaved over 8 blocks against byte-serial RC4 and RC4A, each as fast as we made it; the paper's implementations are not given, so which cipher family is faster is shown for ours only",
        ),
    ),
    ("cipher-energy-same-performance", None),
    ("cipher-energy-low-clock-energy-up", None),
    ("cipher-energy-s2-uniprocessor-low-clock", None),
];

/// Root causes scored by several claims of any kind (measured, modelled, paper-check): each
/// root is one finding, and the report lists the claims it touches. A paper-check's defect is
/// its root unless it is listed here under a wider one.
pub const ROOTS: &[(&str, &[&str])] = &[
    // CRSA's coordinator runs a chain of about 1.5·k MulMods while a PE does 0–3: it, not
    // the hypercube, sets the time and the pipelined pace at any Nc.
    (
        "crsa-coordinator-chain",
        &[
            "crsa-s2-time-nc",
            "crsa-pipeline-nc1",
            "crsa-pipeline-nc2",
            "crsa-s2-throughput-nc",
            "crsa-s2-level-times",
            "crsa-fig4a-two-cubes",
            "crsa-fig4b-more-pes",
            "crsa-table1-average",
        ],
    ),
    // The paper's own per-PE counts leave PEs 0 and 2 without a MulMod.
    ("idle-pes", &["crsa-s2-all-busy", "crsa-s2-idle-pes"]),
    // The paper never states what a PE multiplies.
    (
        "crsa-dataflow-unstated",
        &["crsa-s4-x", "crsa-s4-hypercube-time"],
    ),
    // CRT on half-size operands is faster than binary, against Table 2's CRT column.
    (
        "crsa-crt-faster-than-binary",
        &[
            "crsa-table2-crt-1024",
            "crsa-table2-crt-2048",
            "crsa-table2-crt-4096",
            "crsa-table1-vs-crt",
        ],
    ),
    // One 2-thread measurement of the lock-free helpers, judged for three machines.
    (
        "mary-karatsuba-kara2-lockfree-at-2-threads",
        &[
            "mary-karatsuba-kara2-lockfree-i7",
            "mary-karatsuba-kara2-lockfree-e5",
            "mary-karatsuba-kara2-lockfree-6800k",
        ],
    ),
    // Fig. 6's schedules compared on work items a thousand times the paper's grain.
    (
        "parsa-fig6-grain",
        &[
            "parsa-fig6-flat",
            "parsa-fig6-guided-best",
            "parsa-fig6-dynamic-worst",
        ],
    ),
];

/// Applies [`SETTINGS`] and [`ROOTS`] to `claims`.
pub fn apply(claims: &mut [super::Claim]) {
    for c in claims.iter_mut() {
        if let Some((root, _)) = ROOTS.iter().find(|(_, ids)| ids.contains(&c.id.as_str())) {
            c.root = Some(root);
        }
        if let Some((_, differs)) = SETTINGS.iter().find(|(id, _)| *id == c.id) {
            *c = match differs {
                None => c.clone().paper_setting(),
                Some(d) => c.clone().scaled(*d),
            };
        }
    }
}
