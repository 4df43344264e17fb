//! The SCC's mesh and where the pipeline's stages sit on it: 24 tiles in a 6×4 mesh, two
//! cores per tile, cores numbered as the SCC's own headers do (`PID(x, y, z) = 2·(6y + x) + z`),
//! XY routing so a transfer crosses `|dx| + |dy|` routers (none between the two cores of a
//! tile).
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};

/// Tiles per mesh row.
pub const COLS: usize = 6;
/// Mesh rows.
pub const ROWS: usize = 4;
/// Cores per tile.
pub const CORES_PER_TILE: usize = 2;
/// Cores on the chip.
pub const CORES: usize = COLS * ROWS * CORES_PER_TILE;

/// A core's tile column, row and slot on the tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CoreXy {
    /// Column, 0..6.
    pub x: usize,
    /// Row, 0..4.
    pub y: usize,
    /// Core on the tile, 0 or 1.
    pub z: usize,
}

/// Column, row and slot of core `id` (an error for ids beyond the 48 cores).
pub fn coords(id: usize) -> Result<CoreXy> {
    if id >= CORES {
        return Err(Error::InvalidParameter(format!(
            "SCC core id {id} is out of range (0..{CORES})"
        )));
    }
    let tile = id / CORES_PER_TILE;
    Ok(CoreXy {
        x: tile % COLS,
        y: tile / COLS,
        z: id % CORES_PER_TILE,
    })
}

/// The core id at a tile column, row and slot.
pub fn core_id(x: usize, y: usize, z: usize) -> usize {
    CORES_PER_TILE * (COLS * y + x) + z
}

/// Routers crossed between two cores with XY routing (0 on the same tile).
pub fn hops(a: usize, b: usize) -> Result<usize> {
    let (a, b) = (coords(a)?, coords(b)?);
    Ok(a.x.abs_diff(b.x) + a.y.abs_diff(b.y))
}

/// How stages are given cores.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PlacementKind {
    /// Two stages per tile along a snake through the mesh (row 0 left to right, row 1 right
    /// to left, ...): neighbours are on one tile or one hop apart, as the seed says it placed
    /// them.
    Snake,
    /// Cores in id order (0, 1, 2, ...), as the seed's printed list runs (see [`PAPER_LIST`]):
    /// with the SCC's numbering, each row end (11→12, 23→24, ...) is a six-hop link.
    Row,
    /// An explicit list of core ids, one per stage.
    List(Vec<usize>),
}

/// The cores of the pipeline's stages, in stage order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Placement {
    /// How the cores were chosen.
    pub kind: PlacementKind,
    /// Core id of each stage.
    pub cores: Vec<usize>,
}

impl Placement {
    /// Places `stages` stages; an error when they do not fit the chip or the list is wrong.
    pub fn new(kind: PlacementKind, stages: usize) -> Result<Self> {
        if stages == 0 || stages > CORES {
            return Err(Error::InvalidParameter(format!(
                "{stages} stages cannot be placed on the SCC's {CORES} cores (one stage per core)"
            )));
        }
        let cores = match &kind {
            PlacementKind::Snake => snake().into_iter().take(stages).collect(),
            PlacementKind::Row => (0..stages).collect(),
            PlacementKind::List(list) => {
                if list.len() != stages {
                    return Err(Error::InvalidParameter(format!(
                        "core list has {} entries for {stages} stages",
                        list.len()
                    )));
                }
                list.clone()
            }
        };
        let mut seen = [false; CORES];
        for &c in &cores {
            coords(c)?;
            if std::mem::replace(&mut seen[c], true) {
                return Err(Error::InvalidParameter(format!(
                    "core {c} is given two stages"
                )));
            }
        }
        Ok(Self { kind, cores })
    }

    /// Hops of each link (stage i to stage i + 1).
    pub fn link_hops(&self) -> Vec<usize> {
        self.cores
            .windows(2)
            .map(|w| hops(w[0], w[1]).unwrap_or(0))
            .collect()
    }

