//! PaRSA's McPAT power Tables 4-7 (embedded from `parsa_power_tables.csv` beside this file) and its
//! Table 8 energies, with Table 8 recomputed from the tables' powers and the paper's times.
//!
//! The data file keeps every cell as the seed's text prints it (the seed is an OCR of the
//! paper; the printed lines are in `crates/parcrypt-harness/tests/fixtures/parsa_tables4-7.txt`, and a test
//! compares them cell by cell), empty where the scan shows no number. A cell the models read
//! otherwise is listed in the row's `corrected` column with its kind and reason:
//! [`CorrectionKind::Illegible`] where the scan shows no clear number,
//! [`CorrectionKind::Slip`] where a legible number is a one-character transcription slip of
//! what the same table prints for the same quantity, and [`CorrectionKind::Inconsistent`] where
//! a legible number contradicts another of the paper's figures (each such contradiction is a
//! paper-check in the lab's PaRSA claims, and a defect of the paper). A row whose block
//! the scan garbles (its clocks cannot be matched to Table 1's) is marked `legible = none`.
//! [`PowerRow`] carries all of it: its value fields are the reading every model uses,
//! [`PowerRow::printed`] the cells as printed, [`PowerRow::legible`] the cells the
//! paper-checks on the tables' own consistency may read (the rest they set aside and count).
//!
//! Table 8 gives, for each PaRSA-n, the energy-optimal configuration with its time and energy;
//! energy = (dynamic + total leakage power) x time (the paper's Eq. 9). Section 5.3 also
//! gives Core i5 (22 nm, 2400 MHz) at 593.091 J and 31.11 s, which disagrees with Table 6:
//! (6.20 + 11.90) W x 31.11 s = 563.091 J, exactly 30 J less. The paper's own "35.5 % less
//! energy on Core i3" matches 563.091 J (35.45 %), not 593.091 J (38.72 %). Table 7 prints
//! 6.63 W at 22 nm and 2400 MHz, which makes Table 8's Core i7 row 343.3716 J instead of the
//! printed 341.5776 J. The lab's PaRSA energy experiment recomputes Table 8 from these rows and reports both
//! disagreements instead of hiding them.
use serde::Deserialize;
use std::sync::OnceLock;

use super::units::{MegaHertz, Nanometres, SquareMillimetres, Watts};

/// The CSV of Tables 4-7: 90 rows, one per (processor, node, frequency).
pub const POWER_TABLES_CSV: &str = include_str!("parsa_power_tables.csv");

/// The value columns of Tables 4-7, in the paper's column order (clock first).
pub const FIELDS: [&str; 7] = [
    "freq_mhz",
    "area_mm2",
    "p_dynamic_w",
    "p_leak_total_w",
    "p_leak_gate_w",
    "p_leak_subthreshold_w",
    "p_leak_subthreshold_pg_w",
];

/// Why a cell is read otherwise than printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CorrectionKind {
    /// The scan shows no clear number (a garbled or blank cell): the reading is reconstructed.
    Illegible,
    /// A legible number that is a one-character transcription slip of what the same table
    /// prints for the same quantity (one digit changed, two adjacent digits swapped, or a
    /// neighbouring row's cell repeated): the reading is the table's own value, and the
    /// paper-checks on the tables' own consistency set the cell aside.
    Slip,
    /// A legible number another of the paper's figures contradicts (another table, the
    /// text): a defect of the paper, kept for the paper-checks, each of which it fails.
    Inconsistent,
}

impl CorrectionKind {
    /// "illegible", "slip", "inconsistent".
    pub fn name(self) -> &'static str {
        match self {
            CorrectionKind::Illegible => "illegible",
            CorrectionKind::Slip => "slip",
            CorrectionKind::Inconsistent => "inconsistent",
        }
    }
}

