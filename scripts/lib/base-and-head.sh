# Sourced by the gates that measure two builds on one machine (time-gate.sh,
# instructions-gate.sh): resolves BASE once, checks it out in a worktree under WORK
# (emptied first, removed on exit) and builds it and the code here in release.
#
# The base builds into target/gate-base, a target directory of its own, so the two
# binaries never mix, and the next gate on this clone rebuilds only what changed.

# resolve_base ARG: sets base to the commit ARG names, resolved now so that a heading names
# the commit measured even if HEAD moves meanwhile; exits 2 when ARG names none.
resolve_base() {
  base=$(git rev-parse --verify --quiet "$1^{commit}") || {
    echo "codecbench: error: $1 is not a commit" >&2
    exit 2
  }
}

# build_base_and_head WORK BASE: sets base_bin and head_bin.
build_base_and_head() {
  local work=$1 base=$2 root
  root=$(pwd)
  rm -rf "$work"
  mkdir -p "$work"
  git worktree remove --force "$work/base" 2> /dev/null || true
  git worktree add --quiet --detach "$work/base" "$base" > /dev/null
  # shellcheck disable=SC2064 # the path is fixed now, on purpose
  trap "git worktree remove --force '$work/base' 2> /dev/null || true" EXIT
  (cd "$work/base" && CARGO_TARGET_DIR="$root/target/gate-base" cargo build --release --locked --quiet)
  cargo build --release --locked --quiet
  base_bin=target/gate-base/release/codecbench
  head_bin=target/release/codecbench
}
