#!/usr/bin/env python3
"""Read the Parquet files that `cargo run -p tests --example peer_write -- OUTDIR`
wrote with pyarrow and DuckDB (and the file of enums with Spark too), and compare every value with the JSON the
example wrote beside each file (`X.parquet` -> `X.expected.json`, format of
tests/fixtures/README.md).

    python tests/peer/check_peers.py OUTDIR

pyarrow is compared exactly: values are encoded by the same code that made the
fixtures' expectations (tests/fixtures/peers/generate.py), and the comparison is
type-strict (1 != 1.0 != true; -0.0 != 0.0), so enum columns (STRING by
default) must read as text. The one exception: pyarrow reads columns annotated
ENUM (`annotation = "enum"`) as binary, so their hex is decoded back to text. DuckDB returns some types in
another form, which is normalised on both sides before comparing: UUIDs as
hyphenated strings, and times/timestamps whose unit DuckDB widens (TIME(MILLIS)
comes back as microseconds), so fractions are compared without trailing zeros.

pyarrow reads with page checksum verification on, and refuses a copy of each
file with one bit flipped in a page (so the checksums are there and right).

Each `X.dataset/` directory (a partitioned dataset) is read by Spark, DuckDB
and pyarrow.dataset and compared with `X.dataset.expected.json`; see
check_datasets.py.

Prints the first differences of each failing (file, reader) pair and ends with
`peer check: N passed, M failed`; exits 1 when anything failed.
"""
import json
import math
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "fixtures", "peers"))

import duckdb  # noqa: E402
import pyarrow as pa  # noqa: E402
import pyarrow.compute as pc  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402

from generate import table_rows  # noqa: E402  (the fixtures' JSON encoding)

import check_datasets  # noqa: E402  (the partitioned dataset's readers)
import iceberg_peer  # noqa: E402  (the Iceberg tables' checks)

MAX_DIFFS = 15