/// Why a printed cell is not read by the paper-checks on the tables' own consistency.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SetAside {
    /// The scan shows no clear number (blank, or a reconstructed reading).
    Illegible,
    /// The row's block is garbled in the scan (`legible = none`).
    Garbled,
    /// A one-character transcription slip ([`CorrectionKind::Slip`]).
    Slip,
}

impl SetAside {
    /// "illegible", "garbled block", "slip".
    pub fn name(self) -> &'static str {
        match self {
            SetAside::Illegible => "illegible",
            SetAside::Garbled => "garbled block",
            SetAside::Slip => "slip",
        }
    }
}

/// A cell read otherwise than printed.
#[derive(Debug, Clone, PartialEq)]
pub struct Correction {
    /// The column ([`FIELDS`]).
    pub field: &'static str,
    /// The cell as printed (`None`: the scan shows no number).
    pub printed: Option<f64>,
    /// The value every model uses instead.
    pub reading: f64,
    /// Why.
    pub kind: CorrectionKind,
    /// The evidence, in a sentence.
    pub reason: String,
}

/// One row of Tables 4-7. The value fields are the reading every model uses: the printed
/// cell, or its correction where the row lists one.
#[derive(Debug, Clone, PartialEq)]
pub struct PowerRow {
    /// Processor key: `core2duo`, `core_i3`, `core_i5`, `core_i7`.
    pub processor: String,
    /// The paper's table number (4-7).
    pub table: u32,
    /// The workload the powers are for (PaRSA-n, n = the processor's hardware threads).
    pub workload: String,
    /// Process node.
    pub node_nm: Nanometres,
    /// Die area at this node.
    pub area_mm2: SquareMillimetres,
    /// Clock frequency.
    pub freq_mhz: MegaHertz,
    /// Dynamic power, every hardware thread busy.
    pub p_dynamic_w: Watts,
    /// Total leakage (gate + subthreshold).
    pub p_leak_total_w: Watts,
    /// Gate leakage.
    pub p_leak_gate_w: Watts,
    /// Subthreshold leakage.
    pub p_leak_subthreshold_w: Watts,
    /// Subthreshold leakage with power gating.
    pub p_leak_subthreshold_pg_w: Watts,
    /// For people: the cells read otherwise than printed, and why (empty when the row is
    /// read as printed).
    pub note: String,
    /// A remark on printed cells kept as they are (empty when none).
    pub remark: String,
    /// The cells as printed, in [`FIELDS`] order (`None`: the scan shows no number).
    pub printed: [Option<f64>; 7],
    /// The cells read otherwise than printed.
    pub corrections: Vec<Correction>,
    /// Whether the scan shows the row's block legibly (`false`: `legible = none`, its block
    /// is garbled and no cell of it is read as the paper's by the paper-checks).
    pub block_legible: bool,
    /// Why the block is not legible (empty when it is).
    pub legible_reason: String,
}

/// A row of the CSV as written.
#[derive(Debug, Deserialize)]
struct Record {
    processor: String,
    table: u32,
    workload: String,
    node_nm: Nanometres,
    area_mm2: Option<f64>,
    freq_mhz: Option<f64>,
    p_dynamic_w: Option<f64>,
    p_leak_total_w: Option<f64>,
    p_leak_gate_w: Option<f64>,
    p_leak_subthreshold_w: Option<f64>,
    p_leak_subthreshold_pg_w: Option<f64>,
    #[serde(default)]
    note: String,
    #[serde(default)]
    corrected: String,
    #[serde(default)]
    correction_kind: String,
    #[serde(default)]
    correction_reason: String,
    #[serde(default)]
    legible: String,
    #[serde(default)]
    legible_reason: String,
}

impl Record {
    fn printed(&self) -> [Option<f64>; 7] {
        [
            self.freq_mhz,
            self.area_mm2,
            self.p_dynamic_w,
            self.p_leak_total_w,
            self.p_leak_gate_w,
            self.p_leak_subthreshold_w,
            self.p_leak_subthreshold_pg_w,
        ]
    }

