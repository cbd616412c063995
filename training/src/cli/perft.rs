use anyhow::Result;
use ayo_env::{perft, Player, Rules};

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    game: super::VariantArgs,
    /// Depth in plies.
    #[arg(long)]
    depth: u32,
    /// Start from this position (the variant's notation) instead of the start position.
    #[arg(long)]
    position: Option<String>,
}

pub fn run(a: Args) -> Result<()> {
    let v = a.game.rules()?;
    let start = match &a.position {
        Some(p) => v.parse_notation(p)?,
        None => v.start(Player::South),
    };
    println!("{}", perft(&v, &start, a.depth));
    Ok(())
}
