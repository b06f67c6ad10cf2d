#!/usr/bin/env python3
"""DuckDB reads `web.clicks`, the Iceberg table the library created and
appended to twice (pyiceberg renamed a column and added one in between).

    python tests/peer/iceberg_duckdb.py DIR

Runs in a venv of its own (check.sh makes it): DuckDB's iceberg extension
on PyPI (`duckdb-ext-iceberg`, packaged from duckdb/core-extensions) is
built for DuckDB 1.4.4, while the other peer checks pin a newer DuckDB.
The extension reads the table from its current metadata file (taken from
the SQL catalog in DIR). The outcomes go to `duckdb_results.json`, which
iceberg_peer.check reports: every row against `clicks.expected.json`, the
column types, and filtered queries' ids against `clicks.filtered.json` and
`clicks.shipped.json` (an enum column, filtered by a string); and
`web.clicks_deleted` (position deletes) and `web.clicks_dv` (format v3, a
deletion vector) against `clicks_deleted.json` and `clicks_dv.json`.
"""
import json
import os
import sqlite3
import sys

import duckdb

WANT_TYPES = {
    "id": "BIGINT", "user_id": "BIGINT", "ts": "TIMESTAMP WITH TIME ZONE", "path": "VARCHAR",
    "referrer": "VARCHAR", "tags": "VARCHAR[]", "status": "VARCHAR", "country": "VARCHAR",
}


def connect():
    """DuckDB with the extensions the PyPI packages put beside it."""
    ext = os.path.join(os.path.dirname(duckdb.__file__), "..", "duckdb_ext", "extensions")
    con = duckdb.connect(config={"extension_directory": os.path.abspath(ext), "autoinstall_known_extensions": False})
    con.execute("LOAD iceberg")
    return con


def metadata_location(d, table):
    """The current metadata file of `web.<table>` in the SQL catalog."""
    with sqlite3.connect(os.path.join(d, "catalog.db")) as catalog:
        (location,) = catalog.execute(
            "SELECT metadata_location FROM iceberg_tables WHERE table_namespace = 'web' AND table_name = ?", (table,)
        ).fetchone()
    return location


def main(d):
    location = metadata_location(d, "clicks")
    with open(os.path.join(d, "clicks.expected.json"), encoding="utf-8") as fh:
        expected = json.load(fh)
    with open(os.path.join(d, "clicks.filtered.json"), encoding="utf-8") as fh:
        filtered = json.load(fh)
    con = connect()
    scan = f"iceberg_scan('{location}')"
    version = con.execute("SELECT version()").fetchone()[0]
    results = []

    types = {name: ty for name, ty, *_ in con.execute(f"DESCRIBE SELECT * FROM {scan}").fetchall()}
    diffs = [f"column {k}: {types.get(k)} (want {v})" for k, v in WANT_TYPES.items() if types.get(k) != v]
    rel = con.execute(
        f"SELECT id, user_id, epoch_us(ts) AS ts, path, referrer, tags, status, country FROM {scan} ORDER BY id"
    )
    names = [c[0] for c in rel.description]
    rows = [dict(zip(names, row)) for row in rel.fetchall()]
    if len(rows) != len(expected):
        diffs.append(f"{len(rows)} rows, want {len(expected)}")
    diffs += [f"row {e['id']}: {r} != {e}" for r, e in zip(rows, expected) if r != e][:10]
    results.append({"check": f"DuckDB {version}: web.clicks every row and type", "ok": not diffs,
                    "detail": "; ".join(diffs) or f"{len(rows)} rows equal"})

    ids = [r[0] for r in con.execute(
        f"SELECT id FROM {scan} WHERE user_id = 3 AND ts >= TIMESTAMPTZ '2024-03-02 00:00:00+00' ORDER BY id"
    ).fetchall()]
    results.append({"check": f"DuckDB {version}: web.clicks filtered query equals our scan", "ok": ids == filtered,
                    "detail": f"{len(ids)} ids" if ids == filtered else f"{ids} != {filtered}"})
    with open(os.path.join(d, "clicks.shipped.json"), encoding="utf-8") as fh:
        shipped = json.load(fh)
    ids = [r[0] for r in con.execute(f"SELECT id FROM {scan} WHERE status = 'Shipped' ORDER BY id").fetchall()]
    results.append({"check": f"DuckDB {version}: web.clicks filtered on an enum column equals our scan",
                    "ok": ids == shipped, "detail": f"{len(ids)} ids" if ids == shipped else f"{ids} != {shipped}"})

    # Rows of one data file deleted, which DuckDB applies too: by a
    # position-delete file, and (format v3) by a deletion vector.
    for name, kind in (("clicks_deleted", "position deletes"), ("clicks_dv", "a deletion vector, v3")):
        location = metadata_location(d, name)
        with open(os.path.join(d, f"{name}.json"), encoding="utf-8") as fh:
            ours = json.load(fh)
        ids = [r[0] for r in con.execute(f"SELECT id FROM iceberg_scan('{location}') ORDER BY id").fetchall()]
        results.append({"check": f"DuckDB {version}: web.{name} ({kind}) reads the ids ours does",
                        "ok": ids == ours,
                        "detail": f"{len(ids)} ids" if ids == ours else f"{len(ids)} ids, ours {len(ours)}"})
    with open(os.path.join(d, "duckdb_results.json"), "w", encoding="utf-8") as fh:
        json.dump(results, fh)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
