//! `ayo`: rules, perft, replay, bench, training, evaluation, tournaments, engine and play for the
//! Ayo family.

use anyhow::Result;
use clap::{Parser, Subcommand};

mod cli;

/// Reinforcement-learning environment and AlphaZero-style trainer for Ayo and its relatives.
#[derive(Parser)]
#[command(name = "ayo", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print a variant's rules summary and its action encoding.
    Rules(cli::rules::Args),
    /// Count the action sequences of exactly D plies from the start position.
    Perft(cli::perft::Args),
    /// Replay a game record, printing the board after every move (or every drop with --detail).
    Replay(cli::replay::Args),
    /// Play agents and checkpoints in game pairs and rate them (Elo, intervals, cross-table).
    Tournament(cli::tournament::Args),
    /// Serve an agent over a line protocol on stdin/stdout (see docs/engine.md).
    Engine(cli::engine::Args),
    /// Play an agent in the terminal.
    Play(cli::play::Args),
    /// A self-play worker of a distributed run: plays with the run's newest network and writes
    /// shards to its storage (see docs/distributed.md).
    Selfplay(cli::selfplay::Args),
    /// Play, watch and review games in the browser (see docs/serve.md).
    Serve(cli::serve::Args),
    /// Show a checkpoint's metadata, or copy it with other play settings (its search's root).
    Checkpoint(cli::checkpoint::Args),
    /// Draw a learning curve PNG from the CSV that `ayo evaluate --csv` writes.
    Plot(cli::plot::Args),
    /// Steps per second of the scalar engine and of the vectorised env, and bytes per game.
    Bench(cli::bench::Args),
    /// Train an agent by self-play with a Gumbel search (AlphaZero-style); `--bench` measures throughput.
    Train(Box<cli::train::Args>),
    /// Play checkpoints against other agents: W-D-L, score and Elo with its 95 % interval
    /// (a table), and on request the learning curve (CSV, PNG).
    Evaluate(cli::evaluate::Args),
    /// Measure a variant's rating ladder: paired games between neighbouring reference players,
    /// their Elo anchored on random = 0 (docs/rating.md).
    Ladder(cli::ladder::Args),
    /// An agent's Elo on its variant's rating ladder, with its 95 % interval (docs/rating.md).
    Rate(cli::rate::Args),
    /// Endgame tables of oware: build, probe, verify against search, time (docs/tablebase.md).
    Egtb(cli::egtb::Args),
    /// How often an agent's move keeps the game's result on oware endgame positions, judged
    /// by the endgame table (docs/tablebase.md).
    Accuracy(cli::accuracy::Args),
    /// Make an opening book whose positions a judge's search finds neither decided nor dead level.
    Openings(cli::openings::Args),
    /// A book of moves for the opening, made by an agent's deep search along its own lines;
    /// any agent plays it with `SPEC+book=FILE` (docs/agents.md).
    Book(cli::book::Args),
}

fn main() -> Result<()> {
    match Cli::parse().command {
        Command::Rules(a) => cli::rules::run(a),
        Command::Perft(a) => cli::perft::run(a),
        Command::Replay(a) => cli::replay::run(a),
        Command::Tournament(a) => cli::tournament::run(a),
        Command::Engine(a) => cli::engine::run(a),
        Command::Play(a) => cli::play::run(a),
        Command::Serve(a) => cli::serve::run(a),
        Command::Selfplay(a) => cli::selfplay::run(a),
        Command::Checkpoint(a) => cli::checkpoint::run(a),
        Command::Plot(a) => cli::plot::run(a),
        Command::Bench(a) => cli::bench::run(a),
        Command::Train(a) => cli::train::run(*a),
        Command::Evaluate(a) => cli::evaluate::run(a),
        Command::Ladder(a) => cli::ladder::run(a),
        Command::Rate(a) => cli::rate::run(a),
        Command::Egtb(a) => cli::egtb::run(a),
        Command::Accuracy(a) => cli::accuracy::run(a),
        Command::Openings(a) => cli::openings::run(a),
        Command::Book(a) => cli::book::run(a),
    }
}
