//! The games a table is built for, and what a table sees of a position: a [`Node`], the board
//! from its mover's view and the state beside it that the moves depend on. Every move and end
//! of the game is the variant's own rule (`Oware::play_position`, `Ayoayo::play_position`, …),
//! played on the node's position with empty stores.

use super::index::Index;
use crate::action::{Action, ActionMask};
use crate::board::{Pits, PITS, ROW};
use crate::player::Player;
use crate::rules::{NoTrace, Rules};
use crate::variant::{Variant, VariantState};
use crate::variants::ayoayo::Ayoayo;
use crate::variants::oware::Oware;
use crate::variants::two_row::Position;

/// A game a table can be built for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Game {
    /// `oware@1`: the board is the whole position between captures.
    Oware,
    /// `ayoayo@1` with its default options: the board and each side's odu (used or not).
    Ayoayo,
}

/// A position as a table sees it: the board from its mover's view (his row first) and `side`,
/// the state beside the board, also from the mover's view — for `ayoayo` bit 0 set when the
/// mover has used his odu and bit 1 when the opponent has; always 0 for `oware`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Node {
    pub pits: Pits,
    pub side: u8,
}

impl Node {
    /// A board with nothing beside it (for `ayoayo`: both odu still available).
    pub fn board(pits: Pits) -> Node {
        Node { pits, side: 0 }
    }

    /// Seeds on the board: the node's layer.
    pub fn seeds(&self) -> usize {
        self.pits.iter().map(|&s| s as usize).sum()
    }
}

/// A move of a node, with the node after it from the next mover's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    /// A move that took `taken` seeds (which restarts the repetition memory).
    Capture { taken: u8, node: Node },
    /// A move that took nothing (a grand slam, an odu included), which the repetition rule
    /// watches.
    Quiet { node: Node },
}

/// Whether the game goes on at a node, and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turn {
    /// The game is over at this node: the mover's margin of the seeds still on the board.
    Over(i32),
    /// The mover's legal moves.
    Moves(ActionMask),
}

/// The board from `p`'s view: his row first.
#[inline]
pub fn view(pits: &Pits, p: Player) -> Pits {
    match p {
        Player::South => *pits,
        Player::North => {
            let mut out = [0u8; PITS];
            out[..ROW].copy_from_slice(&pits[ROW..]);
            out[ROW..].copy_from_slice(&pits[..ROW]);
            out
        }
    }
}

/// The margin when the game ends with each side keeping its own row (no legal move in
/// `oware`, exhaustion in `ayoayo`, a repetition in both): the mover's row minus the other's.
#[inline]
pub fn rows_margin(pits: &Pits) -> i32 {
    let row = |r: &[u8]| r.iter().map(|&s| s as i32).sum::<i32>();
    row(&pits[..ROW]) - row(&pits[ROW..])
}

/// A position from South's view with empty stores: where a table plays its moves.
fn position(pits: &Pits) -> Position {
    Position {
        pits: *pits,
        stores: [0, 0],
        to_move: Player::South,
    }
}

impl Game {
    /// Every game a table can be built for.
    pub const ALL: [Game; 2] = [Game::Oware, Game::Ayoayo];

