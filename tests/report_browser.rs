//! The study's report in a real browser: report.html opened in headless Chromium must raise no
//! console or page error, load no resource (it is one self-contained file, so any request, failed
//! or not, is a defect), draw every chart and fit an 800 px wide window (long claims wrap instead
//! of pushing the page sideways); a full-page screenshot is saved under
//! target/report-browser/. Skipped, saying so on stderr, where no Chromium is installed (a
//! failure under CI, which installs it).
//!
//! By default the report is rendered from a small fixture with a chart of every kind; with
//! `PARCRYPT_REPORT_DIR=DIR` the test checks DIR/report.html instead (e.g. a real study's).
mod common;

use parcrypt::results::Chart;
use parcrypt::results::{
    ClaimResult, ExperimentResult, Kind, Ours, Point, Profile, Provenance, Reason, Rule, Series,
    StudyResults, Table, Verdict,
};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Chromium on PATH (or `PARCRYPT_CHROMIUM`), if any.
fn browser() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("PARCRYPT_CHROMIUM") {
        return Some(p.into());
    }
    let path = std::env::var_os("PATH")?;
    [
        "chromium",
        "chromium-browser",
        "google-chrome",
        "google-chrome-stable",
    ]
    .iter()
    .flat_map(|n| std::env::split_paths(&path).map(move |d| d.join(n)))
    .find(|p| p.is_file())
}

/// Records every console error, page error, failed resource, policy violation and request,
/// then writes them (and the page's height and charts) into attributes of `<html>`.
const PROBE: &str = r#"<script>
(() => {
  const seen = [];
  const error = console.error;
  console.error = (...a) => { seen.push('console.error: ' + a.join(' ')); error.apply(console, a); };
  addEventListener('error', e => seen.push('error: ' + (e.message || (e.target && (e.target.src || e.target.href)) || 'resource')), true);
  addEventListener('unhandledrejection', e => seen.push('unhandled rejection: ' + e.reason));
  addEventListener('securitypolicyviolation', e => seen.push('blocked by the policy: ' + e.blockedURI));
  addEventListener('load', () => setTimeout(() => {
    for (const r of performance.getEntriesByType('resource')) seen.push('request: ' + r.name);
    const svgs = [...document.querySelectorAll('.chart svg')];
    const drawn = svgs.filter(s => { const b = s.getBoundingClientRect(); return b.width > 100 && b.height > 100; });
    const root = document.documentElement;
    root.dataset.problems = JSON.stringify(seen);
    root.dataset.charts = svgs.length + '/' + drawn.length;
    root.dataset.height = root.scrollHeight;
    root.dataset.width = root.scrollWidth + '/' + innerWidth;
  }, 100));
})();
</script>"#;

