//! The table on disk: one file per layer, `GAME-NN.egtb` (`oware-12.egtb`) in the table's
//! folder, each with a header that names what it holds, so that a file of another variant,
//! rule version, entry format or layer, or a damaged one, is refused with a message that says
//! which.
//!
//! A file is the magic `AYOEGTB\0`, the header's length (u32, little-endian), the header (JSON:
//! [`Header`]), zero padding to a multiple of 64 bytes, then the entries in rank order
//! ([`Game::rank`]: the side, then the board), two bytes each (`lo`, `hi`, signed). The build
//! writes a layer to a temporary file and renames it when complete, so an interrupted build
//! resumes at the first layer missing.

use super::build::{build_layer, LayerStats};
use super::game::{Game, Node};
use super::Entry;
use crate::board::Pits;
use crate::variant::VariantState;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// The entry format of format 1: two signed bytes, the lower and the upper bound.
const ENTRY_FORMAT: &str = "lo-hi-i8";
const MAGIC: &[u8; 8] = b"AYOEGTB\0";
const ALIGN: usize = 64;

/// What a layer file says of itself.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Header {
    /// The rules ([`Game::rules_id`]: `oware@1`, `ayoayo@1`).
    pub rules: String,
    pub entry_format: String,
    pub seeds: u8,
    /// Entries in the layer: its boards times the states beside a board ([`Game::nodes`]).
    pub boards: u64,
    /// CRC-32 of the entries.
    pub crc32: u32,
    /// What the build found (exact entries, cycles, time, memory).
    pub stats: LayerStats,
}

/// Why a table could not be built, opened or used.
#[derive(Debug, Error)]
pub enum TablebaseError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: not an ayo endgame table (no `AYOEGTB` magic at its start)")]
    NotATable { path: PathBuf },
    #[error("{path}: {what} is {found}, expected {expected}")]
    Mismatch {
        path: PathBuf,
        what: &'static str,
        found: String,
        expected: String,
    },
    #[error("{path}: damaged: {why}")]
    Damaged { path: PathBuf, why: String },
    #[error("{dir}: no endgame table there (no {first})")]
    Empty { dir: PathBuf, first: String },
    #[error("the variant `{0}` has no endgame table (tables exist for oware@1 and ayoayo@1 with its default options)")]
    Variant(String),
    #[error("{dir} holds a table of {table}, not of {game}")]
    OtherGame {
        dir: PathBuf,
        table: &'static str,
        game: String,
    },
}

fn layer_path(dir: &Path, game: Game, seeds: usize) -> PathBuf {
    dir.join(format!("{}-{seeds:02}.egtb", game.name()))
}

/// The game of the table in `dir`: the one whose layer of 0 seeds is there.
fn game_in(dir: &Path) -> Option<Game> {
    Game::ALL
        .into_iter()
        .find(|&g| layer_path(dir, g, 0).exists())
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> TablebaseError + '_ {
    move |source| TablebaseError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// One layer's entries as bytes (`Entry` is two `i8`, `repr(C)`).
fn as_bytes(entries: &[Entry]) -> &[u8] {
    // SAFETY: Entry is repr(C) of two i8: no padding, every byte initialised, align 1.
    unsafe { std::slice::from_raw_parts(entries.as_ptr().cast::<u8>(), entries.len() * 2) }
}

fn write_layer(
    dir: &Path,
    game: Game,
    entries: &[Entry],
    stats: &LayerStats,
) -> Result<(), TablebaseError> {
    let data = as_bytes(entries);
    let header = Header {
        rules: game.rules_id().into(),
        entry_format: ENTRY_FORMAT.into(),
        seeds: stats.seeds,
        boards: entries.len() as u64,
        crc32: crc32fast::hash(data),
        stats: stats.clone(),
    };
    let json = serde_json::to_vec(&header).expect("a header serialises");
    let mut bytes = Vec::with_capacity(ALIGN * 2 + json.len() + data.len());
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&(json.len() as u32).to_le_bytes());
    bytes.extend_from_slice(&json);
    bytes.resize(bytes.len().next_multiple_of(ALIGN), 0);
    bytes.extend_from_slice(data);
    let path = layer_path(dir, game, stats.seeds as usize);
    let partial = path.with_extension("egtb.partial");
    std::fs::write(&partial, &bytes).map_err(io(&partial))?;
    std::fs::rename(&partial, &path).map_err(io(&path))
}

/// A layer file, mapped, its header checked.
struct Layer {
    map: memmap2::Mmap,
    start: usize,
    header: Header,
}

