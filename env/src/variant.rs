//! The runtime-selectable variant: an enum over every preset that itself implements [`Rules`],
//! so everything generic over `Rules` also runs on a variant chosen by name.
//!
//! ```
//! use ayo_env::{Rules, Variant, Player};
//! let v: Variant = "oware@1".parse().unwrap();
//! let mut game = v.start(Player::South);
//! v.play(&mut game, 2).unwrap();
//! assert_eq!(v.snapshot(&game).pits, vec![4, 4, 0, 5, 5, 5, 5, 4, 4, 4, 4, 4]);
//! ```

use crate::action::{Action, ActionMask};
use crate::error::ParseError;
use crate::player::Player;
use crate::rules::{Rules, Snapshot, Trace};
use crate::variants::*;

/// Lists every preset once: `Name(rules type, state type) = "name"`. Adding a variant is one line.
macro_rules! variants {
    ($($name:ident($rules:ty, $state:ty) = $text:literal,)*) => {
        /// A variant preset chosen at run time.
        #[derive(Clone, Debug, PartialEq)]
        pub enum Variant { $($name($rules),)* }

        /// The state of a game of some [`Variant`] (serialisable: the exact position, history
        /// included, for snapshots of a vectorised env; see [`Variant::check_state`]).
        #[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
        pub enum VariantState { $($name($state),)* }

        /// The names of every variant, in the order of the README's table.
        pub const VARIANT_NAMES: &[&str] = &[$($text,)*];

        impl Variant {
            /// Whether `s` is a state of this preset (of its enum case).
            pub fn owns(&self, s: &VariantState) -> bool {
                matches!((self, s), $((Variant::$name(_), VariantState::$name(_)))|*)
            }

            /// The preset `name` with its default options.
            pub fn by_name(name: &str) -> Result<Variant, ParseError> {
                match name {
                    $($text => Ok(Variant::$name(<$rules>::default())),)*
                    _ => Err(ParseError::UnknownVariant { name: name.to_string(), known: VARIANT_NAMES.join(", ") }),
                }
            }
        }

        macro_rules! with_rules {
            ($self_:expr, $r:ident => $body:expr) => {
                match $self_ { $(Variant::$name($r) => $body,)* }
            };
        }
        macro_rules! with_state {
            ($self_:expr, $s:expr, $r:ident, $st:ident => $body:expr) => {
                match ($self_, $s) {
                    $((Variant::$name($r), VariantState::$name($st)) => $body,)*
                    #[allow(unreachable_patterns)]
                    (v, _) => panic!("a state of another variant was given to {}", v.id()),
                }
            };
        }
        macro_rules! wrap_state {
            ($self_:expr, $r:ident => $body:expr) => {
                match $self_ { $(Variant::$name($r) => VariantState::$name($body),)* }
            };
        }
        macro_rules! wrap_result {
            ($self_:expr, $r:ident => $body:expr) => {
                match $self_ { $(Variant::$name($r) => $body.map(VariantState::$name),)* }
            };
        }
    };
}

variants! {
    Oware(oware::Oware, oware::OwareState) = "oware",
    Ayo(ayo::Ayo, ayo::AyoState) = "ayo",
    Ayoayo(ayoayo::Ayoayo, ayoayo::AyoayoState) = "ayoayo",
    Ncho(ncho::Ncho, crate::variants::fours::FoursState) = "ncho",
    Adi(adi::Adi, crate::variants::fours::FoursState) = "adi",
    Jerin(jerin::Jerin, crate::variants::fours::FoursState) = "jerin",
    Jodu(jodu::Jodu, jodu::JoduState) = "jodu",
    Yao(yao::Yao, yao::YaoState) = "yao",
}

impl Variant {
    /// Checks a state that came from outside (a snapshot): it is one of this preset's, it
    /// holds the seeds of a game of it, and its notation, parsed again, gives the same board,
    /// player to move, end and legal moves — the cached fields agree with the position.
    pub fn check_state(&self, s: &VariantState) -> Result<(), ParseError> {
        let refuse = |reason: String| ParseError::State {
            variant: self.id(),
            reason,
        };
        if !self.owns(s) {
            return Err(refuse(format!("a state of another variant: {s:?}")));
        }
        let seeds = self.snapshot(s).total();
        let expected = self.snapshot(&self.start(Player::South)).total();
        if seeds != expected {
            return Err(refuse(format!("{seeds} seeds, a game has {expected}")));
        }
        let text = self.notation(s);
        let again = self.parse_notation(&text)?;
        let same = self.snapshot(&again) == self.snapshot(s)
            && self.to_play(&again) == self.to_play(s)
            && (self.is_terminal(s) || self.legal_mask(&again) == self.legal_mask(s));
        if !same {
            return Err(refuse(format!(
                "its cached player to move, end or legal moves disagree with its position {text:?}"
            )));
        }
        Ok(())
    }

    /// Parses `name` or `name@version` and applies `key=value` options.
    pub fn new(spec: &str, options: &[(String, String)]) -> Result<Variant, ParseError> {
        let mut v: Variant = spec.parse()?;
        for (k, val) in options {
            v.set_option(k, val)?;
        }
        Ok(v)
    }

    /// Parses options written `key=value,key=value`.
    pub fn parse_options(text: &str) -> Result<Vec<(String, String)>, ParseError> {
        text.split(',')
            .filter(|s| !s.trim().is_empty())
            .map(|kv| match kv.split_once('=') {
                Some((k, v)) => Ok((k.trim().to_string(), v.trim().to_string())),
                None => Err(ParseError::BadOptionValue {
                    option: kv.to_string(),
                    value: String::new(),
                    expected: "key=value".into(),
                }),
            })
            .collect()
    }
}

