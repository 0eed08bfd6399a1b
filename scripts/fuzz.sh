#!/usr/bin/env bash
# Fuzzes every operation of docs/openapi.yaml with schemathesis against a development `hearth serve` on a
# throwaway data directory, and fails on any 5xx answer, any request that times out (a hang) or a server
# that is no longer running at the end (a crash). See docs/fuzzing.md.
#
#   scripts/fuzz.sh                      # builds `hearth` with `swift build --product hearth` first
#   HEARTH_BIN=.build/release/hearth scripts/fuzz.sh
#
# Settings (environment):
#   HEARTH_BIN           the hearth binary (default: build it, then .build/debug/hearth)
#   FUZZ_MAX_EXAMPLES    test cases per operation and phase (default 600)
#   FUZZ_MIN_REQUESTS    fail unless at least this many requests were sent (default 10000)
#   FUZZ_WORKERS         concurrent schemathesis workers (default 1: with more, schemathesis 4.32 skipped
#                        some operations once the hooks rewrote requests)
#   FUZZ_TIMEOUT         seconds a request may take before it counts as a hang (default 10)
#   FUZZ_SEED            schemathesis' random seed (default: a new one each run, printed)
#   FUZZ_OPERATIONS      only these operations: operationIds of docs/openapi.yaml, separated by spaces or commas
#                        (default: all); FUZZ_MIN_REQUESTS then defaults to 100 per operation
#   FUZZ_VENV            where schemathesis is installed (default .build-fuzz/venv)
#   FUZZ_OUT             where the run's files are kept (default .build-fuzz/last-run)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

