//! Embed an rpath to libtorch's shared libraries in every binary of this
//! package (the `ayo` binary, unit/integration test binaries, examples,
//! benches) so they run without LD_LIBRARY_PATH.
//!
//! torch-sys finds libtorch and adds `-L<libtorch>/lib -ltorch ...`, but its
//! only `-Wl,-rpath` flag is handed to the C++ compiler while it builds its
//! static `libtch.a`, which never reaches the final link; and
//! `cargo:rustc-link-arg` from a dependency's build script does not
//! propagate. So each package that links libtorch into an executable needs
//! an rpath of its own, found here the same way torch-sys finds libtorch.
//!
//! It also links `libtorch.so` with `--no-as-needed`, as tch's own build.rs
//! does: rustc links with `--as-needed`, which drops `libtorch_cuda.so` (no
//! symbol of it is used directly) and leaves `tch::Cuda::is_available()`
//! false on a GPU machine. `libtorch.so` depends on `libtorch_cuda.so` in the
//! CUDA wheels, so keeping it loads the CUDA backend when there is one.

use std::env;
use std::path::PathBuf;
use std::process::Command;

const PRINT_TORCH_LIB: &str =
    "import torch, os; print(os.path.join(os.path.dirname(torch.__file__), 'lib'))";

pub fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    for var in [
        "LIBTORCH_USE_PYTORCH",
        "LIBTORCH",
        "LIBTORCH_LIB",
        "VIRTUAL_ENV",
    ] {
        println!("cargo:rerun-if-env-changed={var}");
    }

    // Without the `torch` feature nothing links libtorch (the fuzz targets' build).
    if env::var_os("CARGO_FEATURE_TORCH").is_none() {
        return;
    }
    let target_os = env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    if target_os != "linux" && target_os != "macos" {
        return;
    }

    match libtorch_lib_dir() {
        Ok(dir) => {
            println!("cargo:rustc-link-arg=-Wl,-rpath,{}", dir.display());
            if target_os == "linux" {
                println!("cargo:rustc-link-arg=-Wl,--no-as-needed");
                println!("cargo:rustc-link-arg=-ltorch");
            }
        }
        Err(msg) => {
            println!("cargo:warning=ayo-train: no rpath to libtorch: {msg}");
        }
    }
}

/// The directory holding libtorch's shared libraries, resolved exactly as
/// torch-sys 0.26 resolves it.
fn libtorch_lib_dir() -> Result<PathBuf, String> {
    if env::var_os("LIBTORCH_USE_PYTORCH").is_some() {
        // torch-sys runs `python` inside an activated virtualenv and
        // `python3` otherwise, whichever comes first on PATH.
        let python = if env::var_os("VIRTUAL_ENV").is_some() {
            "python"
        } else {
            "python3"
        };
        let out = Command::new(python)
            .args(["-c", PRINT_TORCH_LIB])
            .output()
            .map_err(|e| format!("cannot run {python}: {e}"))?;
        if !out.status.success() {
            return Err(format!(
                "{python} cannot import torch: {}",
                String::from_utf8_lossy(&out.stderr).trim()
            ));
        }
        let dir = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
        return check(dir);
    }
    if let Some(lib) = env::var_os("LIBTORCH_LIB") {
        return check(PathBuf::from(lib).join("lib"));
    }
    if let Some(root) = env::var_os("LIBTORCH") {
        return check(PathBuf::from(root).join("lib"));
    }
    Err("set LIBTORCH_USE_PYTORCH=1 (source scripts/env.sh) or LIBTORCH".to_owned())
}

fn check(dir: PathBuf) -> Result<PathBuf, String> {
    if dir.is_dir() {
        Ok(dir)
    } else {
        Err(format!("{} is not a directory", dir.display()))
    }
}
