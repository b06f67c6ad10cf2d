#!/usr/bin/env bash
# Starts an S3-compatible server on localhost (moto's, from PyPI), makes a
# bucket, runs the tests that need it (`object_stores::s3…`, ignored by a
# plain `cargo test`) through object_store's S3 client, and stops it.
#
#   bash tests/peer/s3.sh
#
# The venv is the peer check's (${PEER_VENV:-.venv-peer}).
set -euo pipefail

. "$(dirname "${BASH_SOURCE[0]}")/venv.sh"
MOTO_VERSION=5.1.22

"$venv/bin/python" -m pip install --quiet --disable-pip-version-check "moto[server]==$MOTO_VERSION"

port="$("$venv/bin/python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
log="$(mktemp)"
"$venv/bin/moto_server" -H 127.0.0.1 -p "$port" > "$log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -f "$log"' EXIT

# Up when it answers; then the bucket (moto takes any credentials).
"$venv/bin/python" - "$port" <<'PY'
import sys, time, urllib.request
url = f"http://127.0.0.1:{sys.argv[1]}"
for _ in range(100):
    try:
        urllib.request.urlopen(url, timeout=1)
        break
    except Exception:
        time.sleep(0.2)
else:
    sys.exit("the S3 server did not start")
urllib.request.urlopen(urllib.request.Request(f"{url}/magnolify", method="PUT"), timeout=10)
print("S3 server on", url, "with bucket magnolify")
PY

MAGNOLIFY_S3_ENDPOINT="http://127.0.0.1:$port" MAGNOLIFY_S3_BUCKET=magnolify \
  cargo test -p tests --test it object_stores::s3 -- --ignored
