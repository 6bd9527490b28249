#!/usr/bin/env bash
# The benchmarks' peers that are programs, not crates, pinned: igsolve (Beling & Rogalski's
# solver for Cram, Chomp and Grundy's game; GPL, so it is timed as an installed program and
# never linked). Installed into target/peers/bin; does nothing when the pinned version is
# there. `benches/boards.rs` calls this script when the binary is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
IGSOLVE_VERSION=0.1.2
bin=target/peers/bin/igsolve
if [ -x "$bin" ] && "$bin" --version 2>/dev/null | grep -q " $IGSOLVE_VERSION\$"; then
    exit 0
fi
cargo install igsolve --version "$IGSOLVE_VERSION" --locked --root target/peers --quiet
"$bin" --version