impl Layer {
    fn open(path: &Path, game: Game, seeds: usize) -> Result<Layer, TablebaseError> {
        let file = std::fs::File::open(path).map_err(io(path))?;
        // SAFETY: the table's files are written once, renamed into place, and not changed
        // while mapped (a table being rebuilt is written to another file first).
        let map = unsafe { memmap2::Mmap::map(&file) }.map_err(io(path))?;
        let damaged = |why: String| TablebaseError::Damaged {
            path: path.to_path_buf(),
            why,
        };
        if map.len() < 12 || &map[..8] != MAGIC {
            return Err(TablebaseError::NotATable {
                path: path.to_path_buf(),
            });
        }
        let len = u32::from_le_bytes(map[8..12].try_into().expect("4 bytes")) as usize;
        let json = map
            .get(12..12 + len)
            .ok_or_else(|| damaged(format!("its header runs past the end ({len} bytes)")))?;
        let header: Header = serde_json::from_slice(json)
            .map_err(|e| damaged(format!("its header does not read: {e}")))?;
        let mismatch = |what, found: String, expected: String| TablebaseError::Mismatch {
            path: path.to_path_buf(),
            what,
            found,
            expected,
        };
        if header.rules != game.rules_id() {
            return Err(mismatch("its rules", header.rules, game.rules_id().into()));
        }
        if header.entry_format != ENTRY_FORMAT {
            return Err(mismatch(
                "its entry format",
                header.entry_format,
                ENTRY_FORMAT.into(),
            ));
        }
        let boards = game.nodes(seeds);
        if header.seeds as usize != seeds || header.boards != boards {
            return Err(mismatch(
                "its layer",
                format!("{} seeds, {} boards", header.seeds, header.boards),
                format!("{seeds} seeds, {boards} boards"),
            ));
        }
        let start = (12 + len).next_multiple_of(ALIGN);
        if map.len() != start + 2 * boards as usize {
            return Err(damaged(format!(
                "{} bytes, expected {} ({boards} entries of 2 bytes after the header)",
                map.len(),
                start + 2 * boards as usize
            )));
        }
        let crc = crc32fast::hash(&map[start..]);
        if crc != header.crc32 {
            return Err(damaged(format!(
                "the entries' CRC-32 is {crc:08x}, its header says {:08x}",
                header.crc32
            )));
        }
        Ok(Layer { map, start, header })
    }

    /// Asks the processor to bring the entry of `rank` into its cache.
    #[inline]
    fn prefetch(&self, rank: u64) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a prefetch is a hint: it reads nothing and faults on no address.
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let at = self.map.as_ptr().add(self.start + 2 * rank as usize);
            _mm_prefetch(at.cast::<i8>(), _MM_HINT_T0);
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = rank;
    }

    #[inline]
    fn entry(&self, rank: u64) -> Entry {
        let at = self.start + 2 * rank as usize;
        Entry {
            lo: self.map[at] as i8,
            hi: self.map[at + 1] as i8,
        }
    }
}

/// An endgame table on disk: the layers of 0 … `max_seeds` seeds.
pub struct Tablebase {
    dir: PathBuf,
    game: Game,
    layers: Vec<Layer>,
}

impl std::fmt::Debug for Tablebase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tablebase")
            .field("dir", &self.dir)
            .field("game", &self.game)
            .field("max_seeds", &self.max_seeds())
            .finish()
    }
}

impl Tablebase {
    /// Opens the table in `dir`: its game is the one whose layer of 0 seeds is there; every
    /// layer from 0 seeds up to the first missing one, each checked (magic, rules, entry format,
    /// layer, size, CRC-32).
    pub fn open(dir: impl AsRef<Path>) -> Result<Tablebase, TablebaseError> {
        let dir = dir.as_ref().to_path_buf();
        let Some(game) = game_in(&dir) else {
            let first: Vec<String> = Game::ALL
                .iter()
                .map(|&g| layer_path(&dir, g, 0).display().to_string())
                .collect();
            return Err(TablebaseError::Empty {
                first: first.join(" or "),
                dir,
            });
        };
        let mut layers = Vec::new();
        while layer_path(&dir, game, layers.len()).exists() {
            let seeds = layers.len();
            layers.push(Layer::open(&layer_path(&dir, game, seeds), game, seeds)?);
        }
        Ok(Tablebase { dir, game, layers })
    }

    /// The game the table is of.
    pub fn game(&self) -> Game {
        self.game
    }

