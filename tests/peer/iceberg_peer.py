#!/usr/bin/env python3
"""The pyiceberg half of the Iceberg peer check (magnolify-iceberg's example
`iceberg_peer` is the Rust half). Both open one SQL catalog on sqlite in DIR.

    python tests/peer/iceberg_peer.py write DIR    # pyiceberg writes py.events
    python tests/peer/iceberg_peer.py evolve DIR   # renames and adds a column of web.clicks

`check(DIR)` (called by check_peers.py once both halves ran) reads
`web.clicks`, which the library created and appended to twice, with
pyiceberg: every row, the Arrow types, and a filtered scan that must return
the ids the library's own filtered scan returned; and `web.clicks_deleted`
(position deletes) and `web.clicks_dv` (format v3, a deletion vector), whose
ids must be those the library read; and reports the Rust
half's checks (`rust_results.json`) and DuckDB's (`duckdb_results.json`,
from iceberg_duckdb.py).

`write` makes `py.events`: partitioned by `day(ts)` and `bucket(4, id)`,
appended twice with `name` renamed to `label` and `score` added in between.
Its rows as they read now go to `py_events.expected.json`. It also makes
`py.imported`: a Parquet file written by pyarrow (no field ids) added with
`add_files` (which gives the table a name mapping), then `page` renamed to
`path`; its rows go to `py_imported.expected.json`.
"""
import datetime as dt
import json
import os
import sys

import pyarrow as pa
import pyarrow.parquet as pq
from pyiceberg.catalog.sql import SqlCatalog
from pyiceberg.expressions import And, EqualTo, GreaterThanOrEqual
from pyiceberg.partitioning import PartitionField, PartitionSpec
from pyiceberg.schema import Schema
from pyiceberg.transforms import BucketTransform, DayTransform
from pyiceberg.types import (
    DoubleType, IntegerType, ListType, LongType, NestedField, StringType, TimestamptzType,
)

EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.timezone.utc)


def catalog(d):
    d = os.path.abspath(d)
    return SqlCatalog(
        "peer",
        uri=f"sqlite:///{os.path.join(d, 'catalog.db')}",
        warehouse=f"file://{os.path.join(d, 'warehouse')}",
    )


def micros(t):
    return None if t is None else (t - EPOCH) // dt.timedelta(microseconds=1)


def event(i, evolved):
    row = {
        "id": i,
        "label" if evolved else "name": None if i % 9 == 0 else f"event {i}",
        "amount": None if i % 7 == 0 else i * 1.25,
        "ts": dt.datetime(2024, 5, 1 + i % 4, i % 24, tzinfo=dt.timezone.utc),
    }
    if evolved:
        row["score"] = None if i % 5 == 0 else i % 100
    return row


def write(d):
    cat = catalog(d)
    cat.create_namespace("py")
    schema = Schema(
        NestedField(1, "id", LongType(), required=True),
        NestedField(2, "name", StringType(), required=False),
        NestedField(3, "amount", DoubleType(), required=False),
        NestedField(4, "ts", TimestamptzType(), required=False),
    )
    spec = PartitionSpec(
        PartitionField(source_id=4, field_id=1000, transform=DayTransform(), name="ts_day"),
        PartitionField(source_id=1, field_id=1001, transform=BucketTransform(4), name="id_bucket"),
    )
    table = cat.create_table("py.events", schema=schema, partition_spec=spec)
    first = [event(i, False) for i in range(100)]
    arrow_first = pa.Table.from_pylist(first, schema=table.schema().as_arrow())
    table.append(arrow_first)
    with table.update_schema() as update:
        update.rename_column("name", "label")
        update.add_column("score", IntegerType())
    second = [event(i, True) for i in range(100, 150)]
    table.append(pa.Table.from_pylist(second, schema=table.schema().as_arrow()))
    rows = []
    for i in range(150):
        r = event(i, i >= 100)
        rows.append({
            "id": r["id"],
            "label": r.get("label", r.get("name")),
            "amount": r["amount"],
            "ts": micros(r["ts"]),
            "score": r.get("score"),
        })
    with open(os.path.join(d, "py_events.expected.json"), "w", encoding="utf-8") as fh:
        json.dump(rows, fh)
    write_imported(cat, d)


