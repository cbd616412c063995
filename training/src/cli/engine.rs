//! `ayo engine`: an agent behind a line-based text protocol on stdin/stdout, in the spirit of
//! chess's UCI, so that GUIs and other programs can play our agents. The protocol is described
//! in `docs/engine.md` and implemented by the library module `ayo_train::engine`; this command
//! only loads the variant and the agent and wires stdin/stdout to it.

use anyhow::Result;

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    game: super::VariantArgs,
    #[command(flatten)]
    player: super::AgentArgs,
}

pub fn run(a: Args) -> Result<()> {
    let rules = a.game.rules()?;
    let mut agent = a.player.load(&rules)?;
    let stdout = std::io::stdout();
    let input = ayo_train::engine::StdinLines::spawn();
    ayo_train::engine::serve(&rules, agent.as_mut(), input, stdout.lock())?;
    Ok(())
}