fn fixture() -> StudyResults {
    let cats = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let ci = |x: f64, y: f64| Point::with_ci(x, y, y * 0.9, y * 1.1);
    let charts = vec![
        Chart::bar(
            "Thread activation (long names, values over decades)",
            "mechanism",
            "wake-up (µs)",
            cats(&[
                "condvar-other-core",
                "condvar-same-core",
                "spin-other-core",
                "lock-free",
            ]),
        )
        .with(Series::new(
            "measured",
            vec![ci(0.0, 40.0), ci(1.0, 25.0), ci(2.0, 2.0), ci(3.0, 0.05)],
            Provenance::Measured,
        )),
        Chart::line(
            "Karatsuba against GMP",
            "size (bits)",
            "time ratio (×)",
            true,
        )
        .with(Series::new(
            "kara-lockfree (ours)",
            (9..14)
                .map(|k| ci(2f64.powi(k), 100.0 / f64::from(k * k - 70)))
                .collect(),
            Provenance::Measured,
        ))
        .with(Series::from_xy(
            "kara-lockfree (paper, 3 threads)",
            [(1024.0, 0.9), (4096.0, 0.7)],
            Provenance::Paper,
        ))
        .reference("GMP", 1.0),
        Chart::line(
            "Pareto front: energy against time",
            "time (s)",
            "energy (J)",
            true,
        )
        .steps()
        .with(Series::from_xy(
            "arm-a9",
            [(0.031, 9.0), (0.04, 6.0), (0.07, 4.0)],
            Provenance::Modelled("DSE".into()),
        ))
        .with(Series::from_xy(
            "core-i7",
            [],
            Provenance::Modelled("DSE".into()),
        )),
        Chart::stacked(
            "Pipeline stages",
            "stage",
            "time (s)",
            cats(&["1", "2", "3"]),
        )
        .with(Series::from_xy(
            "busy",
            [(0.0, 2.0), (1.0, 2.5), (2.0, 1.0)],
            Provenance::Measured,
        ))
        .with(Series::from_xy(
            "wait",
            [(0.0, 0.5), (1.0, 0.2), (2.0, 1.4)],
            Provenance::Measured,
        ))
        .with(Series::from_xy(
            "send",
            [(0.0, 0.2), (1.0, 0.2), (2.0, 0.3)],
            Provenance::Measured,
        )),
        Chart::line("Speedup against threads", "threads", "speedup (×)", false)
            .with(Series::new(
                "PaRSA",
                vec![ci(1.0, 1.0), ci(2.0, 1.8), ci(4.0, 3.1)],
                Provenance::Measured,
            ))
            .with(Series::from_xy(
                "ideal",
                [(1.0, 1.0), (2.0, 2.0), (4.0, 4.0)],
                Provenance::Modelled("linear".into()),
            ))
            .reference("paper: 3.5 ×", 3.5)
            .note("Ideal: speedup equal to the thread count."),
    ];
    StudyResults {
        machine: parcrypt::bench::MachineInfo::detect(),
        profile: Profile::Quick,
        parcrypt_version: "fixture".into(),
        claims: vec![long_claim()],
        experiments: vec![ExperimentResult {
            id: "seed000-fixture".into(),
            seed: "seed000".into(),
            title: "Every kind of chart".into(),
            answers: "Fig. 0".into(),
            provenance: Provenance::Measured,
            summary: "A fixture for the browser test.".into(),
            table: Table::new(&["a"]),
            charts,
            quality: None,
            elapsed_s: 0.0,
        }],
        resumed: vec![],
        elapsed_s: 0.0,
    }
}

/// A claim with the long texts real ones have (a not-testable one with its figure beside).
fn long_claim() -> ClaimResult {
    let long = "needs 8 hardware threads; this machine has 2, so 8 threads here only time-share \
                them, and the figure beside is shown without deciding anything about the claim";
    ClaimResult {
        id: "seed000-fixture-claim".into(),
        seed: "seed000".into(),
        reference: "Fig. 10, Abstract".into(),
        claim: "1 → 8 threads makes PaRSA 79 % faster on the Core i7".into(),
        kind: Kind::Measured,
        model: None,
        verdict: Verdict::NotTestable,
        reason: Some(Reason::NeedsThreads(8)),
        paper_values: vec![79.0],
        // Unbreakable runs as real claims have (Table 9's four margins in one token).
        paper: "79 % (4 cores × 2 hardware threads); EM+368.5%,SM+251.2%,TDDB+59.26%,TC+333.3%,\
                EM+458.82%,SM+280.25%,TDDB+72.73%,TC+100.1%"
            .into(),
        ours: Ours {
            value: Some(49.38),
            ci_low: Some(49.12),
            ci_high: Some(49.8),
            unit: "%".into(),
            runs: 8,
            threads: 8,
            text: long.into(),
            parts: Vec::new(),
        },
        rule_data: Rule::AtLeast { min: 70.0 },
        rule: "time reduction 1 − t(8 threads) / t(1 thread), on 8 hardware threads".into(),
        tolerance: "79 ± 9 %".into(),
        why: long.into(),
        beside: Some(format!(
            "8 threads on 2 CPUs: 49.38 % [49.12, 49.8]; {long}"
        )),
        experiment: "seed000-fixture".into(),
    }
}

