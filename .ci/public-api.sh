#!/usr/bin/env bash
# Public API listings of the library crates: regenerates them from rustdoc
# JSON and compares them with the checked-in api/<crate>.txt. Exits 1 and
# shows the diff when they differ; `--bless` overwrites the checked-in files
# instead.
#
#   bash .ci/public-api.sh           # check (CI)
#   bash .ci/public-api.sh --bless   # accept the current API
#
# How: `cargo rustdoc -- --output-format json` on the stable toolchain, with
# RUSTC_BOOTSTRAP=1 given to rustdoc alone (through a wrapper), so that the
# dependencies are built exactly as in a stable build; then
# tools/public-api (its own cargo project, on rustdoc-types) prints one sorted
# line per public item. No network beyond the crates.io registry.
#
# rustdoc JSON has a format version per toolchain (57 for rustc 1.95); when the
# stable toolchain moves on, the lister says so, and tools/public-api/Cargo.toml
# takes the rustdoc-types release of the new format.
set -euo pipefail
cd "$(dirname "$0")/.."

bless=0
case "${1:-}" in
  "") ;;
  --bless) bless=1 ;;
  *) echo "usage: $0 [--bless]" >&2; exit 2 ;;
esac

# package name, crate name, features to document with, crates whose items it
# names by their public path (listed earlier).
crates=(
  "magnolify-parquet magnolify_parquet derive,chrono,uuid,decimal,bigdecimal,half,json,variant,object_store -"
  "magnolify-parquet-derive magnolify_parquet_derive - -"
  "avro-baseline avro_baseline - magnolify_parquet"
  "magnolify-iceberg magnolify_iceberg - magnolify_parquet"
)

# Its own target directory: `cargo rustdoc -p X --features F` resolves the
# features of X alone, unlike the workspace builds, so nothing would be shared
# with them anyway, and the two do not invalidate each other.
base=${CARGO_TARGET_DIR:-$PWD/target}
export CARGO_TARGET_DIR=$base/public-api
mkdir -p "$CARGO_TARGET_DIR"

cargo build --quiet --release --locked --manifest-path tools/public-api/Cargo.toml
lister=$CARGO_TARGET_DIR/release/public-api-list

# rustdoc, allowed its unstable JSON output; the dependencies, built by rustc,
# do not see RUSTC_BOOTSTRAP and are built as on stable. Under rustup, the
# rustdoc proxy picks cargo's toolchain (the same override rules;
# RUSTUP_TOOLCHAIN is passed down for `cargo +toolchain`).
wrapper=$CARGO_TARGET_DIR/rustdoc-bootstrap
printf '#!/bin/sh\nRUSTC_BOOTSTRAP=1 exec %q "$@"\n' "${RUSTDOC:-rustdoc}" > "$wrapper"
chmod +x "$wrapper"

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
mkdir -p api
status=0
for spec in "${crates[@]}"; do
  read -r package crate features externs <<< "$spec"
  feature_args=()
  [ "$features" != - ] && feature_args=(--features "$features")
  extern_args=()
  if [ "$externs" != - ]; then
    for e in ${externs//,/ }; do extern_args+=(--extern "$CARGO_TARGET_DIR/doc/$e.json"); done
  fi
  rm -f "$CARGO_TARGET_DIR/doc/$crate.json"
  RUSTDOC=$wrapper cargo rustdoc --quiet --locked -p "$package" --lib "${feature_args[@]}" \
    -- -Z unstable-options --output-format json --cap-lints allow
  "$lister" "$CARGO_TARGET_DIR/doc/$crate.json" "${extern_args[@]}" > "$out/$package.txt"
  if [ "$bless" = 1 ]; then
    cp "$out/$package.txt" "api/$package.txt"
    echo "api/$package.txt: $(wc -l < "api/$package.txt") items (written)"
  elif [ ! -f "api/$package.txt" ]; then
    echo "api/$package.txt is missing: run bash .ci/public-api.sh --bless" >&2
    status=1
  elif ! diff -u --label "api/$package.txt (checked in)" --label "api/$package.txt (current code)" \
      "api/$package.txt" "$out/$package.txt"; then
    echo "api/$package.txt: the public API changed (diff above); if intended, run bash .ci/public-api.sh --bless" >&2
    status=1
  else
    echo "api/$package.txt: unchanged ($(wc -l < "api/$package.txt") items)"
  fi
done
exit "$status"
