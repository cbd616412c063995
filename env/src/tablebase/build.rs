//! Building a layer: every board of `n` seeds, by retrograde analysis over the layer's graph of
//! quiet moves (moves that capture nothing), in the order of its strongly connected components.
//!
//! A capture always falls into a smaller, finished layer, and restarts the repetition memory,
//! so a capture's worth is exact wherever the smaller layer's entry is. Quiet moves stay in the
//! layer. Tarjan's algorithm lists the layer's components so that a component comes after every
//! component it reaches; a component of one board is then valued from finished entries only.
//! A component with a cycle is where the repetition rule can end the game, and where the value
//! depends on the memory; there the build keeps bounds that hold for every memory and tightens
//! them to a fixpoint (docs/tablebase.md, "Semantics").

use super::index::{next_board, Index};
use super::{legal, play, terminal_value, Entry, Move};
use crate::board::{Pits, PITS};

/// What the build of one layer found.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct LayerStats {
    /// Seeds on the board.
    pub seeds: u8,
    /// Boards in the layer.
    pub boards: u64,
    /// Boards whose entry is exact.
    pub exact: u64,
    /// Boards on a cycle of quiet moves (a component of more than one board).
    pub on_cycles: u64,
    /// The components with a cycle, and the largest of them.
    pub cyclic_components: u64,
    pub largest_component: u64,
    /// Sweeps of the bound fixpoint, over all components.
    pub sweeps: u64,
    /// Wall seconds and the layer's working memory (bytes) during its build.
    pub seconds: f64,
    pub memory_bytes: u64,
}

/// The entries of the finished layers, by seeds.
pub trait Finished {
    fn entry(&self, pits: &Pits, seeds: usize) -> Entry;
}

impl Finished for [Vec<Entry>] {
    fn entry(&self, pits: &Pits, seeds: usize) -> Entry {
        self[seeds][Index::get().rank(pits) as usize]
    }
}

/// The worth of a move for its mover, as bounds: a capture of `taken` seeds into a position
/// worth `child` to the opponent is worth `taken − child`.
fn after_capture(taken: u8, child: Entry) -> (i32, i32) {
    (
        taken as i32 - child.hi as i32,
        taken as i32 - child.lo as i32,
    )
}

/// The bounds of a board's value (its mover's view, `pits` his row first) from its moves:
/// captures are valued from `lower`, quiet moves by `quiet` (the bounds of the move's worth to
/// the mover, given the child from its own mover's view). A board without a legal move ends
/// the game: each side keeps its own row.
fn evaluate(
    pits: &Pits,
    seeds: usize,
    lower: &(impl Finished + ?Sized),
    mut quiet: impl FnMut(&Pits) -> (i32, i32),
) -> Entry {
    let mask = legal(pits);
    if mask.is_empty() {
        let v = terminal_value(pits) as i8;
        return Entry { lo: v, hi: v };
    }
    let (mut lo, mut hi) = (i32::MIN, i32::MIN);
    for a in mask.iter() {
        let (l, h) = match play(pits, a) {
            Move::Capture { taken, pits: child } => {
                after_capture(taken, lower.entry(&child, seeds - taken as usize))
            }
            Move::Quiet { pits: child } => quiet(&child),
        };
        lo = lo.max(l);
        hi = hi.max(h);
    }
    Entry {
        lo: lo as i8,
        hi: hi as i8,
    }
}

/// The margin of the game ended by the repetition rule right after the move into `child`
/// (the child from its own mover's view), for the player who moved: his row minus the other's.
fn repetition_value(child: &Pits) -> i32 {
    -terminal_value(child)
}

const UNSEEN: u32 = u32::MAX;

/// Tarjan's depth-first walk over a layer: each board's discovery order and low link (after
/// its component is finished, `low` holds its place in the component), which boards are on the
/// stack of the components not yet finished, and the frames (a board, its pits, the next
/// action to follow).
struct Walk {
    order: Vec<u32>,
    low: Vec<u32>,
    on_stack: Vec<bool>,
    stack: Vec<u32>,
    frames: Vec<(u32, Pits, u8)>,
    next_order: u32,
}

impl Walk {
    /// Discovers the board `v` and starts following its moves.
    fn enter(&mut self, v: usize, pits: Pits) {
        self.order[v] = self.next_order;
        self.low[v] = self.next_order;
        self.next_order += 1;
        self.on_stack[v] = true;
        self.stack.push(v as u32);
        self.frames.push((v as u32, pits, 0));
    }
}