def same(a, b):
    """Type-strict equality of two decoded JSON values."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, float) or isinstance(b, float):
        if not (isinstance(a, float) and isinstance(b, float)):
            return False
        return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def diffs(got, want, path, out):
    """Appends a line per leaf difference under `path`."""
    if isinstance(got, list) and isinstance(want, list):
        if len(got) != len(want):
            out.append(f"{path}: {len(got)} elements, expected {len(want)}: {short(got)} vs {short(want)}")
            return
        for i, (g, w) in enumerate(zip(got, want)):
            diffs(g, w, f"{path}[{i}]", out)
    elif isinstance(got, dict) and isinstance(want, dict):
        for k in want.keys() - got.keys():
            out.append(f"{path}.{k}: missing")
        for k in got.keys() - want.keys():
            out.append(f"{path}.{k}: not expected")
        for k in want.keys() & got.keys():
            diffs(got[k], want[k], f"{path}.{k}", out)
    elif not same(got, want):
        out.append(f"{path}: read {short(got)}, expected {short(want)}")


def short(v):
    s = json.dumps(v, ensure_ascii=False)
    return s if len(s) <= 160 else s[:157] + "..."


_UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
_TEMPORAL = re.compile(r"^([+-]?\d{4,}-\d\d-\d\dT)?\d\d:\d\d:\d\d(\.\d+)?Z?$")


def duck_norm(v):
    """The forms DuckDB changes without changing the value."""
    if isinstance(v, str):
        if _UUID.match(v):
            return v.replace("-", "")
        if _TEMPORAL.match(v) and "." in v:
            z = "Z" if v.endswith("Z") else ""
            return v.rstrip("Z").rstrip("0").rstrip(".") + z
        return v
    if isinstance(v, list):
        return [duck_norm(x) for x in v]
    if isinstance(v, dict):
        return {k: duck_norm(x) for k, x in v.items()}
    return v


def enum_columns(path):
    """Columns annotated ENUM outside lists (top-level, or in groups: the tag
    of an enum with data), as paths: pyarrow has no enum type and reads them
    as binary, so their values come back as hex."""
    schema = pq.ParquetFile(path).schema
    columns = (schema.column(i) for i in range(len(schema)))
    return [c.path.split(".") for c in columns
            if c.logical_type.type == "ENUM" and c.max_repetition_level == 0]


def decode_enum(row, path):
    """Decodes the hex of the ENUM value at `path` in `row`, if present."""
    for name in path[:-1]:
        row = row.get(name)
        if row is None:
            return
    if row.get(path[-1]) is not None:
        row[path[-1]] = bytes.fromhex(row[path[-1]]).decode("utf-8")


def read_pyarrow(path):
    # Verifying the CRC32 the library writes into every page header.
    rows = table_rows(pq.read_table(path, page_checksum_verification=True))
    for enum_path in enum_columns(path):
        for row in rows:
            decode_enum(row, enum_path)
    return rows


def variant_filtered(path, expected):
    """DuckDB, Spark and pyarrow filter an enum with data on its tag
    (`payment.variant = 'Card'`) and find exactly the expected ids.
    (reader, differences) pairs."""
    want = [r["id"] for r in expected["rows"] if r["payment"]["variant"] == "Card"]
    results = []

    def outcome(name, read):
        try:
            got = read()
            results.append((name, [] if got == want and want else [f"ids {got}, expected {want}"]))
        except Exception as e:  # noqa: BLE001 - any reader failure is a failed check
            results.append((name, [f"cannot filter: {type(e).__name__}: {e}"]))

    def duck():
        con = duckdb.connect()
        try:
            query = "SELECT id FROM read_parquet(?) WHERE payment.variant = 'Card' ORDER BY id"
            return [r[0] for r in con.execute(query, [path]).fetchall()]
        finally:
            con.close()

    def spark():
        df = check_datasets.spark().read.parquet(path)
        return [r["id"] for r in df.where("payment.variant = 'Card'").orderBy("id").collect()]

    def arrow():
        # The tag is a STRING column: pyarrow compares it with text.
        table = pq.read_table(path, filters=pc.field("payment", "variant") == pa.scalar("Card"))
        return sorted(table.column("id").to_pylist())

    outcome("duckdb", duck)
    outcome("spark", spark)
    outcome("pyarrow", arrow)
    return results


def read_duckdb(path):
    con = duckdb.connect()
    try:
        # One thread keeps the file's row order.
        con.execute("SET threads = 1")
        table = con.sql("SELECT * FROM read_parquet(?)", params=[path]).to_arrow_table()
    finally:
        con.close()
    return table_rows(table)


def read_spark(path):
    # Through Arrow, so that values are encoded as pyarrow's are; Spark
    # reads ENUM as a string, so nothing is decoded.
    return table_rows(check_datasets.spark().read.parquet(path).toArrow())


READERS = [
    ("pyarrow", read_pyarrow, lambda rows: rows),
    ("duckdb", read_duckdb, duck_norm),
]

# Spark reads the file of enums with data too (the wide files hold types
# Spark has no form for: unsigned 64-bit integers, UUIDs, TIME).
SPARK = ("spark", read_spark, lambda rows: rows)


def check(path, expected, extra=()):
    """(reader, list of differences or None when the reader failed to read) per reader."""
    results = []
    want = expected["rows"]
    for name, read, norm in [*READERS, *extra]:
        try:
            got = read(path)
        except Exception as e:  # noqa: BLE001 - any reader failure is a failed check
            results.append((name, [f"cannot read: {type(e).__name__}: {e}"]))
            continue
        out = []
        if len(got) != len(want):
            out.append(f"{len(got)} rows read, expected {len(want)}")
        for i, (g, w) in enumerate(zip(got, want)):
            diffs(norm(g), norm(w), f"row {i}", out)
        results.append((name, out))
    return results


def variant_read(path, expected):
    """DuckDB and Spark read the VARIANT column `v` back as the JSON written,
    and Spark's `variant_get` finds `$.a` as an int. (reader, differences) pairs."""
    want = [(r["id"], r["v"]) for r in expected["rows"]]
    results = []
    con = duckdb.connect()
    try:
        got = [(i, None if t is None else json.loads(t)) for i, t in
               con.execute("SELECT id, CAST(v AS JSON) FROM read_parquet(?) ORDER BY id", [path]).fetchall()]
        results.append(("duckdb", [] if got == want else [f"read {short(got)}, expected {short(want)}"]))
    except Exception as e:  # noqa: BLE001 - any reader failure is a failed check
        results.append(("duckdb", [f"cannot read: {type(e).__name__}: {e}"]))
    finally:
        con.close()
    try:
        rows = (check_datasets.spark().read.parquet(path)
                .selectExpr("id", "to_json(v) AS j", "variant_get(v, '$.a', 'int') AS a").orderBy("id").collect())
        got = [(r["id"], None if r["j"] is None else json.loads(r["j"])) for r in rows]
        a_want = [v.get("a") if isinstance(v, dict) else None for _, v in want]
        out = [] if got == want else [f"read {short(got)}, expected {short(want)}"]
        if [r["a"] for r in rows] != a_want:
            out.append(f"variant_get $.a: {[r['a'] for r in rows]}, expected {a_want}")
        results.append(("spark", out))
    except Exception as e:  # noqa: BLE001
        results.append(("spark", [f"cannot read: {type(e).__name__}: {e}"]))
    return results


