//! The fuzz targets link ayo-train, hence libtorch: the same rpath and link flags as the `ayo`
//! binary, from the one build script that finds libtorch.

#[path = "../training/build.rs"]
mod torch_rpath;

fn main() {
    println!("cargo:rerun-if-changed=../training/build.rs");
    torch_rpath::main();
}
