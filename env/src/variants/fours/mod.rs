//! The fours family — `ncho`, `adi`, `jerin` (docs/rules.md sections 5 and 9): what the three share.
//!
//! 48 seeds, [relay sowing](crate::variants::relay) with no origin skip, captures in groups of four, and
//! **rounds** that move house ownership. Each variant file (`variants/{ncho,adi,jerin}.rs`) says
//! what a drop captures ([`FoursRules::dropped`]) and picks its rule choices (who starts the next
//! round, feeding, the two-house opening); everything else lives here once:
//!
//! * **Ownership** `owner[12]` is part of the state. A player sows from any non-empty house he
//!   owns, on either row: action `a in 0..12` is pit `(6·mover + a) mod 12`, his own left first.
//! * **Never-ending sowings** are illegal; a player with no legal move passes automatically
//!   (a pass is not an action and not a ply).
//! * **Cycle rule**: a position (board, player to move, J'erin's opening flag) that recurs since
//!   the last capture or the round's start ends the round; each player gets
//!   `floor(seeds in his houses / 4)` groups and a leftover group goes to the larger remainder
//!   (2–2: to the player who did not start the round) — an invented tie-break. If neither
//!   player has a legal move (every sowing never ends) the round ends the same way
//!   (docs/rules.md is silent; decided here).
//! * **Rounds**: groups won become houses. A player with `g > 6` groups owns his home row plus
//!   the first `g − 6` houses of the opponent's row in the opponent's own order 3,4,2,5,1,6;
//!   6–6 gives each his home row. A player who wins all 12 groups owns every house and wins the
//!   match.
//! * **Episodes** (option `episode`): `round` (default) ends the game with the round, the result
//!   being the sign of the group difference; `match` goes on: the state after the round-ending
//!   action is already the next round's start (all pits 4, new owners, its starter to move),
//!   and the result is the match's.
//!
//! ```text
//!          f   e   d   c   b   a
//!  North   4   4   4   4*  4   4   groups 0     * = owned by the player across the board:
//!  South   4   4   4   4   4   4   groups 0     South won 7 groups last round and bought
//!          A   B   C   D   E   F                  North's house 3 (pit 8, `c`)
//! ```

use crate::action::{Action, ActionMask};
use crate::board::{pack, pit_of, Pits, PITS, ROW};
use crate::error::ParseError;
use crate::player::Player;
use crate::repetition::Repetition;
use crate::rng::mix;
use crate::rules::{NoTrace, Rules, Snapshot, Trace};
use crate::variants::relay::{relay, Flow, Lift, Relay, RelayEnd, RelayRules};
use std::marker::PhantomData;

mod notation;

/// Seeds in a fours game: 12 groups of 4.
pub const SEEDS: u8 = 48;
/// Groups in a round.
pub const GROUPS: u8 = 12;
/// The order in which a player with more than 6 groups takes the opponent's houses: the
/// opponent's houses 3,4,2,5,1,6 counted from the opponent's own left ("middle first").
pub const BUYING_ORDER: [usize; ROW] = [2, 3, 1, 4, 0, 5];
/// First J'erin opening action: `OPENING + k` lifts own home pits `k` and `k + 1` (k in 0..5).
pub const OPENING: Action = 12;

/// What one episode of the environment is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Episode {
    /// One round; the result is the sign of the group difference (default, for training).
    #[default]
    Round,
    /// A whole match, until one player owns all 12 houses.
    Match,
}

/// Who starts the next round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NextStarter {
    /// The players take turns (`ncho`).
    Alternate,
    /// The loser of the finished round; after 6–6 the player who did not start it.
    Loser,
}

/// What a player must do when his opponent owns no seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Feeding {
    /// Nothing special: the opponent will pass.
    None,
    /// Only moves whose whole relay drops a seed into an opponent-owned house are legal, if any
    /// move does (`adi`, rule 8).
    MustFeed,
}

/// How the first move of a round is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opening {
    /// An ordinary move.
    Ordinary,
    /// J'erin's two-house opening: two adjacent own home pits sown as one stream.
    TwoHouses,
}

