//! A book of moves: the move to play in each of a set of positions (the opening), chosen
//! once by a deep search (`ayo book`), played instead of searching. Any agent spec may end
//! in `+book=FILE` ([`Booked`]): the agent plays the book's move where the position is in
//! the book and searches as before everywhere else.
//!
//! A book is a text file: a header naming the rules it was made for, then one position per
//! line in the variant's notation, a tab, the move's action number, a tab and the value the
//! search gave it (for the player to move, in [-1, 1]):
//!
//! ```text
//! # ayo book of moves
//! # rules: oware@1
//! # options:
//! 4 4 4 4 4 4 4 4 4 4 4 4 | 0 0 | 0<TAB>5<TAB>+0.112
//! ```
//!
//! Loading checks every line against the rules: the notation must parse to a live game and
//! the move must be legal there.

use super::tournament::BookError;
use crate::action::Action;
use crate::agent::{Agent, Analysis, Budget, Progress};
use crate::variant::{Variant, VariantState};
use crate::Rules;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;

/// The first line of a book of moves.
pub const BOOK_MAGIC: &str = "# ayo book of moves";

/// One position's entry: the move and the value the search gave it for the player to move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BookMove {
    pub action: Action,
    pub value: Option<f32>,
}

/// A book of moves asked about a game of other rules.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the book of moves {book} is for {made_for}, not for {rules}")]
pub struct BookRulesError {
    pub book: String,
    pub made_for: String,
    pub rules: String,
}

/// A book of moves for one variant with its options ([module docs](self)).
#[derive(Clone, Debug)]
pub struct Book {
    path: String,
    rules: Variant,
    moves: HashMap<String, BookMove>,
}