impl std::str::FromStr for Variant {
    type Err = ParseError;
    /// `name` or `name@version`.
    fn from_str(spec: &str) -> Result<Variant, ParseError> {
        let (name, version) = match spec.split_once('@') {
            Some((n, v)) => (n, Some(v)),
            None => (spec, None),
        };
        let v = Variant::by_name(name.trim())?;
        if let Some(version) = version {
            if version.trim() != v.version().to_string() {
                return Err(ParseError::UnknownVersion {
                    name: name.to_string(),
                    version: version.to_string(),
                    expected: v.version(),
                });
            }
        }
        Ok(v)
    }
}

/// `name@version`, with the options that differ from the preset's in parentheses:
/// `ncho@1 (episode=match)`.
impl std::fmt::Display for Variant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.id())?;
        let options = self.options();
        if !options.is_empty() {
            let pairs: Vec<String> = options.iter().map(|(k, v)| format!("{k}={v}")).collect();
            write!(f, " ({})", pairs.join(","))?;
        }
        Ok(())
    }
}

impl Rules for Variant {
    type State = VariantState;

    fn name(&self) -> &'static str {
        with_rules!(self, r => r.name())
    }
    fn version(&self) -> u32 {
        with_rules!(self, r => r.version())
    }
    fn options(&self) -> Vec<(String, String)> {
        with_rules!(self, r => r.options())
    }
    fn set_option(&mut self, key: &str, value: &str) -> Result<(), ParseError> {
        with_rules!(self, r => r.set_option(key, value))
    }
    fn num_actions(&self) -> usize {
        with_rules!(self, r => r.num_actions())
    }
    fn observation_len(&self) -> usize {
        with_rules!(self, r => r.observation_len())
    }
    fn start(&self, first: Player) -> VariantState {
        wrap_state!(self, r => r.start(first))
    }
    fn training_start(&self, first: Player, variety: u64) -> VariantState {
        wrap_state!(self, r => r.training_start(first, variety))
    }
    #[inline]
    fn to_play(&self, s: &VariantState) -> Option<Player> {
        with_state!(self, s, r, s => r.to_play(s))
    }
    #[inline]
    fn legal_mask(&self, s: &VariantState) -> ActionMask {
        with_state!(self, s, r, s => r.legal_mask(s))
    }
    #[inline]
    fn apply<T: Trace>(&self, s: &mut VariantState, action: Action, trace: &mut T) {
        with_state!(self, s, r, s => r.apply(s, action, trace))
    }
    fn play_for_outcome(&self, s: &mut VariantState, action: Action) {
        with_state!(self, s, r, s => r.play_for_outcome(s, action))
    }
    fn scores(&self, s: &VariantState) -> [i32; 2] {
        with_state!(self, s, r, s => r.scores(s))
    }
    fn returns(&self, s: &VariantState) -> [f32; 2] {
        with_state!(self, s, r, s => r.returns(s))
    }
    fn heuristic(&self, s: &VariantState, view: Player) -> i32 {
        with_state!(self, s, r, s => r.heuristic(s, view))
    }
    fn heuristic_bound(&self) -> i32 {
        with_rules!(self, r => r.heuristic_bound())
    }
    fn round(&self, s: &VariantState) -> u32 {
        with_state!(self, s, r, s => r.round(s))
    }
    fn ply(&self, s: &VariantState) -> u32 {
        with_state!(self, s, r, s => r.ply(s))
    }
    fn observe(&self, s: &VariantState, out: &mut [f32]) {
        with_state!(self, s, r, s => r.observe(s, out))
    }
    fn tactics_len(&self) -> usize {
        with_rules!(self, r => r.tactics_len())
    }
    fn gain_measure(&self, s: &VariantState, view: Player) -> i32 {
        with_state!(self, s, r, s => r.gain_measure(s, view))
    }
    fn gains(&self, s: &VariantState, out: &mut [f32]) {
        with_state!(self, s, r, s => r.gains(s, out))
    }
    fn tactics(&self, s: &VariantState, out: &mut [f32]) {
        with_state!(self, s, r, s => r.tactics(s, out))
    }
    fn snapshot(&self, s: &VariantState) -> Snapshot {
        with_state!(self, s, r, s => r.snapshot(s))
    }
    fn hash(&self, s: &VariantState) -> u64 {
        with_state!(self, s, r, s => r.hash(s))
    }
    fn memory_hash(&self, s: &VariantState) -> u64 {
        with_state!(self, s, r, s => r.memory_hash(s))
    }
    fn notation(&self, s: &VariantState) -> String {
        with_state!(self, s, r, s => r.notation(s))
    }
    fn parse_notation(&self, text: &str) -> Result<VariantState, ParseError> {
        wrap_result!(self, r => r.parse_notation(text))
    }
    fn render(&self, s: &VariantState) -> String {
        with_state!(self, s, r, s => r.render(s))
    }
    fn render_from(&self, s: &VariantState, seat: Player) -> String {
        with_state!(self, s, r, s => r.render_from(s, seat))
    }
    fn continues_turn(&self, s: &VariantState) -> bool {
        with_state!(self, s, r, s => r.continues_turn(s))
    }
    fn action_name(&self, s: &VariantState, action: Action) -> String {
        with_state!(self, s, r, s => r.action_name(s, action))
    }
    fn action_pit(&self, s: &VariantState, action: Action) -> Option<usize> {
        with_state!(self, s, r, s => r.action_pit(s, action))
    }
    fn describe(&self) -> String {
        with_rules!(self, r => r.describe())
    }
    fn state_size(&self) -> usize {
        with_rules!(self, r => r.state_size())
    }
}
