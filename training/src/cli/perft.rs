use anyhow::Result;
use ayo_env::{perft, Player, Rules};

#[derive(clap::Args)]
pub struct Args {
    /// Variant name, e.g. `oware`.
    #[arg(long)]
    variant: String,
    /// Depth in plies.
    #[arg(long)]
    depth: u32,
    /// Options as `key=value,key=value`.
    #[arg(long)]
    options: Option<String>,
    /// Start from this position (the variant's notation) instead of the start position.
    #[arg(long)]
    position: Option<String>,
}

pub fn run(a: Args) -> Result<()> {
    let v = super::variant(&a.variant, a.options.as_deref())?;
    let start = match &a.position {
        Some(p) => v.parse_notation(p)?,
        None => v.start(Player::South),
    };
    println!("{}", perft(&v, &start, a.depth));
    Ok(())
}