impl Book {
    /// Reads and checks the book at `path`.
    pub fn load(path: &Path) -> Result<Book, BookError> {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|source| BookError::Read {
            path: name.clone(),
            source,
        })?;
        Book::parse(&text, &name)
    }

    /// The book written in `text` (`path` names it in errors).
    pub fn parse(text: &str, path: &str) -> Result<Book, BookError> {
        let line_error = |n: usize, text: &str, reason: String| BookError::Line {
            path: path.to_string(),
            line: n + 1,
            text: text.to_string(),
            reason,
        };
        let mut lines = text.lines().enumerate();
        match lines.next() {
            Some((_, first)) if first.trim() == BOOK_MAGIC => {}
            first => {
                let (n, text) = first.unwrap_or((0, ""));
                return Err(line_error(
                    n,
                    text,
                    format!("not a book of moves: expected the first line {BOOK_MAGIC:?}"),
                ));
            }
        }
        let (mut id, mut options) = (None, String::new());
        let mut moves = HashMap::new();
        let mut rules: Option<Variant> = None;
        for (n, line) in lines {
            if let Some(comment) = line.strip_prefix('#') {
                let comment = comment.trim();
                if let Some(v) = comment.strip_prefix("rules:") {
                    id = Some(v.trim().to_string());
                } else if let Some(v) = comment.strip_prefix("options:") {
                    options = v.trim().to_string();
                }
                continue;
            }
            if line.trim().is_empty() {
                continue;
            }
            let bad = |reason: String| line_error(n, line, reason);
            let rules = match &rules {
                Some(r) => r,
                None => {
                    let id = id
                        .as_deref()
                        .ok_or_else(|| bad("no `# rules: NAME@VERSION` line above it".into()))?;
                    let parsed = Variant::parse_options(&options)
                        .and_then(|o| Variant::new(id, &o))
                        .map_err(|e| bad(format!("the book's rules {id:?} {options:?}: {e}")))?;
                    rules.insert(parsed)
                }
            };
            let mut fields = line.split('\t');
            let (Some(position), Some(action)) = (fields.next(), fields.next()) else {
                return Err(bad("expected POSITION<tab>ACTION<tab>VALUE".into()));
            };
            let state = rules
                .parse_notation(position.trim())
                .map_err(|e| bad(e.to_string()))?;
            if rules.is_terminal(&state) {
                return Err(bad("the game is over in this position".into()));
            }
            let action: Action = action
                .trim()
                .parse()
                .map_err(|_| bad(format!("action {action:?} is not an action number")))?;
            if !rules.legal_mask(&state).contains(action) {
                return Err(bad(format!(
                    "action {action} is not legal here (legal: {:?})",
                    rules.legal_actions(&state)
                )));
            }
            let value = match fields.next().map(str::trim) {
                None | Some("") => None,
                Some(v) => Some(
                    v.parse::<f32>()
                        .ok()
                        .filter(|v| (-1.0..=1.0).contains(v))
                        .ok_or_else(|| bad(format!("value {v:?} is not a number in [-1, 1]")))?,
                ),
            };
            moves.insert(rules.notation(&state), BookMove { action, value });
        }
        let Some(rules) = rules else {
            return Err(BookError::Empty {
                path: path.to_string(),
            });
        };
        Ok(Book {
            path: path.to_string(),
            rules,
            moves,
        })
    }

    /// The text of a book for `rules` holding `moves` (keyed by notation), sorted, with
    /// `comments` (one `# ` line each) after the header.
    pub fn write(rules: &Variant, moves: &[(String, BookMove)], comments: &[String]) -> String {
        let mut text = format!(
            "{BOOK_MAGIC}\n# rules: {}\n# options: {}\n",
            rules.id(),
            options_text(rules)
        );
        for c in comments {
            let _ = writeln!(text, "# {c}");
        }
        let mut sorted: Vec<&(String, BookMove)> = moves.iter().collect();
        sorted.sort_by(|a, b| a.0.cmp(&b.0));
        for (position, m) in sorted {
            let _ = match m.value {
                Some(v) => writeln!(text, "{position}\t{}\t{v:+.3}", m.action),
                None => writeln!(text, "{position}\t{}", m.action),
            };
        }
        text
    }

    /// The file it was read from.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The rules (with their options) it was made for.
    pub fn rules(&self) -> &Variant {
        &self.rules
    }

    /// Positions in the book.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The positions (in notation) and their moves, in no order.
    pub fn entries(&self) -> impl Iterator<Item = (&String, &BookMove)> {
        self.moves.iter()
    }

    /// Whether a game of `rules` may use this book: the same variant, version and options.
    pub fn fits(&self, rules: &Variant) -> bool {
        *rules == self.rules
    }

    /// [`Book::fits`] as a result, the error naming the book and both rules.
    pub fn check_rules(&self, rules: &Variant) -> Result<(), BookRulesError> {
        match self.fits(rules) {
            true => Ok(()),
            false => Err(BookRulesError {
                book: self.path.clone(),
                made_for: self.rules.to_string(),
                rules: rules.to_string(),
            }),
        }
    }

    /// The book's move in `state`, if the position is in the book. Panics on a game of other
    /// rules ([`Book::check_rules`] first).
    pub fn get(&self, rules: &Variant, state: &VariantState) -> Option<BookMove> {
        if let Err(e) = self.check_rules(rules) {
            panic!("{e}");
        }
        self.moves.get(&rules.notation(state)).copied()
    }
}

/// `rules`' options as `key=value,key=value` (empty for none).
fn options_text(rules: &Variant) -> String {
    let options: Vec<String> = rules
        .options()
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    options.join(",")
}

/// An agent that plays a [`Book`]'s move where it has one and otherwise lets `inner` choose:
/// the spec `SPEC+book=FILE`.
pub struct Booked {
    inner: Box<dyn Agent>,
    book: std::sync::Arc<Book>,
}

impl Booked {
    pub fn new(inner: Box<dyn Agent>, book: std::sync::Arc<Book>) -> Booked {
        Booked { inner, book }
    }

    fn answer(m: BookMove) -> (Action, Analysis) {
        let analysis = Analysis {
            value: m.value,
            ..Analysis::default()
        };
        (m.action, analysis)
    }
}

impl Agent for Booked {
    fn name(&self) -> String {
        format!("{}+book", self.inner.name())
    }

    fn choose(&mut self, rules: &Variant, state: &VariantState) -> (Action, Analysis) {
        match self.book.get(rules, state) {
            Some(m) => Booked::answer(m),
            None => self.inner.choose(rules, state),
        }
    }

    fn random_state(&self) -> Option<u64> {
        self.inner.random_state()
    }

    fn set_random_state(&mut self, state: u64) {
        self.inner.set_random_state(state)
    }