    /// The row with its corrections applied; an error names what is wrong with the record.
    fn read(self, line: usize) -> Result<PowerRow, String> {
        let at = |what: String| {
            format!("crates/parcrypt-harness/src/energy/parsa_power_tables.csv row {line}: {what}")
        };
        let printed = self.printed();
        let corrections = self.corrections(&printed, &at)?;
        let mut v = [0.0; 7];
        for (i, f) in FIELDS.iter().enumerate() {
            v[i] = corrections
                .iter()
                .find(|c| c.field == *f)
                .map(|c| c.reading)
                .or(printed[i])
                .ok_or_else(|| at(format!("{f} is blank and has no reading in 'corrected'")))?;
        }
        let note = correction_note(&corrections, &self.correction_reason);
        let block_legible = match self.legible.trim() {
            "" if self.legible_reason.trim().is_empty() => true,
            "none" if !self.legible_reason.trim().is_empty() => false,
            "" => return Err(at("a legible_reason without 'legible = none'".into())),
            "none" => return Err(at("'legible = none' without its reason".into())),
            other => {
                return Err(at(format!("legible '{other}' is neither empty nor 'none'")));
            }
        };
        Ok(PowerRow {
            processor: self.processor,
            table: self.table,
            workload: self.workload,
            node_nm: self.node_nm,
            freq_mhz: v[0],
            area_mm2: v[1],
            p_dynamic_w: v[2],
            p_leak_total_w: v[3],
            p_leak_gate_w: v[4],
            p_leak_subthreshold_w: v[5],
            p_leak_subthreshold_pg_w: v[6],
            note,
            remark: self.note,
            printed,
            corrections,
            block_legible,
            legible_reason: self.legible_reason,
        })
    }

    /// The cells the record corrects, checked against the `printed` cells; `at` words an
    /// error with the record's line.
    fn corrections(
        &self,
        printed: &[Option<f64>; 7],
        at: &dyn Fn(String) -> String,
    ) -> Result<Vec<Correction>, String> {
        if self.corrected.trim().is_empty() {
            if !self.correction_kind.is_empty() || !self.correction_reason.is_empty() {
                return Err(at(
                    "a correction kind or reason without a corrected value".into()
                ));
            }
            return Ok(Vec::new());
        }
        let pairs: Vec<&str> = self.corrected.split_whitespace().collect();
        let kinds = self.correction_kinds(pairs.len(), at)?;
        if self.correction_reason.trim().is_empty() {
            return Err(at("a correction without its reason".into()));
        }
        let mut corrections = Vec::new();
        for (n, pair) in pairs.iter().enumerate() {
            let kind = kinds[n.min(kinds.len() - 1)];
            let (name, value) = pair
                .split_once('=')
                .ok_or_else(|| at(format!("'{pair}' is not field=value")))?;
            let i = FIELDS
                .iter()
                .position(|f| *f == name)
                .ok_or_else(|| at(format!("'{name}' is not a value column")))?;
            let reading: f64 = value
                .parse()
                .map_err(|_| at(format!("'{value}' is not a number")))?;
            if kind != CorrectionKind::Illegible && printed[i].is_none() {
                return Err(at(format!(
                    "{name} is blank, so its correction is 'illegible', not '{}'",
                    kind.name()
                )));
            }
            if printed[i] == Some(reading) {
                return Err(at(format!("{name} is corrected to the value it prints")));
            }
            corrections.push(Correction {
                field: FIELDS[i],
                printed: printed[i],
                reading,
                kind,
                reason: self.correction_reason.clone(),
            });
        }
        Ok(corrections)
    }