/// Builds the layer of `seeds` seeds from the finished smaller layers. `progress(done, all)`
/// is called now and then with the boards valued so far.
pub fn build_layer(
    seeds: usize,
    lower: &(impl Finished + ?Sized),
    mut progress: impl FnMut(u64, u64),
) -> (Vec<Entry>, LayerStats) {
    let started = std::time::Instant::now();
    let index = Index::get();
    let boards = index.boards(seeds);
    assert!(
        boards < UNSEEN as u64,
        "a layer of {seeds} seeds has too many boards for u32 ids"
    );
    let n = boards as usize;
    let mut entries = vec![Entry { lo: 0, hi: 0 }; n];
    let mut walk = Walk {
        order: vec![UNSEEN; n],
        low: vec![0u32; n],
        on_stack: vec![false; n],
        stack: Vec::new(),
        frames: Vec::new(),
        next_order: 0,
    };
    let mut stats = LayerStats {
        seeds: seeds as u8,
        boards,
        ..Default::default()
    };
    let mut component: Vec<u32> = Vec::new();
    let mut valued = 0u64;

    let mut root_pits = [0u8; PITS];
    root_pits[PITS - 1] = seeds as u8;
    let mut root = 0usize;
    loop {
        if walk.order[root] == UNSEEN {
            walk.enter(root, root_pits);
            while let Some(&mut (v, pits, ref mut next)) = walk.frames.last_mut() {
                let mask = legal(&pits);
                if let Some(a) = (*next..PITS as u8 / 2).find(|&a| mask.contains(a)) {
                    *next = a + 1;
                    let Move::Quiet { pits: child } = play(&pits, a) else {
                        continue;
                    };
                    let c = index.rank(&child) as usize;
                    if walk.order[c] == UNSEEN {
                        walk.enter(c, child);
                    } else if walk.on_stack[c] {
                        walk.low[v as usize] = walk.low[v as usize].min(walk.order[c]);
                    }
                    continue;
                }
                walk.frames.pop();
                let v = v as usize;
                if walk.low[v] == walk.order[v] {
                    component.clear();
                    loop {
                        let w = walk
                            .stack
                            .pop()
                            .expect("the component's boards are on the stack");
                        component.push(w);
                        if w as usize == v {
                            break;
                        }
                    }
                    value_component(
                        &component,
                        seeds,
                        lower,
                        &mut entries,
                        &mut walk.low,
                        &walk.on_stack,
                        &mut stats,
                    );
                    for &w in &component {
                        walk.on_stack[w as usize] = false;
                    }
                    valued += component.len() as u64;
                    if valued % (1 << 20) < component.len() as u64 {
                        progress(valued, boards);
                    }
                }
                if let Some(&(parent, _, _)) = walk.frames.last() {
                    let p = parent as usize;
                    walk.low[p] = walk.low[p].min(walk.low[v]);
                }
            }
        }
        root += 1;
        if !next_board(&mut root_pits) {
            break;
        }
    }
    progress(boards, boards);
    stats.exact = entries.iter().filter(|e| e.lo == e.hi).count() as u64;
    stats.seconds = started.elapsed().as_secs_f64();
    stats.memory_bytes = (n * (std::mem::size_of::<Entry>() + 4 + 4 + 1)
        + (walk.stack.capacity() + walk.frames.capacity() * 20)) as u64;
    (entries, stats)
}