def write_imported(cat, d):
    """`py.imported`: a file without field ids, added, then a column renamed."""
    schema = Schema(
        NestedField(1, "id", LongType(), required=False),
        NestedField(2, "page", StringType(), required=False),
        NestedField(3, "tags", ListType(4, StringType(), element_required=False), required=False),
    )
    table = cat.create_table("py.imported", schema=schema)
    rows = [
        {"id": i, "page": None if i % 6 == 0 else f"/import/{i}", "tags": [f"t{t}" for t in range(i % 3)]}
        for i in range(40)
    ]
    arrow = pa.Table.from_pylist(
        rows, schema=pa.schema([("id", pa.int64()), ("page", pa.string()), ("tags", pa.list_(pa.string()))])
    )
    path = os.path.join(os.path.abspath(d), "warehouse", "imported-0.parquet")
    pq.write_table(arrow, path)
    table.add_files([f"file://{path}"])
    with table.update_schema() as update:
        update.rename_column("page", "path")
    expected = [{"id": r["id"], "path": r["page"], "tags": r["tags"]} for r in rows]
    with open(os.path.join(d, "py_imported.expected.json"), "w", encoding="utf-8") as fh:
        json.dump(expected, fh)


def evolve(d):
    table = catalog(d).load_table("web.clicks")
    with table.update_schema() as update:
        update.rename_column("page", "path")
        update.add_column("country", StringType())


def check(d):
    """[(reader, differences)] of the Iceberg checks: empty differences pass."""
    out = []
    with open(os.path.join(d, "rust_results.json"), encoding="utf-8") as fh:
        for entry in json.load(fh):
            out.append((f"magnolify-iceberg: {entry['check']}", [] if entry["ok"] else [entry["detail"]]))
    # iceberg_duckdb.py's checks (DuckDB reads web.clicks).
    with open(os.path.join(d, "duckdb_results.json"), encoding="utf-8") as fh:
        for entry in json.load(fh):
            out.append((entry["check"], [] if entry["ok"] else [entry["detail"]]))
    with open(os.path.join(d, "clicks.expected.json"), encoding="utf-8") as fh:
        expected = json.load(fh)
    table = catalog(d).load_table("web.clicks")
    arrow = table.scan().to_arrow()
    # pyarrow's string and large_string are one Iceberg type (pyiceberg
    # gives a column missing from some files the large form).
    types = {f.name: str(f.type).replace("large_", "") for f in arrow.schema}
    want_types = {
        "id": "int64", "user_id": "int64", "ts": "timestamp[us, tz=UTC]", "path": "string",
        "referrer": "string", "tags": "list<element: string not null>", "status": "string", "country": "string",
    }
    diffs = [f"column {k}: {types.get(k)} (want {v})" for k, v in want_types.items() if types.get(k) != v]
    rows = sorted(arrow.to_pylist(), key=lambda r: r["id"])
    for r in rows:
        r["ts"] = micros(r["ts"])
    if len(rows) != len(expected):
        diffs.append(f"{len(rows)} rows, want {len(expected)}")
    diffs += [f"row {e['id']}: {r} != {e}" for r, e in zip(rows, expected) if r != e][:10]
    out.append(("pyiceberg: web.clicks (ours, renamed and added column) every row and type", diffs))

    with open(os.path.join(d, "clicks.filtered.json"), encoding="utf-8") as fh:
        ours = json.load(fh)
    since = dt.datetime(2024, 3, 2, tzinfo=dt.timezone.utc).isoformat()
    theirs = table.scan(row_filter=And(EqualTo("user_id", 3), GreaterThanOrEqual("ts", since))).to_arrow()
    ids = sorted(theirs.column("id").to_pylist())
    out.append(("pyiceberg: web.clicks filtered scan equals ours", [] if ids == ours else [f"{ids} != {ours}"]))

    # An enum column is a string column: filtered by a string literal.
    with open(os.path.join(d, "clicks.shipped.json"), encoding="utf-8") as fh:
        ours = json.load(fh)
    try:
        ids = sorted(table.scan(row_filter=EqualTo("status", "Shipped")).to_arrow().column("id").to_pylist())
        diffs = [] if ids == ours else [f"{ids} != {ours}"]
    except Exception as e:  # pyiceberg's own error is the finding
        diffs = [f"{type(e).__name__}: {e}"]
    out.append(("pyiceberg: web.clicks filtered on an enum column equals ours", diffs))

    # Rows of one data file deleted, which the library applied: by a
    # position-delete file, and (format v3) by a deletion vector.
    for name, kind in (("clicks_deleted", "position deletes"), ("clicks_dv", "a deletion vector, v3")):
        with open(os.path.join(d, f"{name}.json"), encoding="utf-8") as fh:
            ours = json.load(fh)
        try:
            ids = sorted(catalog(d).load_table(f"web.{name}").scan().to_arrow().column("id").to_pylist())
            diffs = [] if ids == ours else [f"{len(ids)} ids, ours {len(ours)}: {sorted(set(ids) ^ set(ours))[:10]}"]
        except Exception as e:  # pyiceberg's own error is the finding
            diffs = [f"{type(e).__name__}: {e}"]
        out.append((f"pyiceberg: web.{name} ({kind}) reads the ids ours does", diffs))
    return out


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("write", "evolve"):
        sys.exit(__doc__)
    {"write": write, "evolve": evolve}[sys.argv[1]](sys.argv[2])
