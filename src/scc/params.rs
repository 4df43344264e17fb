//! The SCC model's parameters: every value with its unit and where it comes from (the seed
//! paper, a published source, a derivation, or an assumption with its reason), each one
//! readable and settable by name so the command line can override it and the sensitivity
//! sweep can vary it.
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};

/// One gibibyte, the bound of the buffer sizes.
const GIB: f64 = (1u64 << 30) as f64;

/// Where a parameter's value comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Basis {
    /// Printed in the seed paper (SCC Blowfish).
    Paper,
    /// Printed in a published source other than the seed (named in the source text).
    Published,
    /// Computed from paper or published figures (the computation is in the source text).
    Derived,
    /// No published value found: chosen, with the reason in the source text.
    Assumed,
    /// Set on the command line (or by the sensitivity sweep).
    Override,
}

impl Basis {
    /// Lower-case name used in tables.
    pub fn name(self) -> &'static str {
        match self {
            Basis::Paper => "paper",
            Basis::Published => "published",
            Basis::Derived => "derived",
            Basis::Assumed => "assumed",
            Basis::Override => "override",
        }
    }
}

/// One parameter of the model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ParamId {
    /// Active core clock, MHz.
    CoreMhz,
    /// Mesh (router) clock, MHz.
    MeshMhz,
    /// Router latency per hop, mesh cycles.
    HopCycles,
    /// Message-passing buffer per core, bytes.
    MpbBytes,
    /// Bytes of the per-core buffer RCCE keeps for itself (flags, write-combine line).
    MpbReservedBytes,
    /// Rate at which a core writes (puts) its own buffer, MB/s (10^6 B/s).
    MpbWriteMbps,
    /// Rate at which a core reads (gets) a neighbour's buffer, MB/s, before hop latency.
    MpbReadMbps,
    /// Flag handshake per buffer-sized transfer (sent flag, ready flag), µs.
    HandshakeUs,
    /// Blowfish cost on a P54C, core cycles per byte per round.
    BfCyclesPerByteRound,
    /// Work of the input and output stages, core cycles per byte.
    IoCyclesPerByte,
    /// Chip power with one active core (sequential run), W.
    SeqWatts,
    /// Chip power with the 36 pipeline cores active, W.
    PipeWatts,
}

impl ParamId {
    /// Every parameter, in the order tables list them.
    pub const ALL: [ParamId; 12] = [
        ParamId::CoreMhz,
        ParamId::MeshMhz,
        ParamId::HopCycles,
        ParamId::MpbBytes,
        ParamId::MpbReservedBytes,
        ParamId::MpbWriteMbps,
        ParamId::MpbReadMbps,
        ParamId::HandshakeUs,
        ParamId::BfCyclesPerByteRound,
        ParamId::IoCyclesPerByte,
        ParamId::SeqWatts,
        ParamId::PipeWatts,
    ];

    /// The name used in tables, JSON and the command line (`--core-mhz`, ...).
    pub fn name(self) -> &'static str {
        match self {
            ParamId::CoreMhz => "core-mhz",
            ParamId::MeshMhz => "mesh-mhz",
            ParamId::HopCycles => "hop-cycles",
            ParamId::MpbBytes => "mpb-bytes",
            ParamId::MpbReservedBytes => "mpb-reserved-bytes",
            ParamId::MpbWriteMbps => "mpb-write-mbps",
            ParamId::MpbReadMbps => "mpb-read-mbps",
            ParamId::HandshakeUs => "handshake-us",
            ParamId::BfCyclesPerByteRound => "bf-cycles-per-byte-round",
            ParamId::IoCyclesPerByte => "io-cycles-per-byte",
            ParamId::SeqWatts => "seq-watts",
            ParamId::PipeWatts => "pipe-watts",
        }
    }

    /// The unit of the value.
    pub fn unit(self) -> &'static str {
        match self {
            ParamId::CoreMhz | ParamId::MeshMhz => "MHz",
            ParamId::HopCycles => "mesh cycles",
            ParamId::MpbBytes | ParamId::MpbReservedBytes => "B",
            ParamId::MpbWriteMbps | ParamId::MpbReadMbps => "MB/s",
            ParamId::HandshakeUs => "µs",
            ParamId::BfCyclesPerByteRound | ParamId::IoCyclesPerByte => "cycles/B",
            ParamId::SeqWatts | ParamId::PipeWatts => "W",
        }
    }

    /// Whether zero is a meaningful value (work or reserve that may be absent).
    pub fn zero_allowed(self) -> bool {
        matches!(self, ParamId::IoCyclesPerByte | ParamId::MpbReservedBytes)
    }

    /// The largest value that still describes a chip (a buffer of at most 1 GiB, clocks of at
    /// most 100 GHz), if the parameter has such a bound.
    pub fn max(self) -> Option<(f64, &'static str)> {
        match self {
            ParamId::MpbBytes | ParamId::MpbReservedBytes => Some((GIB, "1 GiB")),
            ParamId::CoreMhz | ParamId::MeshMhz => Some((1e5, "100000 MHz")),
            _ => None,
        }
    }

    /// Looks a parameter up by its name.
    pub fn parse(name: &str) -> Result<ParamId> {
        ParamId::ALL
            .into_iter()
            .find(|p| p.name() == name)
            .ok_or_else(|| {
                let names: Vec<&str> = ParamId::ALL.iter().map(|p| p.name()).collect();
                Error::InvalidParameter(format!(
                    "unknown SCC parameter '{name}' (one of {})",
                    names.join(", ")
                ))
            })
    }
}