/// Runs `cmd` for at most 90 s; its stdout.
fn run(cmd: &mut Command) -> String {
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start Chromium");
    let mut out = child.stdout.take().expect("stdout");
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut out, &mut s).ok();
        s
    });
    let start = Instant::now();
    loop {
        if child.try_wait().expect("wait").is_some() {
            break;
        }
        if start.elapsed() > Duration::from_secs(90) {
            child.kill().ok();
            child.wait().ok();
            panic!("Chromium did not finish in 90 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    reader.join().expect("reader")
}

fn chromium(exe: &Path, profile: &Path) -> Command {
    let mut c = Command::new(exe);
    c.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-extensions",
        "--hide-scrollbars",
        // No name resolves: nothing can leave the machine even if the page asked.
        "--host-resolver-rules=MAP * ~NOTFOUND",
        "--virtual-time-budget=5000",
    ])
    .arg(format!("--user-data-dir={}", profile.display()));
    c
}

/// The value of attribute `name` of the dumped DOM's `<html>` element, unescaped.
fn attribute(dom: &str, name: &str) -> Option<String> {
    let start = dom.find(&format!("{name}=\""))? + name.len() + 2;
    let end = start + dom[start..].find('"')?;
    Some(
        dom[start..end]
            .replace("&quot;", "\"")
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&#39;", "'")
            .replace("&amp;", "&"),
    )
}

#[test]
fn report_opens_in_chromium_without_errors_or_requests() {
    let Some(exe) = browser() else {
        common::tool_missing("chromium", "Chromium", "report_browser");
        return;
    };
    let out = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/report-browser");
    std::fs::create_dir_all(&out).unwrap();
    let dir = match std::env::var_os("PARCRYPT_REPORT_DIR") {
        Some(d) => PathBuf::from(d),
        None => {
            let d = out.join("fixture");
            std::fs::create_dir_all(&d).unwrap();
            parcrypt::report::write(&fixture(), &d).unwrap();
            d
        }
    };
    let html = std::fs::read_to_string(dir.join("report.html")).unwrap();
    for needle in [" src=", "<link", "url(", "@import", "<script"] {
        assert!(
            !html.contains(needle),
            "report.html refers to something outside it: {needle}"
        );
    }
    // A copy with the probe.
    let probed = html.replacen("<head>", &format!("<head>{PROBE}"), 1);
    let probe_file = out.join("probe.html");
    std::fs::write(&probe_file, probed).unwrap();
    let profile = out.join("chromium-profile");
    let dom = run(chromium(&exe, &profile)
        .arg("--window-size=800,600")
        .arg("--dump-dom")
        .arg(&probe_file));
    let problems: Vec<String> =
        serde_json::from_str(&attribute(&dom, "data-problems").expect("the probe ran")).unwrap();
    assert!(
        problems.is_empty(),
        "report.html in Chromium: {problems:#?}"
    );
    let charts = attribute(&dom, "data-charts").unwrap();
    let (all, drawn) = charts.split_once('/').unwrap();
    assert_eq!(all, drawn, "charts drawn / present");
    assert_eq!(
        all.parse::<usize>().unwrap(),
        html.matches("<div class=\"chart\">").count()
    );
    let width = attribute(&dom, "data-width").unwrap();
    let (page, window) = width.split_once('/').unwrap();
    assert!(
        page.parse::<u32>().unwrap() <= window.parse::<u32>().unwrap(),
        "the page is wider than the window (page/window px: {width})"
    );
    let height: u32 = attribute(&dom, "data-height").unwrap().parse().unwrap();
    let shot = out.join("report.png");
    let _ = std::fs::remove_file(&shot);
    run(chromium(&exe, &profile)
        .arg(format!("--screenshot={}", shot.display()))
        .arg(format!("--window-size=1200,{}", height.clamp(600, 16000)))
        .arg(dir.join("report.html")));
    assert!(
        std::fs::metadata(&shot)
            .map(|m| m.len() > 10_000)
            .unwrap_or(false),
        "no screenshot"
    );
    eprintln!(
        "report_browser: {} charts, no errors, no requests; screenshot {}",
        all,
        shot.display()
    );
}