    /// The kinds of the `cells` corrected cells: one for every cell, or one per cell in the
    /// same order.
    fn correction_kinds(
        &self,
        cells: usize,
        at: &dyn Fn(String) -> String,
    ) -> Result<Vec<CorrectionKind>, String> {
        let kind_of = |k: &str| match k {
            "illegible" => Ok(CorrectionKind::Illegible),
            "slip" => Ok(CorrectionKind::Slip),
            "inconsistent" => Ok(CorrectionKind::Inconsistent),
            k => Err(at(format!(
                "correction_kind '{k}' is not 'illegible', 'slip' or 'inconsistent'"
            ))),
        };
        let kinds = self
            .correction_kind
            .split_whitespace()
            .map(kind_of)
            .collect::<Result<Vec<_>, _>>()?;
        if kinds.is_empty() || (kinds.len() != 1 && kinds.len() != cells) {
            return Err(at(format!(
                "correction_kind '{}' gives neither one kind nor one per corrected cell",
                self.correction_kind
            )));
        }
        Ok(kinds)
    }
}

/// For people: the cells read otherwise than printed and `reason` (empty when none).
fn correction_note(corrections: &[Correction], reason: &str) -> String {
    if corrections.is_empty() {
        return String::new();
    }
    let cells = corrections
        .iter()
        .map(|c| {
            format!(
                "{} {} read as {} ({})",
                c.field,
                c.printed.map_or("blank".into(), |p| format!("printed {p}")),
                c.reading,
                c.kind.name()
            )
        })
        .collect::<Vec<_>>()
        .join(", ");
    format!("{cells}: {reason}")
}

/// Parses a CSV in the data file's format.
pub fn parse(csv_text: &str) -> Result<Vec<PowerRow>, String> {
    let mut reader = csv::ReaderBuilder::new()
        .comment(Some(b'#'))
        .from_reader(csv_text.as_bytes());
    reader
        .deserialize::<Record>()
        .enumerate()
        .map(|(i, r)| r.map_err(|e| e.to_string())?.read(i + 1))
        .collect()
}

impl PowerRow {
    /// Dynamic + total leakage, the power of Eq. 9 (the reading).
    pub fn p_total_w(&self) -> Watts {
        self.p_dynamic_w + self.p_leak_total_w
    }

    /// The cell of column `field` as printed (`None` when blank or not a column).
    pub fn printed(&self, field: &str) -> Option<f64> {
        FIELDS
            .iter()
            .position(|f| *f == field)
            .and_then(|i| self.printed[i])
    }

    /// The cell of `field` as printed where the scan is legible, else the reading of the
    /// illegible cell (the paper-checks use this: an inconsistent printed cell stays as
    /// printed, a garbled one has no printed value to check).
    pub fn as_printed(&self, field: &str) -> f64 {
        match self.correction(field) {
            Some(c) if c.kind == CorrectionKind::Illegible => c.reading,
            _ => self.printed(field).unwrap_or(f64::NAN),
        }
    }

    /// Dynamic + total leakage as printed (see [`PowerRow::as_printed`]).
    pub fn printed_total_w(&self) -> Watts {
        self.as_printed("p_dynamic_w") + self.as_printed("p_leak_total_w")
    }

    /// The correction of `field`, if the row has one.
    pub fn correction(&self, field: &str) -> Option<&Correction> {
        self.corrections.iter().find(|c| c.field == field)
    }

    /// Whether `field` is read as printed here (no correction of either kind).
    pub fn is_as_printed(&self, field: &str) -> bool {
        self.correction(field).is_none()
    }

    /// Whether the scan shows no clear number for `field` (an illegible correction).
    pub fn is_illegible(&self, field: &str) -> bool {
        self.correction(field)
            .is_some_and(|c| c.kind == CorrectionKind::Illegible)
    }

    /// Why the paper-checks on the tables' own consistency set `field` of this row aside
    /// (`None`: it is legible, read as printed; a cell another figure contradicts is legible).
    pub fn set_aside(&self, field: &str) -> Option<SetAside> {
        if !self.block_legible {
            return Some(SetAside::Garbled);
        }
        match self.correction(field).map(|c| c.kind) {
            Some(CorrectionKind::Illegible) => Some(SetAside::Illegible),
            Some(CorrectionKind::Slip) => Some(SetAside::Slip),
            _ if self.printed(field).is_none() => Some(SetAside::Illegible),
            _ => None,
        }
    }

