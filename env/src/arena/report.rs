//! The report of a tournament: the Elo table with its intervals, the likelihood of
//! superiority, the cross-table with pentanomial counts and the SPRT verdict — built from the
//! played pairs, rendered as text tables, written as JSON and CSV (`ayo tournament`).

use crate::agent::Agent;
use crate::arena::rating::{CrossTable, GamePair, Ratings, Sprt, SprtDecision, Wdl};
use crate::arena::tournament::{self, PlayedPair};
use crate::variant::Variant;
use serde::Serialize;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// A report file that could not be written.
#[derive(Debug, thiserror::Error)]
#[error("cannot write {path}: {source}")]
pub struct ReportError {
    pub path: PathBuf,
    pub source: std::io::Error,
}

/// One row of the Elo table.
#[derive(Serialize)]
pub struct RatingRow {
    pub rank: usize,
    pub name: String,
    pub elo: f64,
    pub low: f64,
    pub high: f64,
    pub games: u32,
    /// Share of the points, 0 to 1.
    pub score: f64,
    /// Share of drawn games, 0 to 1.
    pub draws: f64,
}

/// One pairing of the cross-table, from `player`'s side.
#[derive(Serialize)]
pub struct CrossRow {
    pub player: String,
    pub opponent: String,
    pub as_south: Wdl,
    pub as_north: Wdl,
    /// Pairs scoring 0, ½, 1, 1½, 2 points (LL, LD, DD+WL, WD, WW).
    pub pentanomial: [u32; 5],
    /// Normalized Elo from these pairs with its 95 % interval
    /// ([`crate::arena::rating::Pentanomial::nelo`]).
    pub nelo: Option<[f64; 3]>,
    /// Different games of this pairing ([`tournament::distinct_games`]).
    pub distinct: usize,
}

#[derive(Serialize)]
pub struct SprtReport {
    #[serde(flatten)]
    pub test: Sprt,
    pub llr: f64,
    pub lower: f64,
    pub upper: f64,
    pub decision: SprtDecision,
    pub pairs: u32,
}

/// Everything `ayo tournament` writes to `tournament.json`.
#[derive(Serialize)]
pub struct Report {
    pub variant: String,
    pub players: Vec<String>,
    pub anchor: String,
    pub confidence: f64,
    pub pairs: usize,
    pub games: usize,
    pub truncated_games: u32,
    /// Different games among them ([`tournament::distinct_games`]).
    pub distinct_games: usize,
    pub opening_plies: u32,
    /// The opening book the pairs started from, when one replaced the random openings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub book: Option<String>,
    /// The folders whose recorded games were rated, when none was played (`--records`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub records: Vec<String>,
    pub seed: u64,
    pub seconds: f64,
    pub ratings: Vec<RatingRow>,
    /// `los[i][j]`: likelihood that player `i` is stronger than player `j`.
    pub los: Vec<Vec<f64>>,
    pub crosstable: Vec<CrossRow>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sprt: Option<SprtReport>,
}

/// The report of a finished tournament: ratings ordered by Elo, the cross-table, the SPRT.
#[allow(clippy::too_many_arguments)]
pub fn build(
    opening_plies: u32,
    seed: u64,
    rules: &Variant,
    names: &[String],
    played: &[PlayedPair],
    ratings: &Ratings,
    seconds: f64,
    sprt: Option<SprtReport>,
) -> Report {
    let n = names.len();
    let pairs: Vec<GamePair> = played.iter().map(|p| p.result).collect();
    let table = CrossTable::new(n, &pairs);
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&i, &j| ratings.elo[j].total_cmp(&ratings.elo[i]));
    let rows = order
        .iter()
        .enumerate()
        .map(|(rank, &i)| {
            let draws: u32 = (0..n).map(|j| table.total(i, j).draws).sum();
            let games = ratings.games[i];
            RatingRow {
                rank: rank + 1,
                name: names[i].clone(),
                elo: ratings.elo[i],
                low: ratings.low[i],
                high: ratings.high[i],
                games,
                score: ratings.points[i] / games.max(1) as f64,
                draws: draws as f64 / games.max(1) as f64,
            }
        })
        .collect();
    let mut crosstable = Vec::new();
    for i in 0..n {
        for j in 0..n {
            if i != j && table.total(i, j).games() > 0 {
                crosstable.push(CrossRow {
                    player: names[i].clone(),
                    opponent: names[j].clone(),
                    as_south: table.seats[i][j][0],
                    as_north: table.seats[i][j][1],
                    pentanomial: table.pentanomial[i][j].counts,
                    nelo: table.pentanomial[i][j]
                        .nelo()
                        .map(|(n, lo, hi)| [n, lo, hi]),
                    distinct: tournament::distinct_games(played.iter().filter(|p| {
                        let (a, b) = (p.result.a, p.result.b);
                        (a, b) == (i, j) || (a, b) == (j, i)
                    })),
                });
            }
        }
    }
    Report {
        variant: rules.to_string(),
        players: names.to_vec(),
        anchor: names[ratings.anchor].clone(),
        confidence: ratings.confidence,
        pairs: played.len(),
        games: 2 * played.len(),
        truncated_games: played.iter().map(|p| p.truncated).sum(),
        distinct_games: tournament::distinct_games(played),
        opening_plies,
        book: None,
        records: Vec::new(),
        seed,
        seconds,
        ratings: rows,
        los: ratings.los.clone(),
        crosstable,
        sprt,
    }
}

