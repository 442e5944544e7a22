//! Records the versions of the codec crates that Cargo.lock pins, so that reports can
//! name the exact implementation they measured.

use std::{env, fs, path::Path};

fn main() {
    let lock = Path::new(&env::var("CARGO_MANIFEST_DIR").unwrap()).join("Cargo.lock");
    println!("cargo:rerun-if-changed={}", lock.display());
    let Ok(text) = fs::read_to_string(&lock) else {
        return;
    };
    for (package, variable) in [
        ("brotli", "CODECBENCH_BROTLI_VERSION"),
        ("zlib-rs", "CODECBENCH_ZLIB_RS_VERSION"),
    ] {
        if let Some(version) = locked_version(&text, package) {
            println!("cargo:rustc-env={variable}={version}");
        }
    }
}

/// Finds `version = "..."` right after `name = "<package>"` in Cargo.lock.
fn locked_version(lock: &str, package: &str) -> Option<String> {
    let name_line = format!("name = \"{package}\"");
    let mut lines = lock.lines();
    while let Some(line) = lines.next() {
        if line.trim() == name_line {
            let version = lines.next()?.trim().strip_prefix("version = \"")?;
            return Some(version.trim_end_matches('"').to_string());
        }
    }
    None
}
