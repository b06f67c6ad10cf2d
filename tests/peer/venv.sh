# Sourced by the peer scripts: `root` (the repository, made the working
# directory) and `venv`, the Python venv they share (${PEER_VENV:-.venv-peer},
# a relative path taken from the root), created on first use.
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
venv="${PEER_VENV:-.venv-peer}"
case "$venv" in
  /*) ;;
  *) venv="$root/$venv" ;;
esac
if [ ! -x "$venv/bin/python" ]; then
  echo "peer venv: creating $venv"
  python3 -m venv "$venv"
fi