    /// The rules' id, as in a file's header.
    pub fn rules_id(self) -> &'static str {
        match self {
            Game::Oware => "oware@1",
            Game::Ayoayo => "ayoayo@1",
        }
    }

    /// The variant's name, which starts the name of each layer's file.
    pub fn name(self) -> &'static str {
        match self {
            Game::Oware => "oware",
            Game::Ayoayo => "ayoayo",
        }
    }

    /// The game of a variant, if a table can be built for it with its options. The start's
    /// seeds per pit (`oware:seeds=N`) change no move, so an `oware` table serves every such
    /// option; `ayoayo`'s capture limit changes the moves, so only its default is tabled.
    pub fn of(rules: &Variant) -> Option<Game> {
        match rules {
            Variant::Oware(_) => Some(Game::Oware),
            Variant::Ayoayo(a) if *a == Ayoayo::default() => Some(Game::Ayoayo),
            _ => None,
        }
    }

    /// The variant with the options the table serves (`oware`'s default seeds).
    pub fn rules(self) -> Variant {
        match self {
            Game::Oware => Variant::Oware(Oware::default()),
            Game::Ayoayo => Variant::Ayoayo(Ayoayo::default()),
        }
    }

    /// The states beside a board: 1 for `oware`, 4 for `ayoayo` (each side's odu).
    pub fn sides(self) -> u8 {
        match self {
            Game::Oware => 1,
            Game::Ayoayo => 4,
        }
    }

    /// The actions a node may have (`0..actions`).
    pub fn actions(self) -> u8 {
        match self {
            Game::Oware => ROW as u8,
            Game::Ayoayo => crate::variants::ayoayo::ODU + ROW as u8 - 1,
        }
    }

    /// The nodes of the layer of `seeds` seeds: its boards times the sides.
    pub fn nodes(self, seeds: usize) -> u64 {
        self.sides() as u64 * Index::get().boards(seeds)
    }

    /// The rank of a node in its layer: the side, then the board's rank.
    #[inline]
    pub fn rank(self, node: &Node) -> u64 {
        let index = Index::get();
        node.side as u64 * index.boards(node.seeds()) + index.rank(&node.pits)
    }

    /// The node of rank `rank` in the layer of `seeds` seeds.
    pub fn unrank(self, rank: u64, seeds: usize) -> Node {
        let boards = Index::get().boards(seeds);
        Node {
            pits: Index::get().unrank(rank % boards, seeds),
            side: (rank / boards) as u8,
        }
    }

    /// The odu flags (South, North) of a node, the mover South.
    fn odu(node: &Node) -> [bool; 2] {
        [node.side & 1 != 0, node.side & 2 != 0]
    }

    /// Whether the game is over at `node` and its margin, or its legal moves.
    #[inline]
    pub fn turn(self, node: &Node) -> Turn {
        match self {
            Game::Oware => {
                let mask = Oware::legal_of(&position(&node.pits));
                if mask.is_empty() {
                    Turn::Over(rows_margin(&node.pits))
                } else {
                    Turn::Moves(mask)
                }
            }
            Game::Ayoayo => {
                let mut pos = position(&node.pits);
                if Ayoayo::settle_position(&mut pos) {
                    Turn::Over(pos.stores[0] as i32 - pos.stores[1] as i32)
                } else {
                    Turn::Moves(Ayoayo::legal_at(&pos, Self::odu(node)))
                }
            }
        }
    }

    /// The legal moves at `node` (none where the game is over).
    #[inline]
    pub fn legal(self, node: &Node) -> ActionMask {
        match self.turn(node) {
            Turn::Over(_) => ActionMask::EMPTY,
            Turn::Moves(mask) => mask,
        }
    }

    /// Plays the legal `action` at `node`.
    #[inline]
    pub fn play(self, node: &Node, action: Action) -> Move {
        let mut pos = position(&node.pits);
        let (taken, side) = match self {
            Game::Oware => (Oware::play_position(&mut pos, action), 0),
            Game::Ayoayo => {
                let mut odu = Self::odu(node);
                let taken =
                    Ayoayo::default().play_position(&mut pos, &mut odu, action, &mut NoTrace);
                // The next mover is North: his flag first.
                (taken, odu[1] as u8 | (odu[0] as u8) << 1)
            }
        };
        let node = Node {
            pits: view(&pos.pits, Player::North),
            side,
        };
        if taken > 0 {
            Move::Capture { taken, node }
        } else {
            Move::Quiet { node }
        }
    }

    /// The node of a live game of this table's game, or `None` (another variant, or over).
    pub fn node_of(self, state: &VariantState) -> Option<Node> {
        match (self, state) {
            (Game::Oware, VariantState::Oware(s)) if !s.over => {
                Some(Node::board(view(&s.position.pits, s.position.to_move)))
            }
            (Game::Ayoayo, VariantState::Ayoayo(s)) if !s.over => {
                let p = s.position.to_move;
                let used = s.odu_used;
                Some(Node {
                    pits: view(&s.position.pits, p),
                    side: used[p.index()] as u8 | (used[(!p).index()] as u8) << 1,
                })
            }
            _ => None,
        }
    }

    /// The game at `node`, South to move, with `stores` (South, North) holding the seeds not on
    /// the board: the real game a table's value is checked against.
    pub fn state_at(
        self,
        node: &Node,
        stores: [u8; 2],
    ) -> Result<VariantState, crate::error::ParseError> {
        let pits: Vec<String> = node.pits.iter().map(u8::to_string).collect();
        let mut text = format!("{} | {} {} | 0", pits.join(" "), stores[0], stores[1]);
        if self == Game::Ayoayo {
            let [s, n] = Self::odu(node);
            text += &format!(" | odu {} {}", s as u8, n as u8);
        }
        self.rules().parse_notation(&text)
    }
}

/// Whether a game's repetition memory holds its current position alone (at the start or right
/// after a capture), where an entry's value is the game's.
pub fn memory_is_fresh(state: &VariantState) -> bool {
    match state {
        VariantState::Oware(s) => s.memory_len() == 1,
        VariantState::Ayoayo(s) => s.memory_len() == 1,
        _ => false,
    }
}
