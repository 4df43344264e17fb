//! `parcrypt presets`: every processor preset with its cores, nodes, clocks or states, and
//! where its numbers come from.
use anyhow::Result;
use clap::Args;
use parcrypt_lab::energy::presets::{self, PRESET_NAMES, PowerBasis};
use serde::Serialize;
use std::path::PathBuf;

/// Arguments of `parcrypt presets`.
#[derive(Args, Debug)]
pub struct PresetsArgs {
    /// `this-machine` profile (TOML) to describe instead of the one found by default.
    #[arg(long)]
    profile: Option<PathBuf>,
    #[command(flatten)]
    out: super::output::ReportOpts,
}

/// One preset as listed.
#[derive(Serialize)]
struct Listed {
    name: String,
    seed: Option<String>,
    description: String,
    cores: usize,
    threads_per_core: usize,
    basis: &'static str,
    nodes_nm: Vec<u32>,
    default_node_nm: u32,
    frequencies_mhz: Vec<f64>,
    states: Vec<String>,
    caches: Vec<String>,
    notes: Vec<String>,
}

/// Runs `parcrypt presets`.
pub fn run(args: PresetsArgs) -> Result<()> {
    args.out.check(&[("--profile", args.profile.as_deref())])?;
    let mut listed = Vec::new();
    for name in PRESET_NAMES {
        let p = presets::preset(name, args.profile.as_deref())?;
        let node = p.default_node();
        let (basis, states) = match &p.power {
            PowerBasis::Table(_) => ("seed-000 table", Vec::new()),
            PowerBasis::Profile(pr) => (
                "profile",
                pr.states
                    .iter()
                    .map(|s| format!("{} {} MHz {} V", s.name, s.mhz, s.volts))
                    .collect(),
            ),
        };
        listed.push(Listed {
            name: p.name.clone(),
            seed: p.seed.clone(),
            description: p.description.clone(),
            cores: p.cores,
            threads_per_core: p.threads_per_core,
            basis,
            nodes_nm: p.nodes(),
            default_node_nm: node,
            frequencies_mhz: p.frequencies(node),
            states,
            caches: p.caches.clone(),
            notes: p.notes.clone(),
        });
    }
    args.out.emit(&listed, || text(&listed))
}

/// The presets for people.
fn text(listed: &[Listed]) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    for l in listed {
        let seed = l
            .seed
            .as_deref()
            .map(|s| format!("seed {s}"))
            .unwrap_or("detected".into());
        let _ = writeln!(
            out,
            "{:13} {:9} {} cores x {} threads, {}",
            l.name, seed, l.cores, l.threads_per_core, l.description
        );
        if l.states.is_empty() {
            let f: Vec<String> = l.frequencies_mhz.iter().map(|f| f.to_string()).collect();
            let _ = writeln!(
                out,
                "{:23} nodes {} nm; clocks {} MHz",
                "",
                join(&l.nodes_nm),
                f.join(", ")
            );
        } else {
            let _ = writeln!(
                out,
                "{:23} node {} nm; states {}",
                "",
                join(&l.nodes_nm),
                l.states.join("; ")
            );
        }
        for n in &l.notes {
            let _ = writeln!(out, "{:23} {n}", "");
        }
    }
    out
}

fn join(v: &[u32]) -> String {
    v.iter()
        .map(|n| n.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}
