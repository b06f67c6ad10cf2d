#!/usr/bin/env python3
"""The anchor of the `iceberg` bench group: pyiceberg appending the same
1,000,000 rides (the formula of magnolify-iceberg/benches/iceberg.rs) from an
Arrow table to a table partitioned by zone, Snappy, in one commit; SQL
catalog on sqlite in a scratch directory. Prints the median of 5 appends
(each into a new table), as divan prints its medians.

    .venv-peer/bin/python benches/tools/pyiceberg_anchor.py

Needs the peer check's venv (pyiceberg 0.12 with pyarrow and sqlite).
"""
import statistics
import tempfile
import time

import pyarrow as pa
from pyiceberg.catalog.sql import SqlCatalog
from pyiceberg.partitioning import PartitionField, PartitionSpec
from pyiceberg.schema import Schema
from pyiceberg.transforms import IdentityTransform
from pyiceberg.types import DoubleType, IntegerType, NestedField, StringType, TimestamptzType

RIDES = 1_000_000


def rides():
    """The rides, column by column, as the Rust bench makes them."""
    n = range(RIDES)
    return pa.table({
        "zone": pa.array([i * 7919 % 20 for i in n], pa.int32()),
        "started": pa.array([1_700_000_000_000_000 + i * 1_500_000 for i in n], pa.timestamp("us", tz="UTC")),
        "rider": pa.array([f"r{i * 104_729 % 100_000}" for i in n], pa.string()),
        "fare": pa.array([2.0 + (i * 31 % 78_000) / 1_000.0 for i in n], pa.float64()),
        "distance": pa.array([100 + (i * 17 % 30_000) for i in n], pa.int32()),
    })


def main():
    data = rides()
    schema = Schema(
        NestedField(1, "zone", IntegerType(), required=True),
        NestedField(2, "started", TimestamptzType(), required=True),
        NestedField(3, "rider", StringType(), required=True),
        NestedField(4, "fare", DoubleType(), required=True),
        NestedField(5, "distance", IntegerType(), required=True),
    )
    spec = PartitionSpec(PartitionField(source_id=1, field_id=1000, transform=IdentityTransform(), name="zone"))
    data = data.cast(schema.as_arrow())
    times = []
    with tempfile.TemporaryDirectory() as d:
        catalog = SqlCatalog("anchor", uri=f"sqlite:///{d}/catalog.db", warehouse=f"file://{d}/warehouse")
        catalog.create_namespace("bench")
        for run in range(5):
            table = catalog.create_table(
                f"bench.rides_{run}", schema=schema, partition_spec=spec,
                properties={"write.parquet.compression-codec": "snappy"},
            )
            start = time.perf_counter()
            table.append(data)
            times.append(time.perf_counter() - start)
    print(f"iceberg/pyiceberg_append (anchor): median {statistics.median(times):.3f} s "
          f"of {len(times)} appends of {RIDES} rides (min {min(times):.3f} s, max {max(times):.3f} s)")


if __name__ == "__main__":
    main()
