#!/usr/bin/env bash
# Packages the three library crates as `cargo publish` would make them, prints
# what each package holds, and checks that the packages build from their own
# contents. Exits non-zero on any failure.
#
#   bash .ci/package.sh                 # CI, on a clean clone
#   ALLOW_DIRTY=1 bash .ci/package.sh   # with uncommitted changes
#
# Why not plain `cargo package -p ... -p ...` (which verifies each package
# against the ones packaged before it): magnolify-parquet-derive has a
# dev-dependency on magnolify-parquet, which itself depends on the derive, and
# the workspace gives magnolify-parquet a version (avro-baseline needs one to
# be packaged). Cargo keeps a dev-dependency that has a version, so packaging
# the derive has to resolve magnolify-parquet 0.1.0, which is on no registry
# yet and not yet in cargo's local overlay (the derive is packaged first):
# "no matching package named `magnolify-parquet` found", even with
# --no-verify, unless the package leaves out its lock file.
#
# So the packages are made with --no-verify --exclude-lockfile (library
# packages need no lock file: dependents resolve their own), and verified here
# instead: they are unpacked into a scratch workspace whose [patch.crates-io]
# points the three crates at each other's unpacked packages, and each is built
# there on its own, with the versions of the repository's Cargo.lock. That is
# what cargo's own verification builds (the package contents, nothing from
# the work tree). Only crates.io is reached, for the third-party
# dependencies.
#
# Once the derive's dev-dependency is a path without a version (cargo then
# drops it from the package), plain `cargo package --locked -p
# magnolify-parquet-derive -p magnolify-parquet -p avro-baseline` works too.
set -euo pipefail
cd "$(dirname "$0")/.."

crates=(magnolify-parquet-derive magnolify-parquet avro-baseline)
package_args=()
for c in "${crates[@]}"; do package_args+=(-p "$c"); done
[ "${ALLOW_DIRTY:-0}" = 1 ] && package_args+=(--allow-dirty)

# Where cargo puts the packages: <target dir>/package.
base=$(cargo metadata --locked --no-deps --format-version 1 | grep -o '"target_directory":"[^"]*"' | cut -d'"' -f4)
version=$(cargo pkgid --locked -p magnolify-parquet | sed 's/.*[#@]//')
if [ -z "$base" ] || [ -z "$version" ]; then
  echo "cannot find the target directory or the version" >&2
  exit 1
fi

echo "=== cargo package (${crates[*]}, version $version)"
for c in "${crates[@]}"; do rm -f "$base/package/$c-$version.crate"; done
cargo package --locked --no-verify --exclude-lockfile "${package_args[@]}"

echo
echo "=== package contents (bytes, path)"
status=0
for c in "${crates[@]}"; do
  crate_file=$base/package/$c-$version.crate
  [ -f "$crate_file" ] || { echo "missing $crate_file" >&2; exit 1; }
  echo "--- $c-$version.crate: $(stat -c %s "$crate_file") bytes compressed"
  tar -tvzf "$crate_file" | awk '{ printf "%9d  %s\n", $3, $6; total += $3 } END { printf "%9d  total, %d files\n", total, NR }'
  # Nothing but sources, manifests, README, LICENSE, NOTICE: no fixtures,
  # data files or anything large.
  bad=$(tar -tvzf "$crate_file" | awk '{ p = $6; sub(/^[^\/]*\//, "", p) }
    p != ".cargo_vcs_info.json" && ($3 > 262144 || p ~ /\.(parquet|avro|json|csv)$/ || p ~ /^(tests|benches|fuzz|target)\//) {
      print $6 " (" $3 " bytes)" }')
  if [ -n "$bad" ]; then
    echo "unexpected files in $c-$version.crate:" >&2
    echo "$bad" >&2
    status=1
  fi
done
[ "$status" = 0 ] || exit "$status"

echo
echo "=== verify: build each unpacked package on its own (its own features), then magnolify-parquet with all"
scratch=$base/package-verify
rm -rf "$scratch/src"
mkdir -p "$scratch/src"
members=()
patches=""
for c in "${crates[@]}"; do
  tar -xzf "$base/package/$c-$version.crate" -C "$scratch/src"
  members+=("\"$c-$version\"")
  patches+="$c = { path = \"$c-$version\" }"$'\n'
done
cat > "$scratch/src/Cargo.toml" <<EOF
# Made by .ci/package.sh: the unpacked packages, built as their users would get them.
[workspace]
resolver = "2"
members = [$(IFS=,; echo "${members[*]}")]

[patch.crates-io]
$patches
EOF
cp Cargo.lock "$scratch/src/Cargo.lock"
build() { CARGO_TARGET_DIR=$scratch/target cargo build --manifest-path "$scratch/src/Cargo.toml" "$@"; }
# One package per build, as cargo verifies them: features are resolved for
# that package alone, so a feature another package would switch on cannot
# hide a missing one.
build -p magnolify-parquet-derive --lib
build -p magnolify-parquet --lib
build -p avro-baseline --lib
build -p magnolify-parquet --lib --all-features  # what docs.rs builds
echo
echo "packages verified: ${crates[*]/%/-$version}"