/// What distinguishes one fours variant from another.
pub trait FoursRules:
    Clone + std::fmt::Debug + Default + PartialEq + Send + Sync + 'static
{
    /// The preset's name.
    const NAME: &'static str;
    /// Who starts the next round.
    const NEXT_STARTER: NextStarter;
    /// The feeding duty.
    const FEEDING: Feeding;
    /// The first move of each round.
    const OPENING: Opening;
    /// What the drop into `pos` does (`pits` already holding it, `hand` seeds still to sow in
    /// this lap). Captures go through `turn`.
    fn dropped(turn: &mut Turn, pits: &mut Pits, pos: usize, hand: u8) -> Flow;
    /// The variant's own rules, for [`Rules::describe`].
    fn summary() -> &'static str;
}

/// The bookkeeping of one turn that a drop rule may need and change.
#[derive(Clone, Debug)]
pub struct Turn {
    /// The player sowing.
    pub mover: Player,
    /// The owner of each house (fixed during a round).
    pub owner: [Player; PITS],
    /// Groups taken this round by each player.
    pub groups: [u8; 2],
    /// Seeds on the board and in hand.
    pub in_play: u8,
    /// Bit `i` set when pit `i` received a seed this turn (for `adi`'s feeding rule).
    pub touched: u16,
}

impl Turn {
    /// `player` takes the four seeds in `pos`.
    #[inline]
    pub fn take_four(&mut self, player: Player, pits: &mut Pits, pos: usize) {
        debug_assert_eq!(pits[pos], 4);
        pits[pos] = 0;
        self.groups[player.index()] += 1;
        self.in_play -= 4;
    }

    /// `player` takes every seed still in play, on the board and in hand, as groups.
    #[inline]
    pub fn take_the_rest(&mut self, player: Player, pits: &mut Pits) {
        *pits = [0; PITS];
        self.groups[player.index()] += self.in_play / 4;
        self.in_play = 0;
    }

    /// The 11th-group rule of `ncho` and `adi`: after `player` took a group, if it was the 11th
    /// he also takes the last (everything still in play) and the round is over.
    #[inline]
    pub fn eleventh_takes_the_last(&mut self, player: Player, pits: &mut Pits) -> bool {
        if self.groups[0] + self.groups[1] == GROUPS - 1 {
            self.take_the_rest(player, pits);
            true
        } else {
            false
        }
    }
}

/// A fours preset: the variant's rules `V` with the episode option.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Fours<V> {
    /// One round (default) or a whole match per episode.
    pub episode: Episode,
    rules: PhantomData<V>,
}

/// A position of a fours variant: the seeds, the owner of each house this round, the groups
/// each player took this round, the player to move, the round. Given unvalidated (public
/// fields), [`Fours::begin`] makes the live state of it, which carries it as its `position`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FoursSetup {
    pub pits: Pits,
    pub owner: [Player; PITS],
    /// Groups each player took this round.
    pub groups: [u8; 2],
    pub to_move: Player,
    /// The player who started the round.
    pub starter: Player,
    /// Round number, from 1.
    pub round: u32,
    /// Whether J'erin's two-house opening is still due this round (never for the other variants).
    pub opening_due: bool,
}

/// A game (a round or a match) of a fours variant.
///
/// The notation is `p0 … p11 | g0 g1 | m | owners | round r starter s` (J'erin adds
/// ` opening` while the two-house opening is due): the seeds of pits 0..12, the groups each
/// player took this round, the player to move, the owner (0 or 1) of pits 0..12 as 12 digits,
/// the round number and the player who started the round. Pits and groups hold 48 seeds.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct FoursState {
    /// The position: seeds, house owners, groups, the player to move, the round.
    pub position: FoursSetup,
    /// The episode is over (the round in `episode = round`, the match in `episode = match`).
    pub over: bool,
    pub ply: u32,
    legal: ActionMask,
    history: Repetition,
}

impl FoursState {
    /// The repetition key: board, player to move, opening flag (owners are fixed in a round).
    #[inline]
    fn key(&self) -> u128 {
        pack(&self.position.pits)
            | (self.position.to_move.index() as u128) << 72
            | (self.position.opening_due as u128) << 73
    }

    fn owners_bits(&self) -> u16 {
        (0..PITS).fold(0, |b, i| b | (self.position.owner[i].index() as u16) << i)
    }