def damage_refused(path):
    """pyarrow, verifying checksums, refuses a copy of `path` with one bit
    flipped in the last page of its first column chunk: the pages carry
    checksums and pyarrow finds them right. A difference list (empty: passed)."""
    md = pq.ParquetFile(path).metadata
    chunk = md.row_group(0).column(0)
    at = (chunk.dictionary_page_offset or chunk.data_page_offset) + chunk.total_compressed_size - 1
    data = bytearray(open(path, "rb").read())
    data[at] ^= 0x10
    damaged = path + ".damaged"
    with open(damaged, "wb") as f:
        f.write(bytes(data))
    try:
        pq.read_table(damaged, page_checksum_verification=True)
        return [f"read with bit 4 of byte {at} flipped, no checksum error"]
    except OSError as e:
        return [] if "CRC" in str(e) else [f"bit 4 of byte {at} flipped: {e}, not a checksum error"]
    finally:
        os.remove(damaged)


def float_statistics(path):
    """pyarrow sees the min and max of our FLOAT and DOUBLE columns (whose
    footer declares the type-defined order: pyarrow 26 ignores the IEEE 754
    total order the `parquet` crate declares), and they are each chunk's
    least and greatest number (NaN aside; a zero equals either zero). Columns
    outside lists and maps, every row group. A difference list, and how
    many chunks were compared."""
    pf = pq.ParquetFile(path)
    md = pf.metadata
    out, compared = [], 0
    for i in range(md.num_columns):
        column = md.schema.column(i)
        if column.physical_type not in ("FLOAT", "DOUBLE") or column.max_repetition_level > 0:
            continue
        top, *below = column.path.split(".")
        for group in range(md.num_row_groups):
            numbers = []
            for value in pf.read_row_group(group, columns=[top]).column(0).to_pylist():
                for name in below:
                    value = None if value is None else value[name]
                if value is not None and not math.isnan(value):
                    numbers.append(value)
            stats = md.row_group(group).column(i).statistics
            bounds = (stats.min, stats.max) if stats is not None and stats.has_min_max else None
            if not numbers:
                if bounds is not None:
                    out.append(f"{column.path}, row group {group}: bounds {bounds} where it holds no number")
                continue
            compared += 1
            if bounds != (min(numbers), max(numbers)):
                out.append(f"{column.path}, row group {group}: bounds {bounds}, numbers {min(numbers)}..{max(numbers)}")
    return out, compared


def report(name, reader, out, what):
    """Prints one (file, reader) result; True when it passed."""
    if out:
        print(f"FAIL {name} with {reader}: {len(out)} difference(s)")
        for line in out[:MAX_DIFFS]:
            print("    " + line)
        return False
    print(f"ok   {name} with {reader}: {what}")
    return True


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    outdir = argv[1]
    files = sorted(f for f in os.listdir(outdir) if f.endswith(".parquet"))
    datasets = sorted(f for f in os.listdir(outdir) if f.endswith(".dataset"))
    if not files:
        print(f"no .parquet files in {outdir}")
        print("peer check: 0 passed, 1 failed")
        return 1
    passed = failed = 0
    for f in files:
        path = os.path.join(outdir, f)
        exp_path = path[: -len(".parquet")] + ".expected.json"
        if not os.path.exists(exp_path):
            print(f"FAIL {f}: no {os.path.basename(exp_path)}")
            failed += 1
            continue
        with open(exp_path, encoding="utf-8") as fh:
            expected = json.load(fh)
        # pyarrow has no VARIANT type: the VARIANT file is read as JSON by
        # the engines that have one.
        if f.startswith("variant"):
            readers = variant_read(path, expected)
        else:
            readers = check(path, expected, [SPARK] if f.startswith("enums") else [])
        for reader, out in readers:
            ok = report(f, reader, out, f"{len(expected['rows'])} rows")
            passed, failed = passed + ok, failed + (not ok)
        if f.startswith("enums"):
            for reader, out in variant_filtered(path, expected):
                ok = report(f, reader, out, "WHERE payment.variant = 'Card'")
                passed, failed = passed + ok, failed + (not ok)
        if not f.startswith("variant"):
            out, compared = float_statistics(path)
            ok = report(f, "pyarrow statistics", out, f"float min/max of {compared} column chunks")
            passed, failed = passed + ok, failed + (not ok)
        out = damage_refused(path)
        if out:
            failed += 1
            print(f"FAIL {f} damaged: " + "; ".join(out))
        else:
            passed += 1
            print(f"ok   {f} damaged: pyarrow refuses it (page checksum)")
    for d in datasets:
        path = os.path.join(outdir, d)
        with open(path + ".expected.json", encoding="utf-8") as fh:
            expected = json.load(fh)
        for reader, out in check_datasets.check(path, expected):
            ok = report(d, reader, out, f"{len(expected)} rows, partition columns typed")
            passed, failed = passed + ok, failed + (not ok)
    check_datasets.stop_spark()
    iceberg = os.path.join(outdir, "iceberg")
    if os.path.isdir(iceberg):
        for reader, out in iceberg_peer.check(iceberg):
            ok = report("iceberg", reader, out, "every row compared")
            passed, failed = passed + ok, failed + (not ok)
    print(f"peer check: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