/// The seed's sequential time for 1 MB encrypted then decrypted on one 533 MHz core (Fig. 9).
pub const SEED_SEQUENTIAL_S: f64 = 1.904956;
/// Round operations of encrypt + decrypt: 17 + 17 (the seed's count, Section IV).
pub const SEED_ROUNDS: usize = 34;
/// The seed's message: 1 MB, read as 2^20 bytes (the seed writes its 8 KB chunk as 8192 bytes).
pub const SEED_MESSAGE_BYTES: usize = 1 << 20;

/// Cycles per byte per round implied by the seed's sequential time: 1.904956 s at 533 MHz over
/// 34 rounds of 2^20 bytes.
pub fn seed_cycles_per_byte_round() -> f64 {
    SEED_SEQUENTIAL_S * 533.0e6 / (SEED_ROUNDS as f64 * SEED_MESSAGE_BYTES as f64)
}

/// The parameters' values and, for each, its basis and source.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SccParams {
    values: Vec<(ParamId, f64, Basis)>,
}

/// One row of the parameter table (what `parcrypt scc` prints and writes).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ParamRow {
    /// Parameter name.
    pub name: String,
    /// Its value.
    pub value: f64,
    /// Its unit.
    pub unit: String,
    /// paper, published, derived, assumed or override.
    pub basis: Basis,
    /// Where the default comes from (kept when overridden, for reference).
    pub source: String,
}

impl Default for SccParams {
    fn default() -> Self {
        Self::as_in_paper()
    }
}

impl SccParams {
    /// The SCC as SCC Blowfish ran it, with every default's basis.
    pub fn as_in_paper() -> Self {
        use Basis::*;
        use ParamId::*;
        Self {
            values: vec![
                (CoreMhz, 533.0, Paper),
                (MeshMhz, 800.0, Assumed),
                (HopCycles, 4.0, Published),
                (MpbBytes, 8192.0, Published),
                (MpbReservedBytes, 64.0, Derived),
                (MpbWriteMbps, 400.0, Assumed),
                (MpbReadMbps, 200.0, Assumed),
                (HandshakeUs, 1.0, Assumed),
                (BfCyclesPerByteRound, seed_cycles_per_byte_round(), Derived),
                (IoCyclesPerByte, 0.0, Assumed),
                (SeqWatts, 20.56, Paper),
                (PipeWatts, 30.24, Paper),
            ],
        }
    }

    /// The value of a parameter.
    pub fn get(&self, id: ParamId) -> f64 {
        self.values
            .iter()
            .find(|(p, _, _)| *p == id)
            .map_or(f64::NAN, |(_, v, _)| *v)
    }

    /// The basis of a parameter's current value.
    pub fn basis(&self, id: ParamId) -> Basis {
        self.values
            .iter()
            .find(|(p, _, _)| *p == id)
            .map_or(Basis::Override, |(_, _, b)| *b)
    }

