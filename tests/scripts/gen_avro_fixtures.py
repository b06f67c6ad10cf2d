#!/usr/bin/env python3
"""Writes the Avro container files of tests/fixtures/avro/ with fastavro.

The files are peer data for tests/tests/avro_peer.rs: records written by
another Avro implementation, converted to Parquet and back by avro_baseline.
Everything is seeded and the sync markers are fixed, so the output is the
same bytes on every run (for the same fastavro version).

    python3 -m venv /tmp/venv-avro && /tmp/venv-avro/bin/pip install fastavro
    /tmp/venv-avro/bin/python tests/scripts/gen_avro_fixtures.py tests/fixtures/avro
"""

import datetime
import decimal
import hashlib
import json
import random
import sys
import uuid
from pathlib import Path

import fastavro

SEED = 20240611
UTC = datetime.timezone.utc

# The schemas, beside the files they describe (fastavro has no nanosecond or
# duration types: logical.avsc's tsn and dur come out as the plain long / fixed).
SCHEMAS = Path(__file__).resolve().parent.parent / "fixtures" / "avro"


def schema(name):
    return json.loads((SCHEMAS / f"{name}.avsc").read_text(encoding="utf-8"))


def text(rng, max_len=12):
    alphabet = "abcdefghijklmnopqrstuvwxyzé€😀 "
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, max_len)))


def primitives(rng, n):
    for k in range(n):
        yield {
            "b": rng.random() < 0.5,
            "i": rng.randint(-(2**31), 2**31 - 1),
            "l": rng.randint(-(2**63), 2**63 - 1),
            # Exactly representable in 32 bits, so the float survives every hop.
            "f": rng.randint(-(2**20), 2**20) / 8.0,
            "d": rng.uniform(-1e300, 1e300),
            "by": rng.randbytes(rng.randint(0, 16)),
            "s": text(rng),
            "ns": None if k % 3 == 0 else text(rng),
            "nl": None if k % 4 == 1 else rng.randint(-1000, 1000),
            "color": rng.choice(["RED", "GREEN", "BLUE"]),
            "hash": rng.randbytes(8),
            "nothing": None,
        }


def logical(rng, n):
    epoch = datetime.datetime(1970, 1, 1, tzinfo=UTC)
    for k in range(n):
        micros = rng.randint(-(2**50), 2**50)
        ts = epoch + datetime.timedelta(microseconds=micros)
        local = datetime.datetime(1970, 1, 1) + datetime.timedelta(microseconds=micros)
        yield {
            "price": decimal.Decimal(rng.randint(-(10**12) + 1, 10**12 - 1)).scaleb(-2),
            "rate": decimal.Decimal(rng.randint(-(10**20) + 1, 10**20 - 1)).scaleb(-6),
            "day": datetime.date(1970, 1, 1) + datetime.timedelta(days=rng.randint(-100_000, 100_000)),
            "tmil": (datetime.datetime(2000, 1, 1) + datetime.timedelta(milliseconds=rng.randint(0, 86_399_999))).time(),
            "tmic": (datetime.datetime(2000, 1, 1) + datetime.timedelta(microseconds=rng.randint(0, 86_399_999_999))).time(),
            "tsm": ts.replace(microsecond=ts.microsecond // 1000 * 1000),
            "tsu": ts,
            "ltsm": local.replace(microsecond=local.microsecond // 1000 * 1000),
            "ltsu": local,
            "tsn": rng.randint(-(2**62), 2**62),
            "dur": rng.randbytes(12),
            "id": uuid.UUID(int=rng.getrandbits(128)),
            "maybe_ts": None if k % 2 else ts,
        }


def point(rng):
    return {"x": rng.uniform(-180, 180), "y": rng.uniform(-90, 90)}


def nested(rng, n):
    for k in range(n):
        yield {
            "id": k,
            "point": point(rng),
            "maybe_point": None if k % 2 else point(rng),
            "choice": [None, rng.randint(-5, 5), text(rng), point(rng)][k % 4],
            "either": text(rng) if k % 2 else rng.randint(0, 10**15),
            "tags": [text(rng) for _ in range(rng.randint(0, 4))],
            "scores": [None if rng.random() < 0.3 else rng.uniform(0, 1) for _ in range(rng.randint(0, 4))],
            "points": [point(rng) for _ in range(rng.randint(0, 3))],
            "matrix": [[rng.randint(-9, 9) for _ in range(rng.randint(0, 3))] for _ in range(rng.randint(0, 3))],
            "attrs": {text(rng, 6): text(rng) for _ in range(rng.randint(0, 3))},
            "counts": {text(rng, 6): (None if rng.random() < 0.3 else rng.randint(0, 99)) for _ in range(rng.randint(0, 3))},
            "paths": {text(rng, 6): [point(rng) for _ in range(rng.randint(0, 2))] for _ in range(rng.randint(0, 3))},
            "maybe_tags": None if k % 3 == 0 else [text(rng) for _ in range(rng.randint(0, 2))],
            "levels": [rng.choice(["LOW", "MID", "HIGH"]) for _ in range(rng.randint(0, 3))],
        }


FILES = [
    ("primitives.avro", schema("primitives"), primitives, 50, "null"),
    ("logical.avro", schema("logical"), logical, 40, "deflate"),
    ("nested.avro", schema("nested"), nested, 60, "deflate"),
]


def main(out_dir):
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    for i, (name, schema, gen, n, codec) in enumerate(FILES):
        rng = random.Random(SEED + i)
        parsed = fastavro.parse_schema(schema)
        sync = hashlib.sha256(name.encode()).digest()[:16]
        with open(out / name, "wb") as fo:
            fastavro.writer(fo, parsed, list(gen(rng, n)), codec=codec, sync_marker=sync, sync_interval=2000)
        digest = hashlib.sha256((out / name).read_bytes()).hexdigest()
        print(f"{name}\t{n} records\t{codec}\tsha256 {digest}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "tests/fixtures/avro")
