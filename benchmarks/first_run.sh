#!/usr/bin/env bash
# The first run of README command 1 on a busy machine (issue 25): a fresh clone of this
# repository, a fresh virtualenv, an empty numba cache, and a CPU-bound process on each core.
# Prints the seconds from `perfectplay serve`'s start to the first 200 on `/`, to a Connect
# Four move answered with 200, and to /api/health's engines being ready; then whether the
# server still runs. The server's terminal output is kept in $WORK/serve.log.
#     bash benchmarks/first_run.sh [PORT]
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
port=${1:-8765}
WORK=$(mktemp -d /tmp/perfectplay-first-run-XXXX)
busy=()
cleanup() {
    kill "${busy[@]}" 2> /dev/null || true
    [ -n "${server:-}" ] && kill -INT "$server" 2> /dev/null || true
}
trap cleanup EXIT
now() { date +%s.%N; }
since() { python3 -c "print(f'{$(now) - $1:.1f}')"; }

git clone -q "$repo" "$WORK/repo"
python3 -m venv "$WORK/venv"
export PATH="$WORK/venv/bin:$PATH" NUMBA_CACHE_DIR="$WORK/numba-cache"
for _ in $(seq "$(nproc)"); do
    python3 -c "while True: pass" &
    busy+=($!)
done
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) busy processes started"
cd "$WORK/repo"
start=$(now)
python3 -m pip install --quiet -c requirements.lock -e . > "$WORK/pip.log" 2>&1
echo "install: $(since "$start") s"
perfectplay serve --port "$port" --db "$WORK/games.sqlite3" > "$WORK/serve.log" 2>&1 &
server=$!
start=$(now)
until [ "$(curl -s -o /dev/null -w '%{http_code}' "localhost:$port/")" = 200 ]; do sleep 0.2; done
echo "/ answered 200 after $(since "$start") s"
move() {
    curl -s -o /dev/null -w '%{http_code}' -H 'content-type: application/json' \
        -d '{"position": "4453"}' "localhost:$port/api/connect4/move"
}
until [ "$(move)" = 200 ]; do sleep 2; done
echo "a Connect Four move answered 200 after $(since "$start") s"
until curl -s "localhost:$port/api/health" | grep -q '"ready":true'; do sleep 1; done
echo "engines ready after $(since "$start") s; load $(cut -d' ' -f1-3 /proc/loadavg)"
kill -0 "$server" && echo "the server still runs; its terminal: $WORK/serve.log"
