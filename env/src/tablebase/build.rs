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

use super::game::{rows_margin, Game, Move, Node, Turn};
use super::index::next_board;
use super::Entry;
use crate::board::PITS;
use rayon::prelude::*;

/// What the build of one layer found.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct LayerStats {
    /// Seeds on the board.
    pub seeds: u8,
    /// Entries in the layer (boards times the states beside a board).
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
    /// Boards on cycles whose value retrograde analysis proves without repetition
    /// (`build::resolve`; the others are searched along their lines).
    #[serde(default)]
    pub resolved: u64,
    /// Wall seconds and the layer's working memory (bytes) during its build.
    pub seconds: f64,
    pub memory_bytes: u64,
}

/// The entries of the finished layers, by seeds.
pub trait Finished: Sync {
    fn entry(&self, game: Game, node: &Node, seeds: usize) -> Entry;
}

impl Finished for [Vec<Entry>] {
    fn entry(&self, game: Game, node: &Node, seeds: usize) -> Entry {
        self[seeds][game.rank(node) as usize]
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

/// The bounds of a node's value from its moves: captures are valued from `lower`, quiet moves
/// by `quiet` (the bounds of the move's worth to the mover, given the child). A node where the
/// game is over is worth its margin.
fn evaluate(
    game: Game,
    node: &Node,
    seeds: usize,
    lower: &(impl Finished + ?Sized),
    mut quiet: impl FnMut(&Node) -> (i32, i32),
) -> Entry {
    let mask = match game.turn(node) {
        Turn::Over(v) => return Entry::exact(v),
        Turn::Moves(mask) => mask,
    };
    let (mut lo, mut hi) = (i32::MIN, i32::MIN);
    for a in mask.iter() {
        let (l, h) = match game.play(node, a) {
            Move::Capture { taken, node: child } => {
                after_capture(taken, lower.entry(game, &child, seeds - taken as usize))
            }
            Move::Quiet { node: child } => quiet(&child),
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
fn repetition_value(child: &Node) -> i32 {
    -rows_margin(&child.pits)
}

const UNSEEN: u32 = u32::MAX;

/// Tarjan's depth-first walk over a layer: each board's discovery order and low link (after
/// its component is finished, `low` holds its place in the component), which boards are on the
/// stack of the components not yet finished, and the frames (a node, its rank, the next
/// action to follow).
struct Walk {
    order: Vec<u32>,
    low: Vec<u32>,
    on_stack: Vec<bool>,
    stack: Vec<u32>,
    frames: Vec<(u32, Node, u8)>,
    next_order: u32,
}

impl Walk {
    /// Discovers the node `v` and starts following its moves.
    fn enter(&mut self, v: usize, node: Node) {
        self.order[v] = self.next_order;
        self.low[v] = self.next_order;
        self.next_order += 1;
        self.on_stack[v] = true;
        self.stack.push(v as u32);
        self.frames.push((v as u32, node, 0));
    }
}

/// Builds the layer of `seeds` seeds of `game` from the finished smaller layers.
/// `progress(done, all)` is called now and then with the nodes valued so far.
pub fn build_layer(
    game: Game,
    seeds: usize,
    lower: &(impl Finished + ?Sized),
    mut progress: impl FnMut(u64, u64),
) -> (Vec<Entry>, LayerStats) {
    let started = std::time::Instant::now();
    let boards = game.nodes(seeds);
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

    let mut root_node = Node {
        pits: [0u8; PITS],
        side: 0,
    };
    root_node.pits[PITS - 1] = seeds as u8;
    let mut root = 0usize;
    loop {
        if walk.order[root] == UNSEEN {
            walk.enter(root, root_node);
            while let Some(&mut (v, node, ref mut next)) = walk.frames.last_mut() {
                let mask = game.legal(&node);
                if let Some(a) = (*next..game.actions()).find(|&a| mask.contains(a)) {
                    *next = a + 1;
                    let Move::Quiet { node: child } = game.play(&node, a) else {
                        continue;
                    };
                    let c = game.rank(&child) as usize;
                    if walk.order[c] == UNSEEN {
                        walk.enter(c, child);
                    } else if walk.on_stack[c] {
                        walk.low[v as usize] = walk.low[v as usize].min(walk.order[c]);
                    }
                    continue;
                }
                walk.frames.pop();
                let v = v as usize;
                if walk.low[v] != walk.order[v] {
                    // Not the root of its component: its parent reaches what it reaches.
                    let &(parent, _, _) = walk.frames.last().expect("a root ends every walk");
                    let p = parent as usize;
                    walk.low[p] = walk.low[p].min(walk.low[v]);
                } else {
                    // The root of a component: the boards above it on the stack. (Its parent's
                    // low link needs nothing from it, and `low` now holds places.)
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
                        game,
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
            }
        }
        root += 1;
        if !next_board(&mut root_node.pits) {
            if root_node.side + 1 == game.sides() {
                break;
            }
            root_node.side += 1;
            root_node.pits = [0u8; PITS];
            root_node.pits[PITS - 1] = seeds as u8;
        }
    }
    assert!(walk.stack.is_empty(), "every board of the layer is valued");
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
/// then the value retrograde analysis proves without repetition ([`resolve`]), or else
/// searched `depth` plies with the memory along each line, `I` at the leaves.
fn value_component(
    game: Game,
    component: &[u32],
    seeds: usize,
    lower: &(impl Finished + ?Sized),
    entries: &mut [Entry],
    place: &mut [u32],
    inside: &[bool],
    stats: &mut LayerStats,
) {
    if let [v] = *component {
        let node = game.unrank(v as u64, seeds);
        entries[v as usize] = evaluate(game, &node, seeds, lower, |child| {
            outside(game, child, entries)
        });
        return;
    }
    stats.on_cycles += component.len() as u64;
    stats.cyclic_components += 1;
    stats.largest_component = stats.largest_component.max(component.len() as u64);
    let nodes: Vec<Node> = component
        .iter()
        .enumerate()
        .map(|(i, &v)| {
            place[v as usize] = i as u32;
            game.unrank(v as u64, seeds)
        })
        .collect();
    let place: &[u32] = place;
    // A move into the component: the child's place in it, and the move's worth for every
    // memory (with `bounds`; without, every board of the component remembered).
    let component_bounds = |child: &Node, bounds: Option<&[Entry]>| {
        let c = game.rank(child) as usize;
        if !inside[c] {
            return None;
        }
        let (j, e) = (place[c] as usize, repetition_value(child));
        Some((
            j,
            match bounds {
                None => (e, e),
                Some(b) => (e.min(-(b[j].hi as i32)), e.max(-(b[j].lo as i32))),
            },
        ))
    };
    let mut bounds: Vec<Entry> = nodes
        .iter()
        .map(|node| {
            evaluate(game, node, seeds, lower, |child| {
                component_bounds(child, None).map_or_else(|| outside(game, child, entries), |w| w.1)
            })
        })
        .collect();
    loop {
        stats.sweeps += 1;
        let mut changed = false;
        for (i, node) in nodes.iter().enumerate() {
            let new = evaluate(game, node, seeds, lower, |child| {
                component_bounds(child, Some(&bounds))
                    .map_or_else(|| outside(game, child, entries), |w| w.1)
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
    let resolved = resolve(game, &nodes, seeds, lower, |child| {
        match component_bounds(child, Some(&bounds)) {
            Some((j, worth)) => (Some(j), worth),
            None => (None, outside(game, child, entries)),
        }
    });
    stats.resolved += resolved.iter().filter(|r| r.is_some()).count() as u64;
    // Each entry's search reads only the finished entries and the bounds: the component's
    // boards are searched in parallel, on every core. A board resolved without repetition
    // needs no search.
    let line = Line {
        game,
        seeds,
        lower,
        entries,
        place,
        inside,
        bounds: &bounds,
    };
    let searched: Vec<Entry> = nodes
        .par_iter()
        .enumerate()
        .with_min_len(64)
        .map(|(i, node)| {
            if let Some(v) = resolved[i] {
                debug_assert!(bounds[i].lo <= v && v <= bounds[i].hi, "{node:?}");
                return Entry::exact(v as i32);
            }
            let searched = line.entry(node, component[i]);
            Entry {
                lo: searched.lo.max(bounds[i].lo),
                hi: searched.hi.min(bounds[i].hi),
            }
        })
        .collect();
    for (&v, e) in component.iter().zip(searched) {
        entries[v as usize] = e;
    }
}

/// The boards of a component whose value from a fresh memory retrograde analysis proves
/// without any repetition, and that value (`None` for the others).
///
/// A board is *resolved* once its moves' worths pin its value: a capture or a move out of the
/// component is worth exactly the finished entry's; a move to a board `y` resolved before it
/// exactly `−R(y)`; a move to a board not yet resolved within the bounds that hold for every
/// memory, a repetition included (`e(y)` or `−I(y)`, as in the fixpoint). `quiet` gives a
/// quiet move's child's place in the component (`None` outside it) and the move's worth by
/// the finished entries or those bounds. Sweeps resolve
/// boards until none changes. Why `R(x)` is the value from a fresh memory: along the lines
/// that prove it (every move of one side, the best of the other) each resolved board was
/// resolved before the one before it, so no such line returns to a board it has passed and
/// the resolved boards' values hold with that memory; every other move is bounded for any
/// memory. (Aalina's table keeps such repetition-free values, with "unknown" where this uses
/// the bounds `I`.)
fn resolve(
    game: Game,
    nodes: &[Node],
    seeds: usize,
    lower: &(impl Finished + ?Sized),
    quiet: impl Fn(&Node) -> (Option<usize>, (i32, i32)),
) -> Vec<Option<i8>> {
    let mut resolved: Vec<Option<i8>> = vec![None; nodes.len()];
    let mut open: Vec<usize> = (0..nodes.len()).collect();
    loop {
        let before = open.len();
        open.retain(|&i| {
            let e = evaluate(game, &nodes[i], seeds, lower, |child| {
                let (place, worth) = quiet(child);
                match place.and_then(|j| resolved[j]) {
                    Some(v) => (-(v as i32), -(v as i32)),
                    None => worth,
                }
            });
            if e.is_exact() {
                resolved[i] = Some(e.lo);
                return false;
            }
            true
        });
        if open.len() == before {
            return resolved;
        }
    }
}

/// The depths the entry of a board on a cycle is searched to with its memory ([`Line`]), in
/// turn, and the nodes after which a search is not deepened again.
const LINE_DEPTHS: [u32; 4] = [2, 4, 6, 8];
const LINE_NODES: u64 = 1000;

/// The worth of a move out of the component: the opposite of the child's finished entry.
fn outside(game: Game, child: &Node, entries: &[Entry]) -> (i32, i32) {
    let e = entries[game.rank(child) as usize];
    (-(e.hi as i32), -(e.lo as i32))
}

/// A move's worth to its mover, lower and upper, and the child (node, rank) still to search.
type Worth = (i32, i32, Option<(Node, u32)>);

/// The most legal moves a node of any [`Game`] has (`ayoayo`: six sowings, five odu).
const MOST_MOVES: usize = 11;

/// The search of a node's entry inside its component, the memory carried along the line:
/// a move to a node of the line ends the game by repetition, exactly; a move to another node
/// of the component goes on, to the depth; past it, a node counts by its bounds for every
/// memory.
struct Line<'a, F: Finished + ?Sized> {
    game: Game,
    seeds: usize,
    lower: &'a F,
    entries: &'a [Entry],
    place: &'a [u32],
    inside: &'a [bool],
    bounds: &'a [Entry],
}

impl<F: Finished + ?Sized> Line<'_, F> {
    /// The entry of `node` (of rank `rank`): searched deeper and deeper until exact, or until
    /// a search passes [`LINE_NODES`].
    fn entry(&self, node: &Node, rank: u32) -> Entry {
        let mut entry = Entry {
            lo: i8::MIN,
            hi: i8::MAX,
        };
        let mut line = vec![rank];
        for depth in LINE_DEPTHS {
            let mut nodes = 0;
            entry = self.search(node, &mut line, depth, &mut nodes);
            if entry.is_exact() || nodes > LINE_NODES {
                break;
            }
        }
        entry
    }

    /// The bounds of `node` (the last of `line`, the nodes since the capture), `depth` plies
    /// deep (forced moves free).
    fn search(&self, node: &Node, line: &mut Vec<u32>, depth: u32, nodes: &mut u64) -> Entry {
        *nodes += 1;
        let game = self.game;
        let mask = match game.turn(node) {
            Turn::Over(v) => return Entry::exact(v),
            Turn::Moves(mask) => mask,
        };
        let forced = mask.count() == 1;
        // Each move's worth: final, or a bound for every memory with the child to search.
        let mut worth: [Worth; MOST_MOVES] = [(i32::MIN, i32::MIN, None); MOST_MOVES];
        for (slot, a) in worth.iter_mut().zip(mask.iter()) {
            *slot = match game.play(node, a) {
                Move::Capture { taken, node: child } => {
                    let (l, h) = after_capture(
                        taken,
                        self.lower.entry(game, &child, self.seeds - taken as usize),
                    );
                    (l, h, None)
                }
                Move::Quiet { node: child } => {
                    let c = game.rank(&child) as u32;
                    if !self.inside[c as usize] {
                        let (l, h) = outside(game, &child, self.entries);
                        (l, h, None)
                    } else if line.iter().rev().skip(1).step_by(2).any(|&b| b == c) {
                        // The same node with the same player to move: a repetition (the
                        // line's nodes alternate movers, so only every other one can be it).
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
