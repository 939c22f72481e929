#!/usr/bin/env bash
# Consumer check: the packed CLI where a project's own Effect could meet the CLI's Effect 3. In a
# fresh project whose `effect` is 4.x (installed first), npm installs the cli tarball alone (no
# --legacy-peer-deps), and there:
#   - the tree is valid (`npm ls --all`) and its only Effect package is the project's `effect` 4.x;
#   - `npx broker-history --version` prints the tarball's version, `--help` the usage;
#   - `broker-history deposits` (the last 90 days) against the reference service at BROKER_BASE_URL
#     writes exactly what the CLI installed in the Effect 3 project (REFERENCE_PROJECT) writes, and loads
#     no module but Node's and its own dist/bin files (record-loads-register.mjs): never the
#     project's `effect`;
#   - importing the library modules fails with ERR_MODULE_NOT_FOUND (packages/cli/README.md, "In a
#     program": they are Effect 3 modules);
# then the tarball installed globally (npm install --global --prefix) brings no Effect package either
# and runs the same export from inside that project. Both installs skip install scripts: they would
# only build the optional native SQLite driver, which has nothing to do with Effect, which run.sh's
# project already builds, and whose two more builds would make this the stage's longest step (an
# export does not load it). Every wait is bounded.
# Usage, with the service running and BROKER_BASE_URL, BROKER_API_KEY, BROKER_SECRET_KEY set:
#   bash cli-anywhere.sh PACKS_DIR WORK_DIR REFERENCE_PROJECT
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
PACKS=${1:?usage: cli-anywhere.sh PACKS_DIR WORK_DIR REFERENCE_PROJECT}
WORK=${2:?usage: cli-anywhere.sh PACKS_DIR WORK_DIR REFERENCE_PROJECT}
REFERENCE=${3:?usage: cli-anywhere.sh PACKS_DIR WORK_DIR REFERENCE_PROJECT}
: "${BROKER_BASE_URL:?BROKER_BASE_URL must name the running reference service}"
bounded() { timeout --kill-after=10 "$@"; }
fail() {
  echo "cli-anywhere: FAILED: $*" >&2
  exit 1
}

CLI_TGZ=$(echo "$PACKS"/broker-history-cli-*.tgz)
[[ -f "$CLI_TGZ" ]] || fail "no cli tarball in $PACKS"
VERSION=$(tar -xzOf "$CLI_TGZ" package/package.json | node -p 'JSON.parse(require("node:fs").readFileSync(0, "utf8")).version')
mkdir -p "$WORK"
# A short export (a few requests): the last 90 days of deposits, the range fixed once for every run.
UNTIL=$(node -p 'Date.now()')
EXPORT=(deposits --since "$((UNTIL - 90 * 86400000))" --until "$UNTIL")
EXPECTED="$WORK/expected.ndjson"
bounded 120 "$REFERENCE/node_modules/.bin/broker-history" "${EXPORT[@]}" >"$EXPECTED"
EXPECTED_LINES=$(wc -l <"$EXPECTED" | tr -d ' ')
[[ "$EXPECTED_LINES" -gt 0 ]] || fail "the Effect 3 project's CLI exported no deposits"

# effect_packages DIR: every Effect package installed under DIR (effect, @effect/*), one a line.
effect_packages() {
  (cd "$1" && find . -type d \( -path '*/node_modules/effect' -o -path '*/node_modules/@effect/*' \) -prune -print |
    sed 's#^\./##' | sort)
}

# same_export LABEL FILE: FILE must hold exactly the Effect 3 project's export.
same_export() {
  cmp -s "$EXPECTED" "$2" ||
    fail "$1: ${EXPORT[*]} wrote $(wc -l <"$2" | tr -d ' ') lines that differ from the Effect 3 project's $EXPECTED_LINES"
}

PROJECT="$WORK/effect4-project"
mkdir -p "$PROJECT"
cd "$PROJECT"
npm init -y >/dev/null
npm pkg set type=module
bounded 300 npm install --no-audit --no-fund "effect@^4"
bounded 300 npm install --no-audit --no-fund --ignore-scripts "$CLI_TGZ"
bounded 60 npm ls --all >/dev/null || fail "npm ls finds the tree invalid: $(npm ls --all 2>&1 | tail -5)"
effects=$(effect_packages .)
effect_version=$(node -p 'require("./node_modules/effect/package.json").version')
[[ "$effects" == "node_modules/effect" && "$effect_version" == 4.* ]] ||
  fail "the project's only Effect package should be its effect 4.x ($effect_version), npm installed: $effects"
echo "   Effect 4 project: the CLI installed beside effect@$effect_version, no other Effect package"

version=$(bounded 60 npx --no -- broker-history --version)
[[ "$(echo "$version" | tr -d '[:space:]')" == "$VERSION" ]] || fail "--version printed '$version', expected $VERSION"
help=$(bounded 60 npx --no -- broker-history --help) || fail "--help exited non-zero"
grep -q '^USAGE' <<<"$help" && grep -q 'deposits' <<<"$help" || fail "--help printed no usage: ${help:0:300}"

BIN_DIR=$(cd node_modules/@broker-history/cli/dist/bin && pwd -P)
RECORD_LOADS_WITHIN="$BIN_DIR" bounded 120 node --import "$HERE/record-loads-register.mjs" \
  node_modules/.bin/broker-history "${EXPORT[@]}" >"$WORK/project.ndjson"
same_export "the Effect 4 project's CLI" "$WORK/project.ndjson"
echo "   Effect 4 project: --version $VERSION, --help, deposits of 90 days: $EXPECTED_LINES lines as in the Effect 3 project"

library=$(node --input-type=module -e '
  import("@broker-history/cli").then(
    () => console.log("loaded"),
    (error) => console.log(`${error.code}: ${error.message}`)
  )')
[[ "$library" == ERR_MODULE_NOT_FOUND:* ]] || fail "importing @broker-history/cli in the Effect 4 project: $library"
echo "   Effect 4 project: the library modules are Effect 3 only, as documented ($library)"

GLOBAL="$WORK/global"
bounded 300 npm install --global --prefix "$GLOBAL" --no-audit --no-fund --ignore-scripts "$CLI_TGZ"
effects=$(effect_packages "$GLOBAL")
[[ -z "$effects" ]] || fail "the global install brought Effect packages: $effects"
version=$(bounded 60 "$GLOBAL/bin/broker-history" --version)
[[ "$(echo "$version" | tr -d '[:space:]')" == "$VERSION" ]] || fail "global --version printed '$version'"
bounded 120 "$GLOBAL/bin/broker-history" "${EXPORT[@]}" >"$WORK/global.ndjson"
same_export "the global CLI" "$WORK/global.ndjson"
echo "   global install ($GLOBAL), run inside the Effect 4 project: --version, the same deposits"
