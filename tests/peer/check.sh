#!/usr/bin/env bash
# Writes files with the library's default settings and checks that pyarrow and
# DuckDB read back exactly the values written; and a partitioned dataset,
# which Spark (pyspark, local mode), DuckDB and pyarrow.dataset must read as
# one table with its partition columns typed; and Iceberg tables both ways
# (pyiceberg and DuckDB's iceberg extension read ours, we read pyiceberg's).
#
#   bash tests/peer/check.sh
#
# Needs python3 (with venv), PyPI and Java 17 (for Spark; `.ci/run` installs
# it). The venv lives at ${PEER_VENV:-.venv-peer} under the repository root (a
# relative PEER_VENV is taken from the root too; see venv.sh) and is created
# and filled on first use. The versions are pinned to those that
# produced tests/fixtures (tests/fixtures/README.md).
set -euo pipefail

. "$(dirname "${BASH_SOURCE[0]}")/venv.sh"

PYARROW_VERSION=26.0.1
DUCKDB_VERSION=2.0.1
PYSPARK_VERSION=4.3.0
PYICEBERG_VERSION=0.12.0
DUCKDB_ICEBERG_VERSION=1.4.4
DUCKDB_ICEBERG_EXT_VERSION=1.4.4.20260205

# With the pins already satisfied pip does not touch the network.
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
  "pyarrow==$PYARROW_VERSION" "duckdb==$DUCKDB_VERSION" "pyspark==$PYSPARK_VERSION" \
  "pyiceberg[pyarrow,sql-sqlite,pyiceberg-core]==$PYICEBERG_VERSION"

out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT

cargo run --quiet -p tests --example peer_write -- "$out"

# Iceberg: pyiceberg and the library take turns on one SQL catalog (sqlite):
# pyiceberg writes py.events and py.imported (a file without field ids,
# added, then a column renamed); the library creates web.clicks, appends, and
# reads both; pyiceberg renames a column of web.clicks and adds one; the
# library appends again and reads it all back. check_peers.py then has
# pyiceberg read web.clicks (iceberg_peer.check). The example runs in the
# workspace's feature set (no `-p`), so the tests' build of its
# dependencies serves.
mkdir "$out/iceberg"
"$venv/bin/python" tests/peer/iceberg_peer.py write "$out/iceberg"
cargo run --quiet --example iceberg_peer -- first "$out/iceberg"
"$venv/bin/python" tests/peer/iceberg_peer.py evolve "$out/iceberg"
cargo run --quiet --example iceberg_peer -- second "$out/iceberg"
# DuckDB reads web.clicks too, in a venv of its own: the iceberg extension on
# PyPI (duckdb-ext-iceberg, from duckdb/core-extensions) is built for DuckDB
# 1.4.4, older than the DuckDB pinned above.
duckdb_venv="$venv-duckdb-iceberg"
if [ ! -x "$duckdb_venv/bin/python" ]; then
  python3 -m venv "$duckdb_venv"
fi
"$duckdb_venv/bin/python" -m pip install --quiet --disable-pip-version-check \
  "duckdb==$DUCKDB_ICEBERG_VERSION" "duckdb-ext-iceberg==$DUCKDB_ICEBERG_EXT_VERSION" \
  "duckdb-ext-avro==$DUCKDB_ICEBERG_EXT_VERSION"
"$duckdb_venv/bin/python" tests/peer/iceberg_duckdb.py "$out/iceberg"
"$venv/bin/python" tests/peer/check_peers.py "$out"