/// The report as text tables: the heading, the ratings, the likelihood of superiority (more
/// than two players), the cross-table and the SPRT's verdict.
pub fn render(r: &Report) -> String {
    let mut s = String::new();
    let width = r.players.iter().map(|n| n.len()).max().unwrap_or(4).max(6);
    render_ratings(&mut s, r, width);
    if r.players.len() > 2 {
        render_los(&mut s, r, width);
    }
    render_crosstable(&mut s, r, width);
    if let Some(t) = &r.sprt {
        let verdict = match t.decision {
            SprtDecision::AcceptH1 => "H1 accepted: the new player is stronger",
            SprtDecision::AcceptH0 => "H0 accepted: the new player is not stronger",
            SprtDecision::Continue => "undecided (game limit reached)",
        };
        let _ = writeln!(
            s,
            "\nSPRT [{}, {}] alpha {} beta {}: LLR {:.2} ({:.2}, {:.2}) after {} pairs — {verdict}",
            t.test.elo0, t.test.elo1, t.test.alpha, t.test.beta, t.llr, t.lower, t.upper, t.pairs
        );
    }
    s
}

/// The heading and the ratings table.
fn render_ratings(s: &mut String, r: &Report, width: usize) {
    // Games rated from their records took no time here.
    let (openings, time) = if r.records.is_empty() {
        let openings = match &r.book {
            Some(book) => format!("openings from {book}"),
            None => format!("{} plies of random opening", r.opening_plies),
        };
        (openings, format!(", {:.1} s", r.seconds))
    } else {
        let folders = r.records.join(", ");
        (format!("the games recorded in {folders}"), String::new())
    };
    let _ = writeln!(
        s,
        "{} — {} games in {} pairs ({openings}, {} distinct games){time}; Elo anchored on {}",
        r.variant, r.games, r.pairs, r.distinct_games, r.anchor
    );
    if r.truncated_games > 0 {
        let _ = writeln!(
            s,
            "{} games cut by the ply cap (scored draws)",
            r.truncated_games
        );
    }
    let _ = writeln!(
        s,
        "\n{:>4}  {:<width$}  {:>7}  {:>18}  {:>6}  {:>6}  {:>6}",
        "Rank",
        "Player",
        "Elo",
        format!("{:.0}% interval", r.confidence * 100.0),
        "Games",
        "Score",
        "Draws"
    );
    for row in &r.ratings {
        let _ = writeln!(
            s,
            "{:>4}  {:<width$}  {:>+7.1}  [{:>+7.1}, {:>+7.1}]  {:>6}  {:>5.1}%  {:>5.1}%",
            row.rank,
            row.name,
            row.elo,
            row.low,
            row.high,
            row.games,
            100.0 * row.score,
            100.0 * row.draws
        );
    }
}

/// The likelihood that each player is stronger than each other.
fn render_los(s: &mut String, r: &Report, width: usize) {
    let _ = writeln!(
        s,
        "\nLikelihood of superiority (row stronger than column, both by rank), %:"
    );
    // The players in the ratings table's order, numbered by their rank.
    let order: Vec<usize> = r
        .ratings
        .iter()
        .map(|row| {
            r.players
                .iter()
                .position(|p| *p == row.name)
                .expect("a rated player")
        })
        .collect();
    let label = width + 4;
    let _ = write!(s, "{:<label$}", "");
    for k in 1..=order.len() {
        let _ = write!(s, "  {k:>5}");
    }
    let _ = writeln!(s);
    for (rank, &i) in order.iter().enumerate() {
        let _ = write!(s, "{:<label$}", format!("{:>2} {}", rank + 1, r.players[i]));
        for &j in &order {
            if i == j {
                let _ = write!(s, "  {:>5}", "-");
            } else {
                let _ = write!(s, "  {:>5.1}", 100.0 * r.los[i][j]);
            }
        }
        let _ = writeln!(s);
    }
}

/// Each pairing once (the first player listed first): W-D-L by seat, pairs, distinct games.
fn render_crosstable(s: &mut String, r: &Report, width: usize) {
    let _ = writeln!(
        s,
        "\nCross-table (W-D-L of the first player; pairs LL LD DD/WL WD WW; nElo, 95 % interval; distinct games):"
    );
    let position = |name: &str| r.players.iter().position(|n| n == name).unwrap_or(0);
    for row in r
        .crosstable
        .iter()
        .filter(|row| position(&row.player) < position(&row.opponent))
    {
        let p = row.pentanomial;
        let nelo = match row.nelo {
            Some([n, lo, hi]) => format!("nElo {n:+.0} [{lo:+.0}, {hi:+.0}]"),
            None => "nElo -".into(),
        };
        let _ = writeln!(
            s,
            "{:<width$} vs {:<width$}  as South {:>9}  as North {:>9}  pairs {} {} {} {} {}  {nelo}  distinct {}",
            row.player,
            row.opponent,
            row.as_south.to_string(),
            row.as_north.to_string(),
            p[0],
            p[1],
            p[2],
            p[3],
            p[4],
            row.distinct
        );
    }
}

