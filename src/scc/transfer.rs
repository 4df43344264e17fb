//! What one chunk costs to move between two neighbouring stages with RCCE's synchronous
//! send/recv, as its source does it (RCCE_send.c, RCCE_recv.c): the message goes in
//! buffer-sized pieces; for each piece the sender *puts* it into its own message-passing buffer,
//! sets the receiver's *sent* flag, the receiver *gets* it across the mesh into private memory
//! and sets the sender's *ready* flag. A remainder that is not a whole piece goes as one more
//! transfer of whole lines, and a remainder under one line as one more padded line. Both cores
//! are held for the whole exchange (the send is synchronous).
use super::params::{ParamId, SccParams};
use crate::error::Result;
use serde::{Deserialize, Serialize};

/// Time to move one chunk, split by what the time is spent on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TransferCost {
    /// Buffer-sized transfers (each with its own flag handshake).
    pub pieces: usize,
    /// Seconds the sender spends writing its buffer.
    pub put_s: f64,
    /// Seconds the receiver spends reading the sender's buffer (hop latency included).
    pub get_s: f64,
    /// Seconds of flag handshakes (both flags of every piece).
    pub handshake_s: f64,
}

impl TransferCost {
    /// Seconds both cores are held: put, get and handshakes in sequence.
    pub fn total_s(&self) -> f64 {
        self.put_s + self.get_s + self.handshake_s
    }

    /// Seconds moving data (put and get), handshakes excluded.
    pub fn data_s(&self) -> f64 {
        self.put_s + self.get_s
    }
}

/// The cost of sending `bytes` over a link of `hops` routers with parameters `p`.
pub fn transfer(p: &SccParams, bytes: usize, hops: usize) -> Result<TransferCost> {
    let line = SccParams::LINE_BYTES;
    let payload = p.payload_bytes()?;
    // Pieces in lines: full pieces, then the whole-line remainder, then a padded partial line.
    let mut pieces_lines = vec![payload / line; bytes / payload];
    let rest = bytes % payload;
    if rest / line > 0 {
        pieces_lines.push(rest / line);
    }
    if rest % line > 0 {
        pieces_lines.push(1);
    }
    let lines: usize = pieces_lines.iter().sum();
    let mesh_round_trip_s = 2.0 * hops as f64 * p.get(ParamId::HopCycles) / p.mesh_hz();
    let write_line_s = line as f64 / (p.get(ParamId::MpbWriteMbps) * 1e6);
    let read_line_s = line as f64 / (p.get(ParamId::MpbReadMbps) * 1e6) + mesh_round_trip_s;
    // Each piece: the fixed handshake, and two flag writes into the other core's buffer.
    let handshake_s = p.get(ParamId::HandshakeUs) * 1e-6 + 2.0 * mesh_round_trip_s;
    Ok(TransferCost {
        pieces: pieces_lines.len(),
        put_s: lines as f64 * write_line_s,
        get_s: lines as f64 * read_line_s,
        handshake_s: pieces_lines.len() as f64 * handshake_s,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_follow_rcce_splitting() {
        let p = SccParams::as_in_paper();
        let pieces = |b| transfer(&p, b, 1).unwrap().pieces;
        assert_eq!(pieces(0), 0);
        assert_eq!(pieces(8), 1, "a partial line");
        assert_eq!(pieces(32), 1);
        assert_eq!(pieces(40), 2, "a line, then a padded partial line");
        assert_eq!(pieces(8128), 1, "the payload exactly");
        assert_eq!(
            pieces(8192),
            2,
            "the seed's 8 KB chunk does not fit one buffer"
        );
        assert_eq!(pieces(65536), 9);
    }

    #[test]
    fn costs_scale_with_lines_hops_and_rates() {
        let p = SccParams::as_in_paper();
        let one = transfer(&p, 4096, 1).unwrap();
        let same_tile = transfer(&p, 4096, 0).unwrap();
        let far = transfer(&p, 4096, 6).unwrap();
        // 128 lines at 400 MB/s is 10.24 µs of put, at 200 MB/s 20.48 µs of get + hops.
        assert!((one.put_s - 10.24e-6).abs() < 1e-12);
        assert!((same_tile.get_s - 20.48e-6).abs() < 1e-12);
        let hop_rt = 2.0 * 4.0 / 800e6;
        assert!((one.get_s - same_tile.get_s - 128.0 * hop_rt).abs() < 1e-12);
        assert!(far.total_s() > one.total_s() && one.total_s() > same_tile.total_s());
        assert!((one.handshake_s - (1e-6 + 2.0 * hop_rt)).abs() < 1e-15);
        assert!((one.total_s() - one.data_s() - one.handshake_s).abs() < 1e-18);
        let mut fast = p.clone();
        fast.set(ParamId::MpbReadMbps, 400.0).unwrap();
        assert!(transfer(&fast, 4096, 1).unwrap().get_s < one.get_s);
    }
}
