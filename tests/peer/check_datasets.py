"""The dataset part of the peer check: `peer_write` wrote `X.dataset/` (a
Hive-partitioned dataset, partitioned by a date `day` and a string `region`)
and `X.dataset.expected.json` (its rows, sorted by id, as
`[id, amount, note, day, region]`). Spark (pyspark in local mode, with its
partition discovery), DuckDB (`read_parquet('…/**/*.parquet',
hive_partitioning = true)`) and `pyarrow.dataset` (hive flavour) must read
the same rows, with `day` typed as a date and `region` as a string.

`check(path, expected)` returns, per reader, its name and a list of
differences (empty: passed).
"""
import pyarrow as pa
import pyarrow.dataset as ds

import duckdb


def rows_of(records):
    """[id, amount, note, day, region] rows sorted by id, dates as text."""
    out = [[r["id"], r["amount"], r["note"], r["day"].isoformat() if r["day"] is not None else None, r["region"]]
           for r in records]
    return sorted(out, key=lambda r: r[0])


def compare(got, want, types, want_types):
    out = []
    if types != want_types:
        out.append(f"partition column types {types}, expected {want_types}")
    if len(got) != len(want):
        out.append(f"{len(got)} rows, expected {len(want)}")
    for g, w in zip(got, want):
        if g != w:
            out.append(f"row {w[0]}: {g} != {w}")
    return out


def read_pyarrow(path):
    partitioning = ds.partitioning(pa.schema([("day", pa.date32()), ("region", pa.string())]), flavor="hive")
    table = ds.dataset(path, format="parquet", partitioning=partitioning).to_table()
    types = [str(table.schema.field("day").type), str(table.schema.field("region").type)]
    return rows_of(table.to_pylist()), types


def read_duckdb(path):
    con = duckdb.connect()
    query = (f"SELECT id, amount, note, day, region, typeof(day), typeof(region) "
             f"FROM read_parquet('{path}/**/*.parquet', hive_partitioning = true)")
    result = con.execute(query).fetchall()
    types = sorted({(r[5], r[6]) for r in result})
    records = [dict(zip(["id", "amount", "note", "day", "region"], r[:5])) for r in result]
    return rows_of(records), [list(t) for t in types]


_spark = None


def spark():
    """One local Spark session for all datasets (it takes seconds to start)."""
    global _spark
    if _spark is None:
        from pyspark.sql import SparkSession
        _spark = (SparkSession.builder.master("local[1]").appName("magnolify-peer-check")
                  .config("spark.sql.session.timeZone", "UTC")
                  .config("spark.ui.enabled", "false")
                  .getOrCreate())
        _spark.sparkContext.setLogLevel("ERROR")
    return _spark


def stop_spark():
    global _spark
    if _spark is not None:
        _spark.stop()
        _spark = None


def read_spark(path):
    df = spark().read.parquet(path)
    types = [df.schema["day"].dataType.simpleString(), df.schema["region"].dataType.simpleString()]
    return rows_of(r.asDict() for r in df.collect()), types


READERS = [
    ("pyarrow.dataset", read_pyarrow, ["date32[day]", "string"]),
    ("duckdb", read_duckdb, [["DATE", "VARCHAR"]]),
    ("spark", read_spark, ["date", "string"]),
]


def check(path, expected):
    results = []
    for name, read, want_types in READERS:
        try:
            got, types = read(path)
            results.append((name, compare(got, expected, types, want_types)))
        except Exception as e:  # noqa: BLE001 - any reader failure is a failed check
            results.append((name, [f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"]))
    return results
