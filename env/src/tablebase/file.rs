//! The table on disk: one file per layer, `oware-NN.egtb` in the table's folder, each with a
//! header that names what it holds, so that a file of another variant, rule version, entry
//! format or layer, or a damaged one, is refused with a message that says which.
//!
//! A file is the magic `AYOEGTB\0`, the header's length (u32, little-endian), the header (JSON:
//! [`Header`]), zero padding to a multiple of 64 bytes, then the entries in rank order
//! ([`Index`]), two bytes each (`lo`, `hi`, signed). The build writes a layer to a temporary
//! file and renames it when complete, so an interrupted build resumes at the first layer missing.

use super::build::{build_layer, LayerStats};
use super::index::Index;
use super::{board_of, Entry};
use crate::board::Pits;
use crate::variant::VariantState;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// The rules a table is built for; a table of other rules is refused.
pub const RULES_ID: &str = "oware@1";
/// The entry format of format 1: two signed bytes, the lower and the upper bound.
const ENTRY_FORMAT: &str = "lo-hi-i8";
const MAGIC: &[u8; 8] = b"AYOEGTB\0";
const ALIGN: usize = 64;

/// What a layer file says of itself.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Header {
    /// The rules (`oware@1`). The start's seeds per pit (`oware:seeds=N`) change no move, so
    /// the table serves every such option.
    pub rules: String,
    pub entry_format: String,
    pub seeds: u8,
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
    #[error("the variant `{0}` has no endgame table (tables exist for oware@1)")]
    Variant(String),
}

fn layer_path(dir: &Path, seeds: usize) -> PathBuf {
    dir.join(format!("oware-{seeds:02}.egtb"))
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

fn write_layer(dir: &Path, entries: &[Entry], stats: &LayerStats) -> Result<(), TablebaseError> {
    let data = as_bytes(entries);
    let header = Header {
        rules: RULES_ID.into(),
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
    let path = layer_path(dir, stats.seeds as usize);
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
    fn open(path: &Path, seeds: usize) -> Result<Layer, TablebaseError> {
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
        if header.rules != RULES_ID {
            return Err(mismatch("its rules", header.rules, RULES_ID.into()));
        }
        if header.entry_format != ENTRY_FORMAT {
            return Err(mismatch(
                "its entry format",
                header.entry_format,
                ENTRY_FORMAT.into(),
            ));
        }
        let boards = Index::get().boards(seeds);
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
    layers: Vec<Layer>,
}

impl std::fmt::Debug for Tablebase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tablebase")
            .field("dir", &self.dir)
            .field("max_seeds", &self.max_seeds())
            .finish()
    }
}

impl Tablebase {
    /// Opens the table in `dir`: every layer from 0 seeds up to the first missing one, each
    /// checked (magic, rules, entry format, layer, size, CRC-32).
    pub fn open(dir: impl AsRef<Path>) -> Result<Tablebase, TablebaseError> {
        let dir = dir.as_ref().to_path_buf();
        let mut layers = Vec::new();
        while layer_path(&dir, layers.len()).exists() {
            layers.push(Layer::open(&layer_path(&dir, layers.len()), layers.len())?);
        }
        if layers.is_empty() {
            return Err(TablebaseError::Empty {
                first: layer_path(&dir, 0).display().to_string(),
                dir,
            });
        }
        Ok(Tablebase { dir, layers })
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

    /// The entry of a board from its mover's view, if the table holds its layer.
    #[inline]
    pub fn probe_board(&self, pits: &Pits) -> Option<Entry> {
        let seeds: usize = pits.iter().map(|&s| s as usize).sum();
        let layer = self.layers.get(seeds)?;
        Some(layer.entry(Index::get().rank(pits)))
    }

    /// The entries of many boards (each from its mover's view; `Entry { lo: 1, hi: -1 }`, an
    /// empty interval, for a board the table does not hold): ranks a batch, asks the memory for
    /// its entries, then reads them, so the reads overlap.
    pub fn probe_many(&self, boards: &[Pits], out: &mut [Entry]) {
        const BATCH: usize = 32;
        let index = Index::get();
        for (boards, out) in boards.chunks(BATCH).zip(out.chunks_mut(BATCH)) {
            let mut at = [(usize::MAX, 0u64); BATCH];
            for (slot, pits) in at.iter_mut().zip(boards) {
                let seeds: usize = pits.iter().map(|&s| s as usize).sum();
                if let Some(layer) = self.layers.get(seeds) {
                    let rank = index.rank(pits);
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

    /// The entry of a live game of `oware` (its mover's view), if the table holds its layer.
    /// The value is the game's where its repetition memory holds the position alone
    /// ([`super::memory_is_fresh`]); with a longer memory a repetition may end it otherwise.
    pub fn probe(&self, state: &VariantState) -> Option<Entry> {
        self.probe_board(&board_of(state)?)
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

/// Builds (or completes) the table of every board with at most `max_seeds` seeds in `dir`,
/// layer by layer; a layer already there and sound is kept, so an interrupted build resumes.
pub fn build_tables(
    dir: &Path,
    max_seeds: usize,
    mut report: impl FnMut(BuildEvent),
) -> Result<Vec<LayerStats>, TablebaseError> {
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    let mut done: Vec<Vec<Entry>> = Vec::new();
    let mut stats = Vec::new();
    for seeds in 0..=max_seeds {
        let path = layer_path(dir, seeds);
        if path.exists() {
            let layer = Layer::open(&path, seeds)?;
            let entries = (0..layer.header.boards).map(|r| layer.entry(r)).collect();
            report(BuildEvent::Kept(&layer.header.stats));
            stats.push(layer.header.stats.clone());
            done.push(entries);
            continue;
        }
        let (entries, layer) = build_layer(seeds, done.as_slice(), |d, b| {
            report(BuildEvent::Progress {
                seeds,
                done: d,
                boards: b,
            })
        });
        write_layer(dir, &entries, &layer)?;
        report(BuildEvent::Built(&layer));
        stats.push(layer);
        done.push(entries);
    }
    Ok(stats)
}