    /// Seeds in the houses `p` owns.
    fn seeds_of(&self, p: Player) -> u8 {
        (0..PITS)
            .filter(|&i| self.position.owner[i] == p)
            .map(|i| self.position.pits[i])
            .sum()
    }

    /// Houses `p` owns.
    fn houses_of(&self, p: Player) -> i32 {
        self.position.owner.iter().filter(|&&o| o == p).count() as i32
    }

    /// What the round would give `view` if it ended now under the cycle rule, in seeds (4 × the
    /// groups he has taken + the seeds in the houses he owns), minus the opponent's: the
    /// measure of the look-ahead features ([`Rules::tactics`]).
    fn round_worth(&self, view: Player) -> i32 {
        let worth =
            |p: Player| 4 * self.position.groups[p.index()] as i32 + self.seeds_of(p) as i32;
        worth(view) - worth(!view)
    }
}

/// Each player's home row.
pub const HOME_ROWS: [Player; PITS] = {
    let mut o = [Player::South; PITS];
    let mut i = ROW;
    while i < PITS {
        o[i] = Player::North;
        i += 1;
    }
    o
};

/// The owners for a round after one in which each player took `groups`: a player with
/// `g > 6` groups owns his home row plus the first `g − 6` houses of [`BUYING_ORDER`] in the
/// opponent's row.
pub fn owners_from_groups(groups: [u8; 2]) -> [Player; PITS] {
    let mut owner = HOME_ROWS;
    for p in Player::BOTH {
        let g = groups[p.index()] as usize;
        if g > ROW {
            for &k in &BUYING_ORDER[..g - ROW] {
                owner[pit_of(!p, k)] = p;
            }
        }
    }
    owner
}

/// Sends each drop to the variant's rule, recording it first when tracing.
struct Hook<'a, V, T> {
    turn: Turn,
    trace: &'a mut T,
    rules: PhantomData<V>,
}

impl<V: FoursRules, T: Trace> RelayRules for Hook<'_, V, T> {
    #[inline]
    fn dropped(&mut self, pits: &mut Pits, pos: usize, hand: u8) -> Flow {
        if T::ACTIVE {
            let t = &self.turn;
            self.trace.drop_seed(Snapshot {
                pits: pits.to_vec(),
                stores: [t.groups[0] as u32 * 4, t.groups[1] as u32 * 4],
                in_hand: hand as u32,
                owners: Some(t.owner.iter().map(|p| p.index() as u8).collect()),
                ..Default::default()
            });
        }
        self.turn.touched |= 1 << pos;
        V::dropped(&mut self.turn, pits, pos, hand)
    }
}

impl<V: FoursRules> Fours<V> {
    /// The preset with the given episode kind.
    pub fn with_episode(episode: Episode) -> Self {
        Fours {
            episode,
            rules: PhantomData,
        }
    }

    /// Plays one relay turn of `mover` on `pits`/`groups` from `start`.
    #[inline]
    fn sow_turn<T: Trace>(
        &self,
        pits: &mut Pits,
        groups: &mut [u8; 2],
        owner: &[Player; PITS],
        mover: Player,
        start: Lift,
        trace: &mut T,
    ) -> (Relay, u16) {
        let mut hook = Hook::<V, T> {
            turn: Turn {
                mover,
                owner: *owner,
                groups: *groups,
                in_play: SEEDS - 4 * (groups[0] + groups[1]),
                touched: 0,
            },
            trace,
            rules: PhantomData,
        };
        let r = relay(pits, start, &mut hook);
        *groups = hook.turn.groups;
        (r, hook.turn.touched)
    }

    /// Where `action` of `p` starts: an own pit, or (J'erin) a lifted pair of home pits. Lifts
    /// the pair from `pits`.
    #[inline]
    fn lift(pits: &mut Pits, p: Player, action: Action) -> Lift {
        if action < OPENING {
            Lift::Pit(pit_of(p, action as usize))
        } else {
            let k = (action - OPENING) as usize;
            let (a, b) = (pit_of(p, k), pit_of(p, k + 1));
            let seeds = pits[a] + pits[b];
            pits[a] = 0;
            pits[b] = 0;
            Lift::Hand { after: b, seeds }
        }
    }

