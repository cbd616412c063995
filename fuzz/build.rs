//! Embeds an rpath to libtorch's shared libraries in the fuzz targets (they link ayo-train), so
//! they run without LD_LIBRARY_PATH; the directory is found as training/build.rs (and torch-sys)
//! find it: `python -c 'import torch'` of the project virtualenv (`source scripts/env.sh`), or
//! `LIBTORCH`/`LIBTORCH_LIB`.

use std::env;
use std::path::PathBuf;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    for var in [
        "LIBTORCH_USE_PYTORCH",
        "LIBTORCH",
        "LIBTORCH_LIB",
        "VIRTUAL_ENV",
    ] {
        println!("cargo:rerun-if-env-changed={var}");
    }
    let dir = if env::var_os("LIBTORCH_USE_PYTORCH").is_some() {
        let python = if env::var_os("VIRTUAL_ENV").is_some() {
            "python"
        } else {
            "python3"
        };
        Command::new(python)
            .args([
                "-c",
                "import torch, os; print(os.path.join(os.path.dirname(torch.__file__), 'lib'))",
            ])
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()))
    } else if let Some(lib) = env::var_os("LIBTORCH_LIB") {
        Some(PathBuf::from(lib).join("lib"))
    } else {
        env::var_os("LIBTORCH").map(|root| PathBuf::from(root).join("lib"))
    };
    match dir.filter(|d| d.is_dir()) {
        Some(dir) => println!("cargo:rustc-link-arg=-Wl,-rpath,{}", dir.display()),
        None => println!("cargo:warning=ayo-fuzz: no rpath to libtorch (source scripts/env.sh)"),
    }
}