    /// Refuses a table of another game than `rules` (or of options it does not serve).
    pub fn check_variant(&self, rules: &crate::variant::Variant) -> Result<(), TablebaseError> {
        use crate::rules::Rules;
        match Game::of(rules) {
            Some(g) if g == self.game => Ok(()),
            Some(_) => Err(TablebaseError::OtherGame {
                dir: self.dir.clone(),
                table: self.game.rules_id(),
                game: rules.id(),
            }),
            None => Err(TablebaseError::Variant(rules.id())),
        }
    }

    /// The folder the table was opened from.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The most seeds a board in the table holds.
    pub fn max_seeds(&self) -> usize {
        self.layers.len() - 1
    }

    /// What the build found, layer by layer.
    pub fn stats(&self) -> Vec<LayerStats> {
        self.layers.iter().map(|l| l.header.stats.clone()).collect()
    }

    /// The entry of a node, if the table holds its layer.
    #[inline]
    pub fn probe_node(&self, node: &Node) -> Option<Entry> {
        let layer = self.layers.get(node.seeds())?;
        Some(layer.entry(self.game.rank(node)))
    }

    /// The entry of a board from its mover's view with nothing beside it ([`Node::board`]; in
    /// `ayoayo` both odu still available), if the table holds its layer.
    #[inline]
    pub fn probe_board(&self, pits: &Pits) -> Option<Entry> {
        self.probe_node(&Node::board(*pits))
    }

    /// The entries of many nodes (`Entry { lo: 1, hi: -1 }`, an empty interval, for one the
    /// table does not hold): ranks a batch, asks the memory for its entries, then reads them,
    /// so the reads overlap.
    pub fn probe_many(&self, nodes: &[Node], out: &mut [Entry]) {
        const BATCH: usize = 32;
        for (nodes, out) in nodes.chunks(BATCH).zip(out.chunks_mut(BATCH)) {
            let mut at = [(usize::MAX, 0u64); BATCH];
            for (slot, node) in at.iter_mut().zip(nodes) {
                let seeds = node.seeds();
                if let Some(layer) = self.layers.get(seeds) {
                    let rank = self.game.rank(node);
                    *slot = (seeds, rank);
                    layer.prefetch(rank);
                }
            }
            for (e, &(seeds, rank)) in out.iter_mut().zip(&at) {
                *e = match self.layers.get(seeds) {
                    Some(layer) => layer.entry(rank),
                    None => Entry { lo: 1, hi: -1 },
                };
            }
        }
    }

    /// The entry of a live game of the table's game, if the table holds its layer. The value
    /// is the game's where its repetition memory holds the position alone
    /// ([`super::memory_is_fresh`]); with a longer memory a repetition may end it otherwise.
    pub fn probe(&self, state: &VariantState) -> Option<Entry> {
        self.probe_node(&self.game.node_of(state)?)
    }
}

/// What [`build_tables`] reports as it goes.
pub enum BuildEvent<'a> {
    /// A layer found complete on disk and kept.
    Kept(&'a LayerStats),
    /// Building the layer of `seeds` seeds: `done` of `boards` boards valued.
    Progress {
        seeds: usize,
        done: u64,
        boards: u64,
    },
    /// A layer built and written.
    Built(&'a LayerStats),
}

/// Builds (or completes) the table of `game` of every position with at most `max_seeds` seeds
/// in `dir`, layer by layer; a layer already there and sound is kept, so an interrupted build
/// resumes. A folder that holds another game's table is refused.
pub fn build_tables(
    dir: &Path,
    game: Game,
    max_seeds: usize,
    mut report: impl FnMut(BuildEvent),
) -> Result<Vec<LayerStats>, TablebaseError> {
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    if let Some(other) = game_in(dir).filter(|&g| g != game) {
        return Err(TablebaseError::OtherGame {
            dir: dir.to_path_buf(),
            table: other.rules_id(),
            game: game.rules_id().into(),
        });
    }
    let mut done: Vec<Vec<Entry>> = Vec::new();
    let mut stats = Vec::new();
    for seeds in 0..=max_seeds {
        let path = layer_path(dir, game, seeds);
        if path.exists() {
            let layer = Layer::open(&path, game, seeds)?;
            let entries = (0..layer.header.boards).map(|r| layer.entry(r)).collect();
            report(BuildEvent::Kept(&layer.header.stats));
            stats.push(layer.header.stats.clone());
            done.push(entries);
            continue;
        }
        let (entries, layer) = build_layer(game, seeds, done.as_slice(), |d, b| {
            report(BuildEvent::Progress {
                seeds,
                done: d,
                boards: b,
            })
        });
        write_layer(dir, game, &entries, &layer)?;
        report(BuildEvent::Built(&layer));
        stats.push(layer);
        done.push(entries);
    }
    Ok(stats)
}