    /// Simulates `action` of `p`: `None` if its relay never ends, else the pits it sowed into.
    #[inline]
    fn simulate(&self, s: &FoursState, p: Player, action: Action) -> Option<u16> {
        let mut pits = s.position.pits;
        let mut groups = s.position.groups;
        let start = Self::lift(&mut pits, p, action);
        let (r, touched) = self.sow_turn(
            &mut pits,
            &mut groups,
            &s.position.owner,
            p,
            start,
            &mut NoTrace,
        );
        (r.end != RelayEnd::NeverEnds).then_some(touched)
    }

    /// The legal actions of `p` in `s` (whether or not he is to move).
    fn legal_for(&self, s: &FoursState, p: Player) -> ActionMask {
        let mut mask = ActionMask::EMPTY;
        if V::OPENING == Opening::TwoHouses && s.position.opening_due {
            for k in 0..ROW - 1 {
                let (a, b) = (pit_of(p, k), pit_of(p, k + 1));
                if s.position.owner[a] == p
                    && s.position.owner[b] == p
                    && s.position.pits[a] > 0
                    && s.position.pits[b] > 0
                {
                    let action = OPENING + k as Action;
                    if self.simulate(s, p, action).is_some() {
                        mask.insert(action);
                    }
                }
            }
            if !mask.is_empty() {
                return mask;
            }
        }
        let must_feed = V::FEEDING == Feeding::MustFeed && s.seeds_of(!p) == 0;
        let opponents_houses = (0..PITS)
            .filter(|&i| s.position.owner[i] == !p)
            .fold(0u16, |b, i| b | 1 << i);
        let mut feeding = ActionMask::EMPTY;
        for a in 0..PITS {
            let i = pit_of(p, a);
            if s.position.owner[i] != p || s.position.pits[i] == 0 {
                continue;
            }
            if let Some(touched) = self.simulate(s, p, a as Action) {
                mask.insert(a as Action);
                if must_feed && touched & opponents_houses != 0 {
                    feeding.insert(a as Action);
                }
            }
        }
        if must_feed && !feeding.is_empty() {
            feeding
        } else {
            mask
        }
    }

    /// After a move by `!next` (or at a round's start, `next` to move): the automatic passes,
    /// then the cycle rule.
    fn settle(&self, s: &mut FoursState, next: Player, captured: bool) {
        let mut legal = self.legal_for(s, next);
        s.position.to_move = next;
        if legal.is_empty() {
            legal = self.legal_for(s, !next);
            s.position.to_move = !next;
        }
        if legal.is_empty() {
            // Nobody can move (every sowing left never ends): the round ends as a cycle does.
            self.share_the_board(s);
            return self.end_round(s);
        }
        s.legal = legal;
        let key = s.key();
        if captured {
            s.history.restart(key);
        } else if s.history.recurs(key) {
            self.share_the_board(s);
            self.end_round(s);
        }
    }

    /// The cycle rule's grouping: each player gets `floor(seeds in his houses / 4)` groups; the
    /// leftover group, if any, goes to the larger remainder, a 2–2 tie to the player who did
    /// not start the round. The board is then empty.
    fn share_the_board(&self, s: &mut FoursState) {
        let seeds = [s.seeds_of(Player::South), s.seeds_of(Player::North)];
        for p in Player::BOTH {
            s.position.groups[p.index()] += seeds[p.index()] / 4;
        }
        let rest = [seeds[0] % 4, seeds[1] % 4];
        if rest[0] + rest[1] == 4 {
            let taker = match rest[0].cmp(&rest[1]) {
                std::cmp::Ordering::Greater => Player::South,
                std::cmp::Ordering::Less => Player::North,
                std::cmp::Ordering::Equal => !s.position.starter,
            };
            s.position.groups[taker.index()] += 1;
        }
        s.position.pits = [0; PITS];
    }

    /// The round is over (all 12 groups taken): end the episode, or start the next round.
    fn end_round(&self, s: &mut FoursState) {
        debug_assert_eq!(s.position.groups[0] + s.position.groups[1], GROUPS, "{s:?}");
        s.legal = ActionMask::EMPTY;
        if self.episode == Episode::Round {
            s.over = true;
            return;
        }
        s.position.owner = owners_from_groups(s.position.groups);
        if s.position.groups.contains(&GROUPS) {
            s.over = true;
            return;
        }
        s.position.starter = match V::NEXT_STARTER {
            NextStarter::Alternate => !s.position.starter,
            NextStarter::Loser => match s.position.groups[0].cmp(&s.position.groups[1]) {
                std::cmp::Ordering::Greater => Player::North,
                std::cmp::Ordering::Less => Player::South,
                std::cmp::Ordering::Equal => !s.position.starter,
            },
        };
        s.position.round += 1;
        s.position.groups = [0, 0];
        s.position.pits = [4; PITS];
        s.position.opening_due = V::OPENING == Opening::TwoHouses;
        let starter = s.position.starter;
        self.settle(s, starter, true);
    }

