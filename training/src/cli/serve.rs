//! `ayo serve`: the web page for playing, watching and reviewing games (see docs/serve.md).

use anyhow::{Context, Result};
use std::io::Write;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// Port to listen on (0: any free port; the address is printed).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Address to bind: the loopback interface unless you mean to share the page.
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// Folder searched for checkpoints (`*.ot`) to offer as opponents and for analysis.
    #[arg(long, default_value = "models")]
    models: PathBuf,
    /// An endgame table (`ayo egtb build`): the analysis of an `oware` position adds its exact
    /// value, or bounds, and the moves that keep the result.
    #[arg(long, value_name = "DIR")]
    tablebase: Option<PathBuf>,
}

pub fn run(a: Args) -> Result<()> {
    let table = a
        .tablebase
        .as_deref()
        .map(ayo_env::tablebase::open_shared)
        .transpose()?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind((a.host.as_str(), a.port))
            .await
            .with_context(|| format!("cannot listen on {}:{}", a.host, a.port))?;
        let address = listener.local_addr()?;
        println!("ayo serve: listening on http://{address}/");
        std::io::stdout().flush()?;
        let state = ayo_train::serve::AppState::with_tablebase(a.models, table);
        ayo_train::serve::serve(listener, state)
            .await
            .context("the server stopped")
    })
}