/// Values one component. Every move out of it goes to a finished entry. A component of one
/// board is valued from those alone. In a component with a cycle, a quiet move to a board `y`
/// of the component ends the game by repetition if `y` is in the memory (worth `e(y)` to the
/// mover, [`repetition_value`]) and goes on otherwise. Bounds `I(x)` valid for **every** memory
/// come first: with every board of the component in the memory each such move is worth `e(y)`
/// exactly; with one board fewer in the memory, it is worth `e(y)` or the opposite of `I(y)`,
/// and so on. The intervals only widen from one step to the next and stop at a fixpoint, which
/// then holds for memories of any size. The entry (the memory holding the board alone) is
/// then searched `depth` plies with the memory along each line, `I` at the leaves.
fn value_component(
    component: &[u32],
    seeds: usize,
    lower: &(impl Finished + ?Sized),
    entries: &mut [Entry],
    place: &mut [u32],
    inside: &[bool],
    stats: &mut LayerStats,
) {
    let index = Index::get();
    if let [v] = *component {
        let pits = index.unrank(v as u64, seeds);
        entries[v as usize] = evaluate(&pits, seeds, lower, |child| outside(child, entries));
        return;
    }
    stats.on_cycles += component.len() as u64;
    stats.cyclic_components += 1;
    stats.largest_component = stats.largest_component.max(component.len() as u64);
    let boards: Vec<Pits> = component
        .iter()
        .enumerate()
        .map(|(i, &v)| {
            place[v as usize] = i as u32;
            index.unrank(v as u64, seeds)
        })
        .collect();
    let component_bounds = |child: &Pits, bounds: Option<&[Entry]>| {
        let c = index.rank(child) as usize;
        if !inside[c] {
            return None;
        }
        let e = repetition_value(child);
        Some(match bounds {
            None => (e, e),
            Some(b) => {
                let y = b[place[c] as usize];
                (e.min(-(y.hi as i32)), e.max(-(y.lo as i32)))
            }
        })
    };
    let mut bounds: Vec<Entry> = boards
        .iter()
        .map(|pits| {
            evaluate(pits, seeds, lower, |child| {
                component_bounds(child, None).unwrap_or_else(|| outside(child, entries))
            })
        })
        .collect();
    loop {
        stats.sweeps += 1;
        let mut changed = false;
        for (i, pits) in boards.iter().enumerate() {
            let new = evaluate(pits, seeds, lower, |child| {
                component_bounds(child, Some(&bounds)).unwrap_or_else(|| outside(child, entries))
            });
            let wider = Entry {
                lo: new.lo.min(bounds[i].lo),
                hi: new.hi.max(bounds[i].hi),
            };
            if wider != bounds[i] {
                bounds[i] = wider;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let mut line = Vec::new();
    for (i, pits) in boards.iter().enumerate() {
        line.clear();
        line.push(component[i]);
        let searched = Line {
            seeds,
            lower,
            entries,
            place,
            inside,
            bounds: &bounds,
        }
        .entry(pits, &mut line);
        entries[component[i] as usize] = Entry {
            lo: searched.lo.max(bounds[i].lo),
            hi: searched.hi.min(bounds[i].hi),
        };
    }
}

/// The depths the entry of a board on a cycle is searched to with its memory ([`Line`]), in
/// turn, and the nodes after which a search is not deepened again.
const LINE_DEPTHS: [u32; 4] = [2, 4, 6, 8];
const LINE_NODES: u64 = 1000;

/// The worth of a move out of the component: the opposite of the child's finished entry.
fn outside(child: &Pits, entries: &[Entry]) -> (i32, i32) {
    let e = entries[Index::get().rank(child) as usize];
    (-(e.hi as i32), -(e.lo as i32))
}

/// A move's worth to its mover, lower and upper, and the child (board, rank) still to search.
type Worth = (i32, i32, Option<(Pits, u32)>);

/// The search of a board's entry inside its component, the memory carried along the line:
/// a move to a board of the line ends the game by repetition, exactly; a move to another board
/// of the component goes on, to the depth; past it, a board counts by its bounds for every
/// memory.
struct Line<'a, F: Finished + ?Sized> {
    seeds: usize,
    lower: &'a F,
    entries: &'a [Entry],
    place: &'a [u32],
    inside: &'a [bool],
    bounds: &'a [Entry],
}

impl<F: Finished + ?Sized> Line<'_, F> {
    /// The entry of the board `pits`, the first of `line`: searched deeper and deeper until
    /// exact, or until a search passes [`LINE_NODES`].
    fn entry(&self, pits: &Pits, line: &mut Vec<u32>) -> Entry {
        let mut entry = Entry {
            lo: i8::MIN,
            hi: i8::MAX,
        };
        for depth in LINE_DEPTHS {
            let mut nodes = 0;
            entry = self.search(pits, line, depth, &mut nodes);
            if entry.is_exact() || nodes > LINE_NODES {
                break;
            }
        }
        entry
    }

    /// The bounds of the board `pits` (the last of `line`, the boards since the capture),
    /// `depth` plies deep (forced moves free).
    fn search(&self, pits: &Pits, line: &mut Vec<u32>, depth: u32, nodes: &mut u64) -> Entry {
        *nodes += 1;
        let index = Index::get();
        let mask = legal(pits);
        if mask.is_empty() {
            let v = terminal_value(pits) as i8;
            return Entry { lo: v, hi: v };
        }
        let forced = mask.count() == 1;
        // Each move's worth: final, or a bound for every memory with the child to search.
        let mut worth: [Worth; 6] = [(i32::MIN, i32::MIN, None); 6];
        for (slot, a) in worth.iter_mut().zip(mask.iter()) {
            *slot = match play(pits, a) {
                Move::Capture { taken, pits: child } => {
                    let (l, h) =
                        after_capture(taken, self.lower.entry(&child, self.seeds - taken as usize));
                    (l, h, None)
                }
                Move::Quiet { pits: child } => {
                    let c = index.rank(&child) as u32;
                    if !self.inside[c as usize] {
                        let (l, h) = outside(&child, self.entries);
                        (l, h, None)
                    } else if line.iter().rev().skip(1).step_by(2).any(|&b| b == c) {
                        // The same board with the same player to move: a repetition (the
                        // line's boards alternate movers, so only every other one can be it).
                        let e = repetition_value(&child);
                        (e, e, None)
                    } else {
                        let y = self.bounds[self.place[c as usize] as usize];
                        let deeper = (depth > 0 || forced) && y.lo != y.hi;
                        (-(y.hi as i32), -(y.lo as i32), deeper.then_some((child, c)))
                    }
                }
            };
        }
        let moves = &mut worth[..mask.count() as usize];
        // The most promising first; a move that cannot beat the best lower bound is not searched.
        moves.sort_unstable_by_key(|m| std::cmp::Reverse(m.1));
        let mut best_lo = moves.iter().map(|m| m.0).max().expect("a legal move");
        for m in moves.iter_mut() {
            let Some((child, c)) = m.2 else { continue };
            if m.1 <= best_lo {
                continue;
            }
            line.push(c);
            let y = self.search(&child, line, depth.saturating_sub(!forced as u32), nodes);
            line.pop();
            m.0 = m.0.max(-(y.hi as i32));
            m.1 = m.1.min(-(y.lo as i32));
            best_lo = best_lo.max(m.0);
        }
        Entry {
            lo: best_lo as i8,
            hi: moves.iter().map(|m| m.1).max().expect("a legal move") as i8,
        }
    }
}
