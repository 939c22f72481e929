#!/usr/bin/env bash
# CLI start-up time, median of 5 runs each (printed, not asserted): the INSTALLED CLI (its published
# bin, the bundle dist/bin/broker-history.js, plain node) in the scratch project given as $1, against
# the workspace CLI run from the TypeScript sources through tsx (packages/cli/bin/broker-history.mjs).
# Usage: bash scripts/consumer/startup.sh <project-with-installed-cli>
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PROJECT=${1:?usage: startup.sh <project dir with @broker-history/cli installed>}
INSTALLED="$PROJECT/node_modules/.bin/broker-history"
WORKSPACE=(node "$ROOT/packages/cli/bin/broker-history.mjs")
RUNS=5

# A port nothing listens on: taken from the OS, then closed again.
CLOSED_PORT=$(node -e 'const s = require("node:net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close() })')
export BROKER_API_KEY=mx0vglDEMOKEY0000000000000000000 BROKER_SECRET_KEY=45d0b3c26f2644f19bfb98b07741b2f5
TRANSFERS=(transfers --from-account-type SPOT --to-account-type FUTURES
  --base-url "http://127.0.0.1:${CLOSED_PORT}" --max-retries 0)

now_us() { if [[ -n "${EPOCHREALTIME:-}" ]]; then echo "${EPOCHREALTIME/[.,]/}"; else echo $(($(date +%s%N) / 1000)); fi; }

# median_ms EXPECTED_EXIT COMMAND...: runs COMMAND $RUNS times (output discarded, bounded to 60 s),
# fails unless each run exits with EXPECTED_EXIT ("-" accepts any), prints the median in ms.
median_ms() {
  local expected=$1 times=() start rc
  shift
  for _ in $(seq "$RUNS"); do
    start=$(now_us)
    rc=0
    timeout 60 "$@" >/dev/null 2>&1 </dev/null || rc=$?
    times+=($((($(now_us) - start) / 1000)))
    if [[ "$expected" != "-" && "$rc" != "$expected" ]]; then
      echo "startup: '$*' exited $rc, expected $expected" >&2
      return 1
    fi
  done
  printf '%s\n' "${times[@]}" | sort -n | sed -n "$(((RUNS + 1) / 2))p"
}

installed_help=$(median_ms 0 "$INSTALLED" --help)
installed_transfers=$(median_ms 4 "$INSTALLED" "${TRANSFERS[@]}")
workspace_help=$(median_ms 0 "${WORKSPACE[@]}" --help)
workspace_transfers=$(median_ms - "${WORKSPACE[@]}" "${TRANSFERS[@]}")

echo "startup (median of $RUNS, ms):              --help   transfers to a closed port (exit 4)"
printf 'startup:   installed CLI (bundle, node)     %6s   %6s\n' "$installed_help" "$installed_transfers"
printf 'startup:   workspace CLI (src through tsx)  %6s   %6s\n' "$workspace_help" "$workspace_transfers"
