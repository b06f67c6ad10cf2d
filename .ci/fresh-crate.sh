#!/usr/bin/env bash
# The README as a new user meets it: a new crate outside the workspace whose
# [dependencies] are exactly the README's snippet (its path pointed at this
# checkout), and whose docs are the README, so that `cargo test --doc` builds
# and runs the tour and every README example against those dependencies only.
# The example of the Iceberg crate, which the snippet does not name, is
# compiled in the workspace's own doc tests instead (tests/src/lib.rs).
#
#   bash .ci/fresh-crate.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
crate="$(mktemp -d)/readme-user"
trap 'rm -rf "$(dirname "$crate")"' EXIT
mkdir -p "$crate/src"

# The snippet: the lines of the first ```toml block of the README.
snippet=$(awk '/^```toml$/ { on = 1; next } on && /^```$/ { exit } on' README.md)
if ! grep -q '^\[dependencies\]$' <<<"$snippet"; then
  echo "the README's first toml block is not a [dependencies] snippet" >&2
  exit 1
fi
{
  printf '[package]\nname = "readme-user"\nversion = "0.0.0"\nedition = "2021"\npublish = false\n\n'
  # By path to this checkout, as the README tells a user of a clone to.
  sed -E "s#path = \"[^\"]*magnolify-parquet\"#path = \"$root/magnolify-parquet\"#" <<<"$snippet"
  printf '\n[workspace]\n'
} >"$crate/Cargo.toml"
grep -q "path = \"$root/magnolify-parquet\"" "$crate/Cargo.toml" || {
  echo "the snippet names magnolify-parquet by no path this script knows" >&2
  exit 1
}

# The README as the crate's docs: each ```rust block a doc test. The blocks
# that use the Iceberg crate are left out (fenced `ignore`), and counted.
awk '
  /^```rust/ { block = $0; n = 0; inblock = 1; next }
  inblock && /^```$/ {
    iceberg = 0
    for (i = 1; i <= n; i++) if (lines[i] ~ /magnolify_iceberg/) iceberg = 1
    print (iceberg ? "```rust,ignore" : block)
    for (i = 1; i <= n; i++) print lines[i]
    print "```"
    inblock = 0; next
  }
  inblock { lines[++n] = $0; next }
  { print }
' README.md >"$crate/README.md"
printf '#![doc = include_str!("../README.md")]\n' >"$crate/src/lib.rs"
blocks=$(grep -c '^```rust' "$crate/README.md")
left_out=$(grep -c '^```rust,ignore' "$crate/README.md" || true)
echo "README: $blocks rust blocks, $left_out left out (they use magnolify-iceberg)"

# The workspace's lock (versions already built) and target directory (what
# the tests built is reused where the features agree).
cp Cargo.lock "$crate/Cargo.lock"
CARGO_TARGET_DIR="$root/target" cargo test --quiet --manifest-path "$crate/Cargo.toml" --doc