    /// Sets a parameter (marked as an override); refuses non-finite, negative, and zero
    /// values where zero makes no sense, and a reserve that leaves no room in the buffer.
    pub fn set(&mut self, id: ParamId, value: f64) -> Result<()> {
        let ok = value.is_finite() && (value > 0.0 || (value == 0.0 && id.zero_allowed()));
        if !ok {
            return Err(Error::InvalidParameter(format!(
                "--{} must be a {} number of {}, got {value}",
                id.name(),
                if id.zero_allowed() {
                    "non-negative"
                } else {
                    "positive"
                },
                id.unit()
            )));
        }
        if let Some((_, text)) = id.max().filter(|(max, _)| value > *max) {
            return Err(Error::InvalidParameter(format!(
                "--{} must be at most {text}, got {value}",
                id.name()
            )));
        }
        let mut next = self.clone();
        if let Some(slot) = next.values.iter_mut().find(|(p, _, _)| *p == id) {
            slot.1 = value;
            slot.2 = Basis::Override;
        }
        next.payload_bytes()?;
        *self = next;
        Ok(())
    }

    /// A copy with one parameter scaled by `factor` (for the sensitivity sweep).
    pub fn scaled(&self, id: ParamId, factor: f64) -> Result<Self> {
        let mut p = self.clone();
        p.set(id, self.get(id) * factor)?;
        Ok(p)
    }

    /// RCCE's cache line, bytes: the unit of every buffer access (RCCE_LINE_SIZE).
    pub const LINE_BYTES: usize = 32;

    /// Payload of one buffer-sized transfer: the per-core buffer less RCCE's reserve, in whole
    /// lines. An error if nothing is left.
    pub fn payload_bytes(&self) -> Result<usize> {
        let total = self.get(ParamId::MpbBytes) - self.get(ParamId::MpbReservedBytes);
        let lines = (total / Self::LINE_BYTES as f64).floor();
        if lines.is_nan() || lines < 1.0 {
            return Err(Error::InvalidParameter(format!(
                "--mpb-reserved-bytes ({}) leaves no whole {}-byte line of the {}-byte buffer",
                self.get(ParamId::MpbReservedBytes),
                Self::LINE_BYTES,
                self.get(ParamId::MpbBytes)
            )));
        }
        Ok(lines as usize * Self::LINE_BYTES)
    }

    /// Core clock in Hz.
    pub fn core_hz(&self) -> f64 {
        self.get(ParamId::CoreMhz) * 1e6
    }

    /// Mesh clock in Hz.
    pub fn mesh_hz(&self) -> f64 {
        self.get(ParamId::MeshMhz) * 1e6
    }

    /// Seconds one round takes per byte on one core.
    pub fn round_s_per_byte(&self) -> f64 {
        self.get(ParamId::BfCyclesPerByteRound) / self.core_hz()
    }

    /// The parameter table: value, unit, basis and source of each.
    pub fn rows(&self) -> Vec<ParamRow> {
        ParamId::ALL
            .into_iter()
            .map(|id| ParamRow {
                name: id.name().into(),
                value: self.get(id),
                unit: id.unit().into(),
                basis: self.basis(id),
                source: source(id).into(),
            })
            .collect()
    }
}