/// Writes `tournament.json`, `tournament.txt`, `ratings.csv`, `crosstable.csv` and `los.csv`
/// into `out`.
pub fn write(out: &Path, r: &Report) -> Result<(), ReportError> {
    std::fs::create_dir_all(out).map_err(|source| ReportError {
        path: out.to_path_buf(),
        source,
    })?;
    let write = |name: &str, text: String| -> Result<(), ReportError> {
        let path = out.join(name);
        std::fs::write(&path, text).map_err(|source| ReportError { path, source })
    };
    write(
        "tournament.json",
        serde_json::to_string_pretty(r).expect("the report serialises"),
    )?;
    write("tournament.txt", render(r))?;
    let mut csv = String::from("rank,name,elo,low,high,games,score,draws\n");
    for row in &r.ratings {
        let _ = writeln!(
            csv,
            "{},{},{:.2},{:.2},{:.2},{},{:.4},{:.4}",
            row.rank,
            quote(&row.name),
            row.elo,
            row.low,
            row.high,
            row.games,
            row.score,
            row.draws
        );
    }
    write("ratings.csv", csv)?;
    let mut csv = String::from(
        "player,opponent,south_w,south_d,south_l,north_w,north_d,north_l,pairs_ll,pairs_ld,pairs_dd_wl,pairs_wd,pairs_ww,nelo,nelo_low,nelo_high,distinct\n",
    );
    for row in &r.crosstable {
        let (s, n, p) = (row.as_south, row.as_north, row.pentanomial);
        let _ = writeln!(
            csv,
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
            quote(&row.player),
            quote(&row.opponent),
            s.wins,
            s.draws,
            s.losses,
            n.wins,
            n.draws,
            n.losses,
            p[0],
            p[1],
            p[2],
            p[3],
            p[4],
            row.nelo
                .map_or(",,".into(), |[n, lo, hi]| format!("{n:.1},{lo:.1},{hi:.1}")),
            row.distinct
        );
    }
    write("crosstable.csv", csv)?;
    let mut csv = String::from("player");
    for name in &r.players {
        csv.push(',');
        csv.push_str(&quote(name));
    }
    csv.push('\n');
    for (i, name) in r.players.iter().enumerate() {
        csv.push_str(&quote(name));
        for x in &r.los[i] {
            let _ = write!(csv, ",{x:.4}");
        }
        csv.push('\n');
    }
    write("los.csv", csv)?;
    Ok(())
}

/// A CSV field, quoted when it holds a comma or a quote.
fn quote(field: &str) -> String {
    if field.contains([',', '"', '\n']) {
        format!("\"{}\"", field.replace('"', "\"\""))
    } else {
        field.to_string()
    }
}

/// The file of one game of pair `number` (from 1) in `dir`: `pair-NNNNN-a.json` for the game
/// with the pair's first player South (`leg` 0), `…-b.json` for the other.
fn pair_file(dir: &Path, number: usize, leg: usize) -> PathBuf {
    dir.join(format!("pair-{number:05}-{}.json", ["a", "b"][leg]))
}

/// Writes both game records of `pair` into `dir` (`pair-NNNNN-a.json`, `…-b.json`).
pub fn write_pair(dir: &Path, pair: &PlayedPair) -> Result<(), ReportError> {
    for (leg, record) in pair.records.iter().enumerate() {
        let path = pair_file(dir, pair.index + 1, leg);
        std::fs::write(&path, record.to_json()).map_err(|source| ReportError { path, source })?;
    }
    Ok(())
}

/// The two files of every pair [`write_pair`] wrote into `dir`, by pair number: each
/// `pair-NNNNN-a.json` found with its `-b.json` (whether that one is there is the reader's to say).
pub fn pair_files(dir: &Path) -> std::io::Result<Vec<[PathBuf; 2]>> {
    let mut numbers = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let name = entry?.file_name();
        let number = name.to_str().and_then(|n| {
            n.strip_prefix("pair-")?
                .strip_suffix("-a.json")?
                .parse::<usize>()
                .ok()
        });
        numbers.extend(number);
    }
    numbers.sort_unstable();
    Ok(numbers
        .into_iter()
        .map(|k| [pair_file(dir, k, 0), pair_file(dir, k, 1)])
        .collect())
}

/// Agent names, made unique by a `#k` suffix where the same agent plays twice.
pub fn unique_names(agents: &[Box<dyn Agent>]) -> Vec<String> {
    let raw: Vec<String> = agents.iter().map(|a| a.name()).collect();
    raw.iter()
        .enumerate()
        .map(|(i, name)| {
            let same = raw.iter().filter(|n| *n == name).count();
            if same > 1 {
                let k = raw[..=i].iter().filter(|n| *n == name).count();
                format!("{name}#{k}")
            } else {
                name.clone()
            }
        })
        .collect()
}