    /// The live state of `setup`; the cycle rule's memory starts here.
    pub fn begin(&self, setup: FoursSetup) -> FoursState {
        let (groups, to_move) = (setup.groups, setup.to_move);
        let mut s = FoursState {
            position: FoursSetup {
                opening_due: setup.opening_due && V::OPENING == Opening::TwoHouses,
                ..setup
            },
            over: false,
            ply: 0,
            legal: ActionMask::EMPTY,
            history: Repetition::default(),
        };
        if groups[0] + groups[1] == GROUPS {
            self.end_round(&mut s);
        } else {
            self.settle(&mut s, to_move, true);
        }
        s
    }

    /// The relay of `action` by the player to move, played on a copy (for tests and relay
    /// statistics such as the longest relay).
    pub fn relay_laps(&self, s: &FoursState, action: Action) -> Relay {
        let mut pits = s.position.pits;
        let mut groups = s.position.groups;
        let start = Self::lift(&mut pits, s.position.to_move, action);
        self.sow_turn(
            &mut pits,
            &mut groups,
            &s.position.owner,
            s.position.to_move,
            start,
            &mut NoTrace,
        )
        .0
    }
}

impl<V: FoursRules> Rules for Fours<V> {
    type State = FoursState;

    fn name(&self) -> &'static str {
        V::NAME
    }
    fn version(&self) -> u32 {
        1
    }
    fn options(&self) -> Vec<(String, String)> {
        match self.episode {
            Episode::Round => vec![],
            Episode::Match => vec![("episode".into(), "match".into())],
        }
    }
    fn set_option(&mut self, key: &str, value: &str) -> Result<(), ParseError> {
        match key {
            "episode" => {
                self.episode = match value {
                    "round" => Episode::Round,
                    "match" => Episode::Match,
                    _ => {
                        return Err(ParseError::BadOptionValue {
                            option: key.into(),
                            value: value.into(),
                            expected: "`round` or `match`".into(),
                        })
                    }
                };
                Ok(())
            }
            _ => Err(ParseError::UnknownOption {
                variant: self.id(),
                option: key.into(),
                expected: "episode".into(),
            }),
        }
    }
    fn num_actions(&self) -> usize {
        match V::OPENING {
            Opening::Ordinary => PITS,
            Opening::TwoHouses => PITS + ROW - 1,
        }
    }
    fn observation_len(&self) -> usize {
        28
    }
    fn start(&self, first: Player) -> FoursState {
        self.begin(FoursSetup {
            pits: [4; PITS],
            owner: HOME_ROWS,
            groups: [0, 0],
            to_move: first,
            starter: first,
            round: 1,
            opening_due: true,
        })
    }
    /// In `episode = round`, half the starts (odd `variety`) are a second round after one that
    /// South won `g`–`12 − g` groups, `g` one of 1..=11 but 6 (so the houses are unequally
    /// owned), `first` to move; the rest are [`Rules::start`].
    fn training_start(&self, first: Player, variety: u64) -> FoursState {
        if self.episode != Episode::Round || variety.is_multiple_of(2) {
            return self.start(first);
        }
        let g = [1, 2, 3, 4, 5, 7, 8, 9, 10, 11][(variety / 2 % 10) as usize];
        self.begin(FoursSetup {
            pits: [4; PITS],
            owner: owners_from_groups([g, GROUPS - g]),
            groups: [0, 0],
            to_move: first,
            starter: first,
            round: 2,
            opening_due: true,
        })
    }
    #[inline]
    fn to_play(&self, s: &FoursState) -> Option<Player> {
        (!s.over).then_some(s.position.to_move)
    }
    #[inline]
    fn legal_mask(&self, s: &FoursState) -> ActionMask {
        s.legal
    }

    fn apply<T: Trace>(&self, s: &mut FoursState, action: Action, trace: &mut T) {
        let p = s.position.to_move;
        let before = s.position.groups;
        let start = Self::lift(&mut s.position.pits, p, action);
        let (r, _) = self.sow_turn(
            &mut s.position.pits,
            &mut s.position.groups,
            &s.position.owner,
            p,
            start,
            trace,
        );
        s.ply += 1;
        s.position.opening_due = false;
        debug_assert_ne!(
            r.end,
            RelayEnd::NeverEnds,
            "an illegal, never-ending move was played"
        );
        if r.end == RelayEnd::RoundOver {
            return self.end_round(s);
        }
        self.settle(s, !p, s.position.groups != before);
    }

    /// Groups of four taken this round (at the end of a match, 12 for the winner).
    fn scores(&self, s: &FoursState) -> [i32; 2] {
        [s.position.groups[0] as i32, s.position.groups[1] as i32]
    }
    /// The sign of the group difference of the round (`episode = round`) or of the last round
    /// of the match, which the winner took 12–0 (`episode = match`).
    fn returns(&self, s: &FoursState) -> [f32; 2] {
        if !s.over {
            return [0.0, 0.0];
        }
        // (`f32::signum` would call 0 a win.)
        let d = s.position.groups[0].cmp(&s.position.groups[1]) as i8 as f32;
        [d, -d]
    }
    /// Three quarters of the houses each player can expect next round and a quarter of what the
    /// round would give him if it ended now (`FoursState::round_worth`), in seeds (4 a house),
    /// `view`'s minus the opponent's (see [`Rules::heuristic`]). The houses he can expect: 4 ×
    /// the groups he has taken, plus his share of the seeds still on the board in proportion to
    /// the houses he owns. Both read 4 × the houses owned at a round's start, so a search reads
    /// one scale across round boundaries.
    ///
    /// The round's worth alone (until 2026-11-25) counts the seeds lying in each player's
    /// houses, which a relay sowing swings with every move, and the search followed the swings:
    /// `alphabeta:3` lost 75 of 100 whole adi matches to `alphabeta:2`, and `alphabeta:6` won
    /// only 56. The expected houses alone make the depths monotonic but leave a search
    /// indifferent among moves that take nothing, and ncho rounds against a careful opponent
    /// then went on for thousands of plies; the quarter of the worth keeps a reason to move
    /// seeds home (issue 13; figures in tests/tests/agents.rs).
    fn heuristic(&self, s: &FoursState, view: Player) -> i32 {
        let board: i32 = s.position.pits.iter().map(|&n| n as i32).sum();
        let groups = |p: Player| s.position.groups[p.index()] as i32;
        let houses = s.houses_of(view) - s.houses_of(!view);
        // 12 × the expected houses' difference, in seeds.
        let expected_12 = 48 * (groups(view) - groups(!view)) + houses * board;
        (3 * expected_12 + 12 * s.round_worth(view)) / 48
    }
    /// `FoursState::round_worth` (what the round would give if it ended now: captures and the
    /// seeds a sowing brings into the mover's houses), the measure the look-ahead networks were
    /// trained with.
    fn gain_measure(&self, s: &FoursState, view: Player) -> i32 {
        s.round_worth(view)
    }
    fn round(&self, s: &FoursState) -> u32 {
        s.position.round
    }
    fn ply(&self, s: &FoursState) -> u32 {
        s.ply
    }
    /// 28 floats from the mover's view, pits counted in sowing order from his own left (his
    /// row, then the opponent's): `0..12` seeds / 4; `12..24` 1 where the mover owns the house;
    /// `24` the mover's groups this round / 12, `25` the opponent's; `26` 1 if the mover started
    /// this round; `27` 1 while J'erin's two-house opening is due.
    fn observe(&self, s: &FoursState, out: &mut [f32]) {
        let p = s.position.to_move;
        for k in 0..PITS {
            let i = pit_of(p, k);
            out[k] = s.position.pits[i] as f32 / 4.0;
            out[PITS + k] = (s.position.owner[i] == p) as u8 as f32;
        }
        out[24] = s.position.groups[p.index()] as f32 / GROUPS as f32;
        out[25] = s.position.groups[(!p).index()] as f32 / GROUPS as f32;
        out[26] = (s.position.starter == p) as u8 as f32;
        out[27] = s.position.opening_due as u8 as f32;
    }
    fn snapshot(&self, s: &FoursState) -> Snapshot {
        Snapshot {
            pits: s.position.pits.to_vec(),
            stores: [
                s.position.groups[0] as u32 * 4,
                s.position.groups[1] as u32 * 4,
            ],
            owners: Some(s.position.owner.iter().map(|p| p.index() as u8).collect()),
            ..Default::default()
        }
    }
    fn hash(&self, s: &FoursState) -> u64 {
        let k = s.key();
        let extra = s.owners_bits() as u64
            | (s.position.groups[0] as u64) << 16
            | (s.position.groups[1] as u64) << 24
            | (s.position.starter.index() as u64) << 32
            | (s.over as u64) << 33;
        mix(mix(k as u64 ^ extra.rotate_left(40)) ^ (k >> 64) as u64)
    }
    fn memory_hash(&self, s: &FoursState) -> u64 {
        s.history.fingerprint()
    }
    fn notation(&self, s: &FoursState) -> String {
        notation::write(s)
    }
    fn parse_notation(&self, text: &str) -> Result<FoursState, ParseError> {
        notation::parse(self, text)
    }
    fn render(&self, s: &FoursState) -> String {
        notation::render(self, s)
    }
    /// J'erin's two-house opening begins at the first of its two houses.
    fn action_pit(&self, s: &FoursState, action: Action) -> Option<usize> {
        let k = if action < OPENING {
            action
        } else {
            action - OPENING
        } as usize;
        (k < PITS).then(|| pit_of(s.position.to_move, k))
    }
    fn action_name(&self, s: &FoursState, action: Action) -> String {
        notation::action_name(s, action)
    }
    fn describe(&self) -> String {
        notation::describe(self)
    }
}

