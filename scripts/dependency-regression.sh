#!/bin/sh
# The real regression kind of check (issue 61): a build whose only change is the Rust
# brotli port (the `brotli` and `brotli-decompressor` crates) at opt-level 1, measured
# by `ab` as the candidate against this build. It should flag the three brotli-rs cells
# and nothing else. Builds the lowered copy from HEAD in a temporary directory (about
# 3 minutes), then runs ab on the small payload; extra arguments go to ab.
set -eu
repo=$(git rev-parse --show-toplevel)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
git -C "$repo" worktree add --detach "$dir/lowered" HEAD >/dev/null
trap 'git -C "$repo" worktree remove --force "$dir/lowered"; rm -rf "$dir"' EXIT
cat >>"$dir/lowered/Cargo.toml" <<'TOML'

[profile.release.package.brotli]
opt-level = 1

[profile.release.package.brotli-decompressor]
opt-level = 1
TOML
cargo build --release --quiet --manifest-path "$repo/Cargo.toml"
cargo build --release --quiet --manifest-path "$dir/lowered/Cargo.toml" \
    --target-dir "$dir/target"
"$dir/target/release/codecbench" ab --baseline "$repo/target/release/codecbench" \
    --export-json "${EXPORT_JSON:-$dir/ab.json}" "$@"