    fn choose_batch(
        &mut self,
        rules: &Variant,
        states: &[&VariantState],
    ) -> Vec<(Action, Analysis)> {
        let known: Vec<Option<BookMove>> = states.iter().map(|s| self.book.get(rules, s)).collect();
        let rest: Vec<&VariantState> = states
            .iter()
            .zip(&known)
            .filter(|(_, k)| k.is_none())
            .map(|(s, _)| *s)
            .collect();
        let mut searched = if rest.is_empty() {
            Vec::new()
        } else {
            self.inner.choose_batch(rules, &rest)
        }
        .into_iter();
        known
            .into_iter()
            .map(|k| match k {
                Some(m) => Booked::answer(m),
                None => searched.next().expect("one answer per searched game"),
            })
            .collect()
    }

    fn think(
        &mut self,
        rules: &Variant,
        state: &VariantState,
        budget: Budget,
        progress: &mut dyn FnMut(&Progress) -> bool,
    ) -> (Action, Analysis) {
        match self.book.get(rules, state) {
            Some(m) => {
                progress(&Progress {
                    pv: vec![m.action],
                    value: m.value,
                    work: 0,
                    elapsed: std::time::Duration::ZERO,
                    table_hits: 0,
                });
                Booked::answer(m)
            }
            None => self.inner.think(rules, state, budget, progress),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::agents;
    use crate::Player;

    fn oware() -> Variant {
        "oware".parse().unwrap()
    }

    /// A book holding the start with move `action`.
    fn start_book(action: Action) -> String {
        let rules = oware();
        let start = rules.notation(&rules.start(Player::South));
        let m = BookMove {
            action,
            value: Some(0.25),
        };
        Book::write(&rules, &[(start, m)], &["a test".into()])
    }

    #[test]
    fn a_booked_agent_plays_the_book_in_its_positions_and_searches_elsewhere() {
        let rules = oware();
        let book = std::sync::Arc::new(Book::parse(&start_book(2), "t").unwrap());
        assert_eq!(book.len(), 1);
        let mut agent = Booked::new(agents::parse("greedy", 1).unwrap(), book);
        assert_eq!(agent.name(), "greedy+book");
        let start = rules.start(Player::South);
        let (a, analysis) = agent.choose(&rules, &start);
        assert_eq!((a, analysis.value, analysis.work), (2, Some(0.25), 0));
        let mut after = start.clone();
        rules.play(&mut after, 2).unwrap();
        // Out of the book: greedy's own choice, among the legal moves.
        let states = [&start, &after, &start];
        let batch = agent.choose_batch(&rules, &states);
        assert_eq!(batch[0].0, 2);
        assert_eq!(batch[2].0, 2);
        assert!(rules.legal_mask(&after).contains(batch[1].0));
        let mut seen = Vec::new();
        let (a, _) = agent.think(&rules, &start, Budget::Own, &mut |p| {
            seen.push(p.pv.clone());
            true
        });
        assert_eq!((a, seen), (2, vec![vec![2]]));
    }

    #[test]
    fn a_book_round_trips_and_bad_books_are_refused_with_the_line() {
        let text = start_book(4);
        let book = Book::parse(&text, "t").unwrap();
        let rules = oware();
        let entry = book.get(&rules, &rules.start(Player::South)).unwrap();
        assert_eq!(entry.action, 4);
        let error = |t: &str| Book::parse(t, "b.txt").unwrap_err().to_string();
        assert!(error("x\n").contains("not a book of moves"));
        let illegal = text.replace("\t4\t", "\t9\t");
        assert!(
            error(&illegal).contains("action 9 is not legal"),
            "{}",
            error(&illegal)
        );
        let no_rules = text.replace("# rules: oware@1", "");
        assert!(error(&no_rules).contains("no `# rules"));
        let other = text.replace("oware@1", "owari@1");
        assert!(error(&other).contains("b.txt line 5"), "{}", error(&other));
        assert!(error(&other).contains("the book's rules \"owari@1\""));
        let value = text.replace("+0.250", "7");
        assert!(error(&value).contains("value \"7\""));
        assert!(error(BOOK_MAGIC).contains("no positions"));
        // Another variant's game may not use it.
        let ayo: Variant = "ayo".parse().unwrap();
        assert!(!book.fits(&ayo));
        assert!(book.fits(&rules));
    }
}