/// Test helper: the position `setup` (notation), `action` played, must give `expected`.
#[cfg(test)]
pub(crate) fn clause<V: FoursRules>(rules: &Fours<V>, setup: &str, action: Action, expected: &str) {
    let mut s = rules
        .parse_notation(setup)
        .unwrap_or_else(|e| panic!("setup: {e}"));
    let total = rules.snapshot(&s).total();
    rules
        .play(&mut s, action)
        .unwrap_or_else(|e| panic!("{setup}: {e}"));
    assert_eq!(
        rules.notation(&s),
        expected,
        "after action {action} from {setup}"
    );
    assert_eq!(rules.snapshot(&s).total(), total, "seeds are conserved");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cycle_grouping_gives_the_leftover_group_to_the_larger_remainder() {
        let v = Fours::<crate::variants::ncho::NchoRules>::default();
        let mut s = v.start(Player::South);
        // South's houses hold 7 (1 group, remainder 3), North's 5 (1 group, remainder 1).
        s.position.pits = [3, 0, 0, 0, 4, 0, 0, 0, 5, 0, 0, 0];
        s.position.groups = [4, 5];
        v.share_the_board(&mut s);
        assert_eq!(s.position.groups, [6, 6]);
        // 2-2: the leftover group goes to the player who did not start the round (North).
        s.position.pits = [2, 0, 0, 0, 4, 0, 0, 0, 6, 0, 0, 0];
        s.position.groups = [4, 5];
        s.position.starter = Player::South;
        v.share_the_board(&mut s);
        assert_eq!(s.position.groups, [5, 7]);
        assert_eq!(s.position.pits, [0; PITS]);
    }

    #[test]
    fn owners_follow_the_middle_first_buying_order() {
        let o = owners_from_groups([9, 3]);
        // South owns his row and North's houses 3, 4, 2 (pits 8, 9, 7).
        let south: Vec<usize> = (0..PITS).filter(|&i| o[i] == Player::South).collect();
        assert_eq!(south, vec![0, 1, 2, 3, 4, 5, 7, 8, 9]);
        let o = owners_from_groups([5, 7]);
        let north: Vec<usize> = (0..PITS).filter(|&i| o[i] == Player::North).collect();
        assert_eq!(north, vec![2, 6, 7, 8, 9, 10, 11]);
        assert_eq!(owners_from_groups([6, 6]), HOME_ROWS);
    }
}