    /// The cell of `field` as printed where it is legible (see [`PowerRow::set_aside`]),
    /// `None` where the paper-checks set it aside.
    pub fn legible(&self, field: &str) -> Option<f64> {
        match self.set_aside(field) {
            None => self.printed(field),
            Some(_) => None,
        }
    }

    /// The label of a value copied from this row: `paper:parsa-table-N`.
    pub fn source(&self) -> String {
        format!("paper:parsa-table-{}", self.table)
    }

    /// The row's note (its corrections), or `otherwise` when it has none.
    pub fn note_or<'a>(&'a self, otherwise: &'a str) -> &'a str {
        if self.note.is_empty() {
            otherwise
        } else {
            &self.note
        }
    }
}

/// Every row of Tables 4-7, parsed once.
pub fn power_rows() -> &'static [PowerRow] {
    static ROWS: OnceLock<Vec<PowerRow>> = OnceLock::new();
    ROWS.get_or_init(|| {
        parse(POWER_TABLES_CSV)
            .expect("crates/parcrypt-harness/src/energy/parsa_power_tables.csv is embedded and checked by a test")
    })
}

/// The rows of one processor (`core2duo`, `core_i3`, ...), in file order.
pub fn rows_of(processor: &str) -> Vec<&'static PowerRow> {
    power_rows()
        .iter()
        .filter(|r| r.processor == processor)
        .collect()
}

