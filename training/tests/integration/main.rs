//! The training crate's integration tests, one module per subject, in one test binary: each
//! binary links libtorch and the whole crate (about 140 MB), so there is one such link
//! instead of eleven (docs/performance.md has the suite's time by stage).

mod accuracy;
mod cli_bench;
mod cli_train;
mod common;
mod cpu_net;
mod distributed;
mod docs_training;
mod engine_play_tournament;
mod fuzz_regressions;
mod models;
mod serve_api;
mod serve_browser;
mod shipped_settings;