/// Where each default comes from. Sources named here were found and read; values no source
/// gave are marked assumed, with the reason.
pub fn source(id: ParamId) -> &'static str {
    match id {
        ParamId::CoreMhz => {
            "paper:scc-blowfish Section III/V: active cores at 533 MHz and 0.9 V (idle cores 100 MHz, 0.7 V)"
        }
        ParamId::MeshMhz => {
            "assumed: the paper does not give its mesh clock; 800 MHz is the mesh of Intel sccKit's \
             standard setting Tile533_Mesh800_DDR800 (the sccBmc -i example), the one that runs \
             tiles at 533 MHz. Howard et al. (IEEE JSSC 2011, 48-core IA-32 processor) give 2 GHz as the nominal mesh \
             clock at 1.1 V"
        }
        ParamId::HopCycles => {
            "published: 'A 2 Tb/s 6x4 Mesh Network for a Single-Chip Cloud Computer With DVFS in 45 \
             nm CMOS', IEEE JSSC 2011 (VLSI Symposium 2010 version: S. Kumar et al., 'A 2Tb/s 6x4 \
             mesh network with DVFS and 2.3Tb/s/W router in 45nm CMOS'): per-hop latency of 4 cycles, \
             16-byte links; a buffer read crosses the hops twice (request and reply)"
        }
        ParamId::MpbBytes => {
            "published: Howard et al., 'A 48-core IA-32 message-passing processor with DVFS in 45nm \
             CMOS', ISSCC 2010: 16 KB message-passing buffer per tile (384 KB on die), two cores per \
             tile; RCCE (RCCE.h) gives each core half, RCCE_BUFF_SIZE_MAX = 8 KiB"
        }
        ParamId::MpbReservedBytes => {
            "derived from RCCE's source (RCCE_admin.c, RCCE_init): one 32-byte line kept to fool the \
             write-combine buffer, and the flags (sent, ready, barrier per core + 1) allocated from \
             the same buffer, one 32-byte line for up to 256 single-bit flags (assumed: a \
             SINGLEBITFLAGS build; one line per flag would reserve 3.5 KB). So an 8192-byte chunk \
             takes two transfers"
        }
        ParamId::MpbWriteMbps => {
            "assumed: no published put rate found (the SCC EAS was not available here, of Mattson et \
             al. SC10 and van der Wijngaart et al. OSR 2011 only the abstracts); a P54C writing \
             32-byte lines through the write-combine buffer to its own tile, about 43 core cycles \
             per line"
        }
        ParamId::MpbReadMbps => {
            "assumed: no published get rate found (see mpb-write-mbps); the P54C has one \
             outstanding miss, so a remote read is about one 32-byte line per 85 core cycles, plus \
             the hop latency per line"
        }
        ParamId::HandshakeUs => {
            "assumed: RCCE's send/recv protocol (RCCE_send.c, RCCE_recv.c) per buffer-sized piece: \
             put, set the receiver's sent flag, receiver polls, gets, sets the sender's ready flag, \
             sender polls; two flag writes (with single-bit flags each takes the target's test-and-set lock, \
             gets the flag line, sets the bit and puts it back: RCCE_flags.c) and two polls, about \
             500 core cycles; no published figure found"
        }
        ParamId::BfCyclesPerByteRound => {
            "derived from paper:scc-blowfish Fig. 9: 1.904956 s x 533 MHz / (34 rounds x 2^20 B) = 28.48; \
             so the modelled sequential run equals the paper's"
        }
        ParamId::IoCyclesPerByte => {
            "assumed: the input and output cores only move data; their buffer writes and reads are \
             counted in the transfers"
        }
        ParamId::SeqWatts => {
            "paper:scc-blowfish-fig10: 20.56 W, one core at 533 MHz, the rest at 100 MHz"
        }
        ParamId::PipeWatts => {
            "paper:scc-blowfish-fig10: 30.24 W, 36 cores at 533 MHz, 12 at 100 MHz"
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_defaults_have_sources_and_the_derived_round_cost() {
        let p = SccParams::as_in_paper();
        assert!((p.get(ParamId::BfCyclesPerByteRound) - 28.478).abs() < 0.01);
        let seq = SEED_ROUNDS as f64 * SEED_MESSAGE_BYTES as f64 * p.round_s_per_byte();
        assert!((seq - SEED_SEQUENTIAL_S).abs() < 1e-9);
        assert_eq!(p.payload_bytes().unwrap(), 8128);
        let rows = p.rows();
        assert_eq!(rows.len(), ParamId::ALL.len());
        for r in &rows {
            assert!(!r.source.is_empty() && r.value.is_finite(), "{r:?}");
            let assumed = r.source.starts_with("assumed");
            assert_eq!(assumed, r.basis == Basis::Assumed, "{}", r.name);
        }
    }

    #[test]
    fn overrides_are_checked_and_marked() {
        let mut p = SccParams::as_in_paper();
        p.set(ParamId::HandshakeUs, 2.5).unwrap();
        assert_eq!(p.get(ParamId::HandshakeUs), 2.5);
        assert_eq!(p.basis(ParamId::HandshakeUs), Basis::Override);
        for bad in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            assert!(p.set(ParamId::CoreMhz, bad).is_err(), "{bad}");
        }
        p.set(ParamId::IoCyclesPerByte, 0.0).unwrap();
        assert!(p.set(ParamId::MpbReservedBytes, 8192.0).is_err());
        assert_eq!(
            p.get(ParamId::MpbReservedBytes),
            64.0,
            "refused value not kept"
        );
        assert_eq!(ParamId::parse("mesh-mhz").unwrap(), ParamId::MeshMhz);
        assert!(ParamId::parse("warp-factor").is_err());
        let half = p.scaled(ParamId::MeshMhz, 0.5).unwrap();
        assert_eq!(half.get(ParamId::MeshMhz), 400.0);
    }
}