/// The row at (processor, node, frequency), if the tables have it.
pub fn row(processor: &str, node: Nanometres, mhz: MegaHertz) -> Option<&'static PowerRow> {
    power_rows()
        .iter()
        .find(|r| r.processor == processor && r.node_nm == node && (r.freq_mhz - mhz).abs() < 0.5)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The printed lines of Tables 4-7, copied from the seed's text.
    const PRINTED: &str = include_str!("../../tests/fixtures/parsa_tables4-7.txt");

    #[test]
    fn the_csv_has_the_90_rows_of_tables_4_to_7() {
        let rows = power_rows();
        assert_eq!(rows.len(), 90);
        let count = |p: &str| rows_of(p).len();
        // Core2Duo and Core i3: 5 nodes x 4 clocks; Core i5 and i7: 5 nodes x 5 clocks.
        assert_eq!(
            (
                count("core2duo"),
                count("core_i3"),
                count("core_i5"),
                count("core_i7")
            ),
            (20, 20, 25, 25)
        );
        // Every (processor, node) has the clocks of Table 1, in order, once read.
        for p in ["core2duo", "core_i3", "core_i5", "core_i7"] {
            for node in [90, 65, 45, 32, 22] {
                let f: Vec<f64> = rows_of(p)
                    .iter()
                    .filter(|r| r.node_nm == node)
                    .map(|r| r.freq_mhz)
                    .collect();
                assert!(f.windows(2).all(|w| w[0] < w[1]), "{p} {node}: {f:?}");
            }
        }
    }

    /// Every printed cell of the data file is the seed text's cell, blank where the text's
    /// cell is no number; a blank cell has an illegible reading, and an inconsistent
    /// correction a legible printed number.
    #[test]
    fn every_cell_of_the_data_file_is_the_seed_text_as_printed() {
        let mut blocks: Vec<(String, u32, Vec<&str>)> = Vec::new();
        for line in PRINTED
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
        {
            if let Some(head) = line.strip_prefix("@ ") {
                let (p, n) = head.split_once(' ').unwrap();
                blocks.push((p.into(), n.parse().unwrap(), Vec::new()));
            } else {
                blocks.last_mut().unwrap().2.push(line);
            }
        }
        assert_eq!(blocks.len(), 20);
        let mut cells = 0;
        for (p, node, lines) in &blocks {
            let rows: Vec<&PowerRow> = rows_of(p)
                .into_iter()
                .filter(|r| r.node_nm == *node)
                .collect();
            assert_eq!(rows.len(), lines.len(), "{p} {node} nm");
            for (r, line) in rows.iter().zip(lines) {
                let text: Vec<Option<f64>> = line
                    .split('\t')
                    .take(7)
                    .map(|c| c.trim().parse::<f64>().ok())
                    .collect();
                assert_eq!(text.len(), 7, "{line}");
                for (i, f) in FIELDS.iter().enumerate() {
                    assert_eq!(
                        r.printed[i], text[i],
                        "{p} {node} nm {} MHz {f}: '{line}'",
                        r.freq_mhz
                    );
                    cells += 1;
                    if r.printed[i].is_none() {
                        assert!(
                            r.is_illegible(f),
                            "{p} {node} nm {f} is blank without an illegible reading"
                        );
                    }
                }
                for c in &r.corrections {
                    assert!(!c.reason.is_empty());
                    assert!(c.kind == CorrectionKind::Illegible || c.printed.is_some());
                }
            }
        }
        assert_eq!(cells, 90 * 7);
        // The cells issue 19 found edited without a record are as printed now.
        let i7_45: Vec<&PowerRow> = rows_of("core_i7")
            .into_iter()
            .filter(|r| r.node_nm == 45)
            .collect();
        for r in &i7_45 {
            assert_eq!(r.printed("p_leak_total_w"), Some(22.01));
            assert!(r.is_as_printed("p_leak_total_w"));
        }
        assert_eq!(i7_45[0].area_mm2, 130.492);
        let top = row("core_i7", 22, 2400.0).unwrap();
        assert_eq!(top.printed("p_dynamic_w"), Some(6.63));
        assert_eq!(top.p_dynamic_w, 6.53);
        assert_eq!(
            top.correction("p_dynamic_w").unwrap().kind,
            CorrectionKind::Inconsistent
        );
    }

    /// A slip is what its name says: a one-character slip of the reading (one digit changed,
    /// two adjacent characters swapped) or the cell of a neighbouring row of the same block
    /// repeated; the garbled blocks are the two the scan garbles, whole.
    #[test]
    fn slips_are_one_character_slips_and_garbled_blocks_are_whole_blocks() {
        let one_char = |a: &str, b: &str| {
            let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
            if a.len() != b.len() {
                return false;
            }
            let diff: Vec<usize> = (0..a.len()).filter(|&i| a[i] != b[i]).collect();
            diff.len() == 1
                || (diff.len() == 2
                    && diff[1] == diff[0] + 1
                    && a[diff[0]] == b[diff[1]]
                    && a[diff[1]] == b[diff[0]])
        };
        let mut slips = 0;
        for p in ["core2duo", "core_i3", "core_i5", "core_i7"] {
            let rows = rows_of(p);
            for (i, r) in rows.iter().enumerate() {
                for c in r
                    .corrections
                    .iter()
                    .filter(|c| c.kind == CorrectionKind::Slip)
                {
                    slips += 1;
                    let printed = c.printed.expect("a slip is a printed number");
                    let neighbour = |j: Option<usize>| {
                        j.and_then(|j| rows.get(j))
                            .filter(|n| n.node_nm == r.node_nm)
                            .and_then(|n| n.printed(c.field))
                            == Some(printed)
                    };
                    assert!(
                        one_char(&format!("{printed}"), &format!("{}", c.reading))
                            || neighbour(i.checked_sub(1))
                            || neighbour(Some(i + 1)),
                        "{p} {} nm {} MHz {}: {printed} is no one-character slip of {}",
                        r.node_nm,
                        r.freq_mhz,
                        c.field,
                        c.reading
                    );
                    assert_eq!(r.set_aside(c.field), Some(SetAside::Slip));
                }
            }
        }
        assert_eq!(slips, 8, "3.59, 20.04, 4.27 and five rows of 28.11");
        let garbled: Vec<(String, u32)> = power_rows()
            .iter()
            .filter(|r| !r.block_legible)
            .map(|r| (r.processor.clone(), r.node_nm))
            .collect();
        assert_eq!(garbled.len(), 9, "{garbled:?}");
        for (p, node) in [("core2duo", 32), ("core_i7", 45)] {
            for r in rows_of(p).iter().filter(|r| r.node_nm == node) {
                assert!(!r.block_legible && !r.legible_reason.is_empty());
                assert!(FIELDS.iter().all(|f| r.legible(f).is_none()));
            }
        }
        // A cell another figure of the paper contradicts stays legible: Table 7's 6.63 W.
        let top = row("core_i7", 22, 2400.0).unwrap();
        assert_eq!(top.legible("p_dynamic_w"), Some(6.63));
        assert_eq!(top.set_aside("p_dynamic_w"), None);
    }

    #[test]
    fn a_record_that_breaks_the_format_is_refused_with_its_row() {
        let head = "processor,table,workload,node_nm,area_mm2,freq_mhz,p_dynamic_w,p_leak_total_w,p_leak_gate_w,p_leak_subthreshold_w,p_leak_subthreshold_pg_w,note,corrected,correction_kind,correction_reason,legible,legible_reason\n";
        let ok = "x,7,PaRSA-8,22,40.48,2400,6.63,12.51,0.02,12.49,6.22,,p_dynamic_w=6.53,inconsistent,why,,\n";
        assert_eq!(parse(&format!("{head}{ok}")).unwrap()[0].p_dynamic_w, 6.53);
        for (bad, says) in [
            (
                "x,7,P,22,40.48,2400,,12.51,0.02,12.49,6.22,,,,,,\n",
                "blank",
            ),
            (
                "x,7,P,22,40.48,2400,,12.51,0.02,12.49,6.22,,p_dynamic_w=6.53,inconsistent,why,,\n",
                "'illegible'",
            ),
            (
                "x,7,P,22,40.48,2400,6.63,12.51,0.02,12.49,6.22,,p_dynamic_w=6.53,misread,why,,\n",
                "correction_kind",
            ),
            (
                "x,7,P,22,40.48,2400,6.63,12.51,0.02,12.49,6.22,,p_dynamic_w=6.53,inconsistent,,,\n",
                "reason",
            ),
            (
                "x,7,P,22,40.48,2400,6.63,12.51,0.02,12.49,6.22,,p_dyn=6.53,inconsistent,why,,\n",
                "not a value column",
            ),
            (
                "x,7,P,22,40.48,2400,6.63,12.51,0.02,12.49,6.22,,p_dynamic_w=6.63,inconsistent,why,,\n",
                "the value it prints",
            ),
            (
                "x,7,P,22,40.48,2400,6.63,12.51,0.02,12.49,6.22,,p_dynamic_w=6.53 area_mm2=40.5,illegible inconsistent inconsistent,why,,\n",
                "one per corrected cell",
            ),
            (
                "x,7,P,22,40.48,2400,6.63,12.51,0.02,12.49,6.22,,,inconsistent,why,,\n",
                "without a corrected",
            ),
            (
                "x,7,P,22,40.48,2400,,12.51,0.02,12.49,6.22,,p_dynamic_w=6.53,slip,why,,\n",
                "'illegible'",
            ),
            (
                "x,7,P,22,40.48,2400,6.63,12.51,0.02,12.49,6.22,,,,,none,\n",
                "without its reason",
            ),
            (
                "x,7,P,22,40.48,2400,6.63,12.51,0.02,12.49,6.22,,,,,some,why\n",
                "neither empty nor 'none'",
            ),
            (
                "x,7,P,22,40.48,2400,6.63,12.51,0.02,12.49,6.22,,,,,,why\n",
                "legible_reason without",
            ),
        ] {
            let e = parse(&format!("{head}{ok}{bad}")).unwrap_err();
            assert!(e.contains("row 2") && e.contains(says), "{e}");
        }
    }
}