    /// The longest link in hops.
    pub fn max_hops(&self) -> usize {
        self.link_hops().into_iter().max().unwrap_or(0)
    }
}

/// All 48 cores along the snake: both cores of a tile, then the next tile.
fn snake() -> Vec<usize> {
    let mut out = Vec::with_capacity(CORES);
    for y in 0..ROWS {
        for i in 0..COLS {
            let x = if y % 2 == 0 { i } else { COLS - 1 - i };
            out.extend((0..CORES_PER_TILE).map(|z| core_id(x, y, z)));
        }
    }
    out
}

/// The seed's printed order of cores (Section IV): "after Core 25, we send the data to Core 36,
/// 37, 38, 39, and then come back to Core 26, 27, 28, 29". It names 34 cores, not the 36 the
/// seed counts, and with the SCC's numbering two of its links (11→12, 23→24) are six hops,
/// not "maximum one hop"; the model therefore places stages along [`PlacementKind::Snake`].
pub const PAPER_LIST: [usize; 34] = [
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25,
    36, 37, 38, 39, 26, 27, 28, 29,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbering_and_hops_follow_the_scc_headers() {
        assert_eq!(coords(0).unwrap(), CoreXy { x: 0, y: 0, z: 0 });
        assert_eq!(coords(11).unwrap(), CoreXy { x: 5, y: 0, z: 1 });
        assert_eq!(coords(47).unwrap(), CoreXy { x: 5, y: 3, z: 1 });
        assert!(coords(48).is_err());
        for id in 0..CORES {
            let c = coords(id).unwrap();
            assert_eq!(core_id(c.x, c.y, c.z), id);
        }
        assert_eq!(hops(0, 1).unwrap(), 0);
        assert_eq!(hops(0, 47).unwrap(), 8);
        assert_eq!(hops(25, 36).unwrap(), 1);
    }

    #[test]
    fn snake_keeps_neighbours_within_one_hop() {
        for stages in [1, 2, 3, 36, 48] {
            let p = Placement::new(PlacementKind::Snake, stages).unwrap();
            assert_eq!(p.cores.len(), stages);
            assert!(p.max_hops() <= 1, "{stages}");
        }
        let p = Placement::new(PlacementKind::Snake, 36).unwrap();
        let one_hop = p.link_hops().iter().filter(|&&h| h == 1).count();
        assert_eq!(one_hop, 17, "18 tiles, 17 tile-to-tile links");
    }

    #[test]
    fn the_papers_list_has_34_cores_and_two_long_links() {
        let p = Placement::new(PlacementKind::List(PAPER_LIST.to_vec()), 34).unwrap();
        let hops = p.link_hops();
        assert_eq!(hops[11], 6, "core 11 (x5,y0) to 12 (x0,y1)");
        assert_eq!(hops[23], 6, "core 23 (x5,y1) to 24 (x0,y2)");
        assert_eq!(hops[25], 1, "core 25 (x0,y2) to 36 (x0,y3)");
        assert_eq!(hops.iter().filter(|&&h| h > 1).count(), 2);
        let row = Placement::new(PlacementKind::Row, 36).unwrap();
        assert_eq!(row.max_hops(), 6);
    }

    #[test]
    fn bad_placements_are_refused() {
        assert!(Placement::new(PlacementKind::Snake, 49).is_err());
        assert!(Placement::new(PlacementKind::Snake, 0).is_err());
        assert!(Placement::new(PlacementKind::List(vec![0, 0]), 2).is_err());
        assert!(Placement::new(PlacementKind::List(vec![0, 48]), 2).is_err());
        assert!(Placement::new(PlacementKind::List(vec![0, 1, 2]), 2).is_err());
        let p = Placement::new(PlacementKind::List(vec![0, 47]), 2).unwrap();
        assert_eq!(p.link_hops(), [8]);
    }
}
