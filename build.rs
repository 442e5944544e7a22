//! Records what a run's environment report needs from build time: the versions of the
//! codec crates that Cargo.lock pins, the rustc version, and the git commit.

use std::{env, fs, path::Path, process::Command};

fn main() {
    if let Some(version) =
        command_output(&env::var("RUSTC").unwrap_or("rustc".into()), &["--version"])
    {
        println!("cargo:rustc-env=CODECBENCH_RUSTC_VERSION={version}");
    }
    // Rebuild when HEAD moves, so the recorded commit stays true.
    for git_file in [".git/HEAD", ".git/refs/heads", ".git/packed-refs"] {
        if Path::new(git_file).exists() {
            println!("cargo:rerun-if-changed={git_file}");
        }
    }
    if let Some(commit) = command_output("git", &["rev-parse", "HEAD"]) {
        println!("cargo:rustc-env=CODECBENCH_GIT_COMMIT={commit}");
        // Whether what the binary is built from differs from that commit: an edit to a
        // source or the lock file. Rerun on any, so that the flag stays true.
        let built_from = ["src", "build.rs", "Cargo.toml", "Cargo.lock"];
        for path in built_from {
            println!("cargo:rerun-if-changed={path}");
        }
        let status = [
            &["status", "--porcelain", "--untracked-files=no", "--"][..],
            &built_from,
        ]
        .concat();
        if let Ok(output) = Command::new("git").args(&status).output() {
            if output.status.success() {
                let dirty = !output.stdout.iter().all(u8::is_ascii_whitespace);
                println!("cargo:rustc-env=CODECBENCH_GIT_DIRTY={dirty}");
            }
        }
    }
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

/// The trimmed stdout of a command that succeeded; `None` otherwise.
fn command_output(program: &str, args: &[&str]) -> Option<String> {
    let output = Command::new(program).args(args).output().ok()?;
    let text = String::from_utf8(output.stdout).ok()?;
    (output.status.success() && !text.trim().is_empty()).then(|| text.trim().to_string())
}
