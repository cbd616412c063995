use anyhow::Result;
use ayo_env::{Player, Rules};

#[derive(clap::Args)]
pub struct Args {
    /// Variant name, e.g. `oware` or `oware@1`.
    variant: String,
    /// Options as `key=value,key=value`.
    #[arg(long)]
    options: Option<String>,
}

pub fn run(a: Args) -> Result<()> {
    let v = super::variant(&a.variant, a.options.as_deref())?;
    println!("{}", v.describe());
    println!(
        "\nAction space: {} actions; observation: {} floats.",
        v.num_actions(),
        v.observation_len()
    );
    println!(
        "\nStart position (notation: {}):\n{}",
        v.notation(&v.start(Player::South)),
        v.render(&v.start(Player::South))
    );
    Ok(())
}