MAX_EXAMPLES="${FUZZ_MAX_EXAMPLES:-600}"
OPERATIONS=()
FUZZ_OPERATIONS="${FUZZ_OPERATIONS:-}"
for operation in ${FUZZ_OPERATIONS//,/ }; do OPERATIONS+=(--include-operation-id "$operation"); done
if [[ ${#OPERATIONS[@]} -gt 0 ]]; then
    MIN_REQUESTS="${FUZZ_MIN_REQUESTS:-$(( ${#OPERATIONS[@]} / 2 * 100 ))}"
else
    MIN_REQUESTS="${FUZZ_MIN_REQUESTS:-10000}"
fi
WORKERS="${FUZZ_WORKERS:-1}"
TIMEOUT="${FUZZ_TIMEOUT:-10}"
SEED="${FUZZ_SEED:-$(python3 -c 'import random; print(random.randrange(1, 2**31))')}"
VENV="${FUZZ_VENV:-$ROOT/.build-fuzz/venv}"
OUT="${FUZZ_OUT:-$ROOT/.build-fuzz/last-run}"
SCHEMATHESIS_VERSION='schemathesis>=4.32,<5'

# The binary.
if [[ -z "${HEARTH_BIN:-}" ]]; then
    echo "== building hearth (swift build --product hearth)"
    swift build --product hearth
    HEARTH_BIN="$ROOT/.build/debug/hearth"
fi
[[ -x "$HEARTH_BIN" ]] || { echo "fuzz.sh: no executable at HEARTH_BIN=$HEARTH_BIN" >&2; exit 2; }

# schemathesis, in its own virtual environment.
# Built under a lock and marked whole last (.hearth-installed), so two runs at once, or a run after one that
# died while installing, never use a half-built venv.
if [[ ! -f "$VENV/.hearth-installed" ]]; then
    mkdir -p "$(dirname "$VENV")"
    exec {venv_lock}> "$VENV.lock"
    flock "$venv_lock"
    if [[ ! -f "$VENV/.hearth-installed" ]]; then
        echo "== installing schemathesis into $VENV"
        rm -rf "$VENV"
        python3 -m venv "$VENV"
        "$VENV/bin/python" -m pip install --quiet "$SCHEMATHESIS_VERSION"
        touch "$VENV/.hearth-installed"
    fi
    exec {venv_lock}>&-
fi

rm -rf "$OUT"
mkdir -p "$OUT"
DATA="$(mktemp -d "${TMPDIR:-/tmp}/hearth-fuzz.XXXXXX")"
SERVER_PID=""
cleanup() {
    if [[ -n "$SERVER_PID" ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
        kill "$SERVER_PID" 2>/dev/null || true
        wait "$SERVER_PID" 2>/dev/null || true
    fi
    rm -rf "$DATA"
}
trap cleanup EXIT

# The server: development mode (any API key, `Bearer owner` for the admin routes: scripts/fuzz.toml), a free
# loopback port.
echo "== starting $HEARTH_BIN serve (data in $DATA)"
"$HEARTH_BIN" serve --host 127.0.0.1 --port 0 --data-dir "$DATA" --log-level warning >"$OUT/server.log" 2>&1 &
SERVER_PID=$!
BASE=""
for _ in $(seq 1 600); do
    BASE="$(grep -o 'listening on http://[^ ]*' "$OUT/server.log" | head -n 1 | sed 's/listening on //' || true)"
    [[ -n "$BASE" ]] && break
    kill -0 "$SERVER_PID" 2>/dev/null || { echo "fuzz.sh: the server stopped at start:" >&2; cat "$OUT/server.log" >&2; exit 1; }
    sleep 0.1
done
[[ -n "$BASE" ]] || { echo "fuzz.sh: the server did not start within 60 s" >&2; exit 1; }
echo "== server at $BASE (pid $SERVER_PID)"

# The run.
echo "== schemathesis: $MAX_EXAMPLES examples per operation, $WORKERS workers, ${TIMEOUT}s per request, seed $SEED${FUZZ_OPERATIONS:+, operations: $FUZZ_OPERATIONS}"
START=$(date +%s)
set +e
# From $OUT, where schemathesis keeps its cache (.schemathesis/).
cd "$OUT"
HEARTH_FUZZ_URL="$BASE" HEARTH_FUZZ_SEED="$SEED" HEARTH_FUZZ_COUNTS="$OUT/counts.json" PYTHONPATH="$ROOT/scripts" SCHEMATHESIS_HOOKS=fuzz_hooks \
    "$VENV/bin/schemathesis" --config-file "$ROOT/scripts/fuzz.toml" run "$ROOT/docs/openapi.yaml" \
    --url "$BASE" \
    "${OPERATIONS[@]}" \
    --checks not_a_server_error \
    --max-examples "$MAX_EXAMPLES" \
    --continue-on-failure \
    --request-timeout "$TIMEOUT" \
    --workers "$WORKERS" \
    --seed "$SEED" \
    --suppress-health-check all \
    --report junit --report-dir "$OUT" \
    >"$OUT/schemathesis.txt" 2>&1
SCHEMATHESIS_STATUS=$?
set -e
cd "$ROOT"
ELAPSED=$(( $(date +%s) - START ))

# Still alive and answering?
CRASHED=0
if ! kill -0 "$SERVER_PID" 2>/dev/null; then
    CRASHED=1
elif ! curl -fsS --max-time 10 "$BASE/healthz" >/dev/null; then
    CRASHED=1
fi
if [[ $CRASHED -eq 0 ]]; then
    kill "$SERVER_PID"
    wait "$SERVER_PID" 2>/dev/null || true
fi
SERVER_PID=""

tail -n 40 "$OUT/schemathesis.txt"
echo
"$VENV/bin/python" - "$OUT/counts.json" "$MIN_REQUESTS" "$CRASHED" "$SCHEMATHESIS_STATUS" "$ELAPSED" "$SEED" <<'PY'
import json, sys
from collections import defaultdict

path, minimum, crashed, status, elapsed, seed = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1", int(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
try:
    counts = json.load(open(path))
except (OSError, ValueError):
    print(f"fuzz.sh: no counts in {path}: the hooks did not run")
    sys.exit(1)
per_operation = defaultdict(lambda: defaultdict(int))
for row in counts["responses"]:
    per_operation[row["operation"]][row["status"] // 100] += row["count"]
errors = defaultdict(int)
for row in counts["network_errors"]:
    errors[row["kind"]] += row["count"]
    per_operation[row["operation"]]["error"] += row["count"]
total = sum(row["count"] for row in counts["responses"]) + sum(errors.values())
server_errors = sum(row["count"] for row in counts["responses"] if row["status"] >= 500)
timeouts = sum(n for kind, n in errors.items() if "Timeout" in kind)
other_errors = sum(errors.values()) - timeouts

print(f"{'operation':<72} {'sent':>6} {'2xx':>6} {'3xx':>5} {'4xx':>6} {'5xx':>4} {'err':>4}")
for operation in sorted(per_operation):
    row = per_operation[operation]
    sent = sum(row.values())
    print(f"{operation:<72} {sent:>6} {row[2]:>6} {row[3]:>5} {row[4]:>6} {row[5]:>4} {row['error']:>4}")
setup = sum(counts["setup"].values())
print()
print(f"requests sent   {total} by schemathesis (+ {setup} by the hooks to obtain real tokens and states: {dict(counts['setup'])})")
print(f"5xx answers     {server_errors}")
print(f"timeouts        {timeouts}" + (f" (other network errors: {other_errors}: {dict(errors)})" if other_errors else ""))
print(f"server crashed  {'yes' if crashed else 'no'}")
print(f"time            {elapsed} s, seed {seed}, schemathesis exit status {status}")
for example in counts.get("server_errors", [])[:10]:
    print(f"\n{example['status']} from {example['operation']}:\n  {example['curl']}\n  {example['body']}")

failed = []
if server_errors: failed.append(f"{server_errors} answers were 5xx")
if timeouts: failed.append(f"{timeouts} requests timed out")
if other_errors: failed.append(f"{other_errors} requests failed at the network level")
if crashed: failed.append("the server stopped or stopped answering")
if total < minimum: failed.append(f"only {total} requests were sent (at least {minimum} wanted)")
if status != 0 and not failed: failed.append(f"schemathesis exited with {status}: see schemathesis.txt")
setup_5xx = sum(n for k, n in counts["setup"].items() if k == "5xx")
if setup_5xx: failed.append(f"{setup_5xx} of the hooks' own requests were 5xx")
print()
print("FAILED: " + "; ".join(failed) if failed else "PASSED")
sys.exit(1 if failed else 0)
PY
