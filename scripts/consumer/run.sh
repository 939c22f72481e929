#!/usr/bin/env bash
# Consumer test: the public packages of both lines as a user gets them. Builds and packs them, and
# installs each line's tarballs into its own fresh project outside the repository with npm (Effect 3
# and Effect 4 peers cannot share one), the tarballs standing in for the @broker-history packages
# the install lines name:
#   - the Effect 3 line (core, domain, client, server, cli): README.md's install line and the CLI
#     README's line for its library modules;
#   - the Effect 4 line (core, domain-effect4, client-effect4): README.md's install line for
#     @broker-history/client-effect4 (or, while it gives none, that package's README's), with the
#     optional peers the packages declare (readme-install.mjs), without --legacy-peer-deps;
# and checks that:
#   - publint and attw find no packaging or type-resolution problem in any tarball;
#   - the Effect 4 tree is valid (`npm ls --all`) and holds no Effect but 4.x;
#   - each line's TypeScript consumer type-checks under nodenext and bundler resolution (every .d.ts
#     checked: consumer*.ts), and the CLI's library modules load;
#   - plain Node reads full histories through the installed Effect 3 client (undici and fetch agree)
#     and the installed CLI exports the same deposits (read-history.mjs);
#   - for each line, the client's neutral path (layer + FetchHttpClient) loads no Node-only module
#     (neutral.mjs), and on Node, Bun and Deno a page comes back over fetch and the ready layer
#     (BrokerHistory.layerConfig(), from BROKER_*) reads the reference service's full histories, once
#     each, in order, exactly as the installed CLI exports them (neutral-runtime.mjs);
#   - the CLI installs and runs in a fresh project whose `effect` is 4.x and globally, never loading
#     the project's Effect (cli-anywhere.sh);
# and prints tarball sizes, install and step times and CLI start-up times. Any failure fails it.
# Needs Node 20+ and npm (pnpm via npx), the repository's dependencies installed, and the npm
# registry; all other traffic goes to 127.0.0.1. Usage, from anywhere: bash scripts/consumer/run.sh
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
HERE="$ROOT/scripts/consumer"
cd "$ROOT"
PNPM_VERSION=$(node -p 'require("./package.json").packageManager.split("@")[1]')
export CI="${CI:-true}" NO_COLOR=1 FORCE_COLOR=0
# The packages of each line; core is both lines'. Each is packed once.
LINE3=(core domain client server cli)
LINE4=(core domain-effect4 client-effect4)
PACKAGES=(core domain client server cli domain-effect4 client-effect4)
# The checks both lines' projects run, each over the line's modules (line.mjs: line-effect3.mjs or
# line-effect4.mjs) and its consumer*.ts.
LINE_CHECKS=("$HERE"/{history-order.mjs,neutral.mjs,neutral-runtime.mjs,record-loads.mjs,record-loads-register.mjs})
LINE_CHECKS+=("$HERE"/{tsconfig.nodenext.json,tsconfig.bundler.json})
DEMO_KEY=mx0vglDEMOKEY0000000000000000000
DEMO_SECRET=45d0b3c26f2644f19bfb98b07741b2f5

WORK=$(mktemp -d "${TMPDIR:-/tmp}/broker-history-consumer.XXXXXX")
PACKS="$WORK/packs"
PROJECT="$WORK/project"
PROJECT4="$WORK/project-effect4"
SERVER_PID=""

stop_server() {
  if [[ -n "$SERVER_PID" ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill "$SERVER_PID" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$SERVER_PID" 2>/dev/null || true
  fi
  SERVER_PID=""
}
# On any exit: stop the reference service started here and delete every temporary file.
cleanup() {
  local rc=$?
  stop_server
  rm -rf "$WORK"
  if [[ $rc -ne 0 ]]; then echo "== consumer: FAILED (exit $rc)" >&2; fi
  exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

now_ms() { node -p 'Date.now()'; }
T_ALL=$(now_ms)
T_STEP=$T_ALL
step() {
  local t
  t=$(now_ms)
  if [[ -n "${STEP_NAME:-}" ]]; then echo "   (${STEP_NAME}: $(((t - T_STEP) / 1000)).$(((t - T_STEP) % 1000 / 100)) s)"; fi
  STEP_NAME=$1
  T_STEP=$t
  [[ -z "$1" ]] || echo "== consumer: $1"
}
# Every command that could wait is bounded (coreutils timeout; on timeout its process group is killed).
bounded() { timeout --kill-after=10 "$@"; }
# tarball NAME: the packed @broker-history/NAME (its version starts with a digit: client is not client-effect4).
tarball() { echo "$PACKS"/broker-history-"$1"-[0-9]*.tgz; }
# line_packs DIR PACKAGE...: DIR holds those tarballs only (readme-install.mjs adds every one of DIR).
line_packs() {
  local dir=$1 p
  shift
  mkdir -p "$dir"
  for p in "$@"; do ln "$(tarball "$p")" "$dir/"; done
}
# fresh_project DIR: an empty ESM npm project.
fresh_project() {
  mkdir -p "$1"
  (cd "$1" && npm init -y >/dev/null && npm pkg set type=module)
}
# install_args PACKS_DIR PACKAGE SOURCE...: the npm install arguments of the line a README gives for
# PACKAGE (readme-install.mjs: the first SOURCE that has one), with the tarballs of PACKS_DIR; one a line.
install_args() { (cd "$ROOT" && node "$HERE/readme-install.mjs" "$@"); }

step "build and pack (pnpm ${PNPM_VERSION})"
bounded 300 npx --yes "pnpm@${PNPM_VERSION}" run build
mkdir -p "$PACKS"
for p in "${PACKAGES[@]}"; do
  if ! (cd "packages/$p" && bounded 120 npx --yes "pnpm@${PNPM_VERSION}" pack --pack-destination "$PACKS") \
    >"$WORK/pack-$p.log" 2>&1; then
    cat "$WORK/pack-$p.log" >&2
    echo "pnpm pack failed in packages/$p" >&2
    exit 1
  fi
done
total=0
for p in "${PACKAGES[@]}"; do
  tgz=$(tarball "$p")
  [[ -f "$tgz" ]] || { echo "no tarball for $p in $PACKS" >&2; exit 1; }
  bytes=$(wc -c <"$tgz" | tr -d ' ')
  files=$(tar -tzf "$tgz" | wc -l | tr -d ' ')
  total=$((total + bytes))
  printf '   tarball %-32s %8s bytes, %3s files\n' "@broker-history/$p" "$bytes" "$files"
  # The published manifest must name compiled files only: entry points and bins in the tarball, no
  # .ts entry point, no tsx launcher as the bin, no workspace: range left (clear messages before
  # the install; the checks below would fail later and less plainly).
  mkdir -p "$WORK/unpacked/$p"
  tar -xzf "$tgz" -C "$WORK/unpacked/$p"
  node -e '
    const fs = require("node:fs"), path = require("node:path")
    const dir = path.join(process.argv[1], "package")
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"))
    const problems = []
    const entries = JSON.stringify({ exports: pkg.exports, main: pkg.main, types: pkg.types })
    if (/\.ts"/.test(entries.replace(/\.d\.ts"/g, ""))) problems.push(`entry points name .ts files: ${entries}`)
    const bins = typeof pkg.bin === "string" ? { [pkg.name]: pkg.bin } : (pkg.bin ?? {})
    for (const [name, file] of Object.entries(bins)) {
      const full = path.join(dir, file)
      if (!fs.existsSync(full)) { problems.push(`bin ${name}: ${file} is not in the tarball`); continue }
      const text = fs.readFileSync(full, "utf8")
      if (!text.startsWith("#!/usr/bin/env node")) problems.push(`bin ${name}: ${file} has no node shebang`)
      if (/(from|import)\s*\(?\s*["\x27](tsx[/"\x27]|[^"\x27]*\.ts["\x27])/.test(text)) problems.push(`bin ${name}: ${file} runs TypeScript (tsx or a .ts import)`)
    }
    const ranges = JSON.stringify([pkg.dependencies, pkg.peerDependencies, pkg.optionalDependencies])
    if (ranges.includes("workspace:")) problems.push("workspace: ranges left in dependencies")
    if (problems.length > 0) {
      console.error(`${pkg.name}: ${problems.join("; ")}`)
      process.exit(1)
    }' "$WORK/unpacked/$p"
done
echo "   tarballs total: $total bytes"
line_packs "$PACKS/effect3" "${LINE3[@]}"
line_packs "$PACKS/effect4" "${LINE4[@]}"

step "Effect 3 line: fresh project outside the repository: npm install of the tarballs"
fresh_project "$PROJECT"
cd "$PROJECT"
# npm 11 asks for install scripts to be approved: better-sqlite3 compiles (or fetches) its binding,
# bun and deno link their platform binaries. Older npm ignores the field.
npm pkg set allowScripts.better-sqlite3=true allowScripts.bun=true allowScripts.deno=true --json
# The README's own install line (read out of README.md, so the two cannot drift), the tarballs in
# place of the @broker-history packages it names and the line's other packed ones added, then the
# line the CLI's README gives for its library modules (the CLI installs none of their Effect 3
# packages); then the tools.
mapfile -t README_INSTALL < <(install_args "$PACKS/effect3" @broker-history/client README.md#Install)
[[ ${#README_INSTALL[@]} -gt 0 ]] || { echo "no install line read from README.md" >&2; exit 1; }
mapfile -t LIBRARY_INSTALL < <(install_args "$PACKS/effect3" @broker-history/cli "packages/cli/README.md#In a program")
[[ ${#LIBRARY_INSTALL[@]} -gt 0 ]] || { echo "no install line read from packages/cli/README.md" >&2; exit 1; }
T_INSTALL=$(now_ms)
bounded 600 npm install --no-audit --no-fund "${README_INSTALL[@]}" "${LIBRARY_INSTALL[@]}"
bounded 300 npm install --no-audit --no-fund --save-dev \
  "typescript@~5.9" "@types/node@^20" publint "@arethetypeswrong/cli"
INSTALL_MS=$(($(now_ms) - T_INSTALL))
echo "   scratch install (the READMEs' lines with 5 tarballs; typescript, publint, attw; better-sqlite3 built): $((INSTALL_MS / 1000)).$((INSTALL_MS % 1000 / 100)) s"
cp "${LINE_CHECKS[@]}" "$HERE"/{read-history.mjs,consumer.ts,consumer-node.ts} .
cp "$HERE/line-effect3.mjs" line.mjs

step "Effect 4 line: fresh project outside the repository: npm install of the tarballs"
fresh_project "$PROJECT4"
cd "$PROJECT4"
# README.md's line for the Effect 4 packages once it gives one, the package's own README's until then.
mapfile -t INSTALL4 < <(install_args "$PACKS/effect4" @broker-history/client-effect4 README.md#Install \
  packages/client-effect4/README.md)
[[ ${#INSTALL4[@]} -gt 0 ]] || { echo "no Effect 4 install line read from README.md or packages/client-effect4/README.md" >&2; exit 1; }
T_INSTALL4=$(now_ms)
bounded 600 npm install --no-audit --no-fund "${INSTALL4[@]}"
bounded 300 npm install --no-audit --no-fund --save-dev "typescript@~5.9" "@types/node@^20"
INSTALL4_MS=$(($(now_ms) - T_INSTALL4))
echo "   scratch install (the README's line with 3 tarballs; typescript): $((INSTALL4_MS / 1000)).$((INSTALL4_MS % 1000 / 100)) s"
bounded 60 npm ls --all >/dev/null || { npm ls --all 2>&1 | tail -20 >&2; echo "npm ls: the Effect 4 project's tree is invalid" >&2; exit 1; }
# Every Effect package installed anywhere in the tree (npm query sees nested copies too) is 4.x.
npm query '[name=effect], [name^=@effect/]' | node -e '
  const found = JSON.parse(require("node:fs").readFileSync(0, "utf8")).map((p) => `${p.name}@${p.version} (${p.location})`)
  const other = found.filter((p) => !/@4\.\d+\.\d+[^ ]* \(/.test(p))
  if (!found.some((p) => p.startsWith("effect@"))) { console.error("the Effect 4 project has no effect installed"); process.exit(1) }
  if (other.length > 0) { console.error(`the Effect 4 project holds Effect packages that are not 4.x: ${other.join(", ")}`); process.exit(1) }
  console.log(`   npm ls --all: valid; its Effect packages, all 4.x: ${found.join(", ")}`)'
cp "${LINE_CHECKS[@]}" "$HERE"/{consumer-effect4.ts,consumer-effect4-node.ts} .
cp "$HERE/line-effect4.mjs" line.mjs
cd "$PROJECT"

step "publint --strict and attw --profile esm-only on each tarball (both lines)"
for p in "${PACKAGES[@]}"; do
  tgz=$(tarball "$p")
  bounded 120 node_modules/.bin/publint run --strict "$tgz"
  # attw skips wildcard exports ("./*"): name every public module (dist/**/*.d.ts, not internal/).
  mapfile -t entries < <(tar -tzf "$tgz" | sed -n 's#^package/dist/\([A-Za-z0-9_/]*\)\.d\.ts$#./\1#p' |
    grep -v -e '^\./index$' -e '^\./internal/')
  # ESM-only packages: the CommonJS and node10 resolutions are out of scope, every other problem fails.
  bounded 120 node_modules/.bin/attw "$tgz" --profile esm-only --no-color --no-emoji --format table-flipped \
    --include-entrypoints "${entries[@]}"
done

# typecheck PROJECT_DIR: tsc --noEmit over the project's consumer*.ts, nodenext and bundler.
typecheck() {
  (cd "$1" && bounded 300 node_modules/.bin/tsc -p tsconfig.nodenext.json && bounded 300 node_modules/.bin/tsc -p tsconfig.bundler.json)
  echo "   type-check OK: $(cd "$1" && echo consumer*.ts)"
}

step "Effect 4 line: tsc --noEmit, skipLibCheck false: nodenext (consumer-effect4*.ts), bundler (consumer-effect4.ts)"
typecheck "$PROJECT4"

step "Effect 3 line: tsc --noEmit, skipLibCheck false: nodenext (consumer.ts, consumer-node.ts), bundler (consumer.ts)"
typecheck "$PROJECT"
# consumer-node.ts only type-checks the CLI's library modules: load them too (every static import).
bounded 60 node --input-type=module -e '
  import { Cli, SyncDatabase } from "@broker-history/cli"
  if (typeof Cli.run !== "function" || SyncDatabase.tables.transfers.name !== "transfers") process.exit(1)'
echo "   the CLI's library modules load (Cli, SyncDatabase)"

step "Effect 3 line, plain Node: full histories through the installed client and CLI (read-history.mjs)"
bounded 300 node read-history.mjs

step "reference service for the neutrality, runtime and CLI-anywhere checks (installed CLI, under Node)"
# Two years of history, and the budget the readers below allow themselves (BROKER_RATE_LIMIT*).
DEPOSITS=500
"$PROJECT/node_modules/.bin/broker-history" serve --port 0 --transfers 2000 --deposits "$DEPOSITS" --sub-accounts 3 \
  --seed 7 --years 2 --rate-limit 500 --rate-window-ms 1000 --no-log >"$WORK/serve.log" 2>&1 </dev/null &
SERVER_PID=$!
BASE_URL=""
for _ in $(seq 600); do
  # The listening line may be on stdout or stderr, in either log format: both go to serve.log.
  BASE_URL=$(grep -o -m1 'listening on http://127\.0\.0\.1:[0-9]*' "$WORK/serve.log" | sed 's/^listening on //' || true)
  [[ -z "$BASE_URL" ]] || break
  if ! kill -0 "$SERVER_PID" 2>/dev/null; then
    cat "$WORK/serve.log" >&2
    echo "broker-history serve exited before listening" >&2
    exit 1
  fi
  sleep 0.1
done
if [[ -z "$BASE_URL" ]]; then
  cat "$WORK/serve.log" >&2
  echo "broker-history serve did not listen within 60 s" >&2
  exit 1
fi
echo "   serving on $BASE_URL"
export BROKER_BASE_URL="$BASE_URL" BROKER_API_KEY="$DEMO_KEY" BROKER_SECRET_KEY="$DEMO_SECRET" \
  BROKER_RATE_LIMIT=500 BROKER_RATE_LIMIT_INTERVAL="1 second"
# The reference the lines' readers are held to: the service's whole history (from three years back,
# it holds two) of deposits and of SPOT→FUTURES transfers, as the installed CLI exports it.
REFERENCE_UNTIL=$(now_ms)
REFERENCE_SINCE=$((REFERENCE_UNTIL - 3 * 366 * 86400000))
bounded 120 node_modules/.bin/broker-history deposits --since "$REFERENCE_SINCE" --until "$REFERENCE_UNTIL" \
  >"$WORK/reference-deposits.ndjson"
bounded 120 node_modules/.bin/broker-history transfers --from-account-type SPOT --to-account-type FUTURES \
  --since "$REFERENCE_SINCE" --until "$REFERENCE_UNTIL" >"$WORK/reference-transfers.ndjson"
reference() { echo "$(wc -l <"$1" | tr -d ' ') $(sha256sum "$1" | cut -d' ' -f1)"; }
export REFERENCE_SINCE REFERENCE_UNTIL REFERENCE_DEPOSITS REFERENCE_TRANSFERS
REFERENCE_DEPOSITS=$(reference "$WORK/reference-deposits.ndjson")
REFERENCE_TRANSFERS=$(reference "$WORK/reference-transfers.ndjson")
[[ "${REFERENCE_DEPOSITS%% *}" == "$DEPOSITS" ]] ||
  { echo "the CLI exported ${REFERENCE_DEPOSITS%% *} deposits, the service holds $DEPOSITS" >&2; exit 1; }
[[ "${REFERENCE_TRANSFERS%% *}" -gt 0 ]] || { echo "the CLI exported no SPOT→FUTURES transfers" >&2; exit 1; }
echo "   reference: the CLI's export of $DEPOSITS deposits (all the service holds) and ${REFERENCE_TRANSFERS%% *} SPOT→FUTURES transfers"

step "Bun and Deno (npm packages bun, deno, in the Effect 3 project; both lines run them)"
T_RT=$(now_ms)
bounded 300 npm install --no-audit --no-fund --save-dev "bun@^1" "deno@^2"
echo "   bun and deno installed in $((($(now_ms) - T_RT) / 1000)) s"
BUN="$PROJECT/node_modules/.bin/bun"
DENO="$PROJECT/node_modules/.bin/deno"
echo "   $("$BUN" --version | sed 's/^/bun /'); $("$DENO" --version | head -1)"

# line_runtimes PROJECT_DIR: the line installed there (its line.mjs): the neutral path loads no
# Node-only module (neutral.mjs), and Node, Bun and Deno read a page and the full histories
# (neutral-runtime.mjs). Deno reads package.json and the npm-installed node_modules (manual mode),
# downloads nothing (--cached-only) and may only reach 127.0.0.1 and read that project.
line_runtimes() {
  (
    cd "$1"
    bounded 120 node --import ./record-loads-register.mjs neutral.mjs
    bounded 120 node neutral-runtime.mjs
    DO_NOT_TRACK=1 BUN_RUNTIME_TRANSPILER_CACHE_PATH=0 bounded 120 "$BUN" run --no-install neutral-runtime.mjs
    DENO_DIR="$WORK/deno-dir" DENO_NO_UPDATE_CHECK=1 DENO_NO_PROMPT=1 \
      bounded 120 "$DENO" run --node-modules-dir=manual --cached-only --no-prompt \
      --allow-net=127.0.0.1 --allow-env --allow-read=. neutral-runtime.mjs
  )
}

step "Effect 3 line: neutral path (neutral.mjs); Node, Bun, Deno: full histories through layerConfig() (neutral-runtime.mjs)"
line_runtimes "$PROJECT"

step "Effect 4 line: neutral path (neutral.mjs); Node, Bun, Deno: full histories through layerConfig() (neutral-runtime.mjs)"
line_runtimes "$PROJECT4"

step "the CLI anywhere: in a fresh Effect 4 project and installed globally (cli-anywhere.sh)"
bounded 600 bash "$HERE/cli-anywhere.sh" "$PACKS/effect3" "$WORK/anywhere" "$PROJECT"
stop_server

step "CLI start-up: installed (the bundle, plain node) vs workspace (tsx)"
bounded 600 bash "$HERE/startup.sh" "$PROJECT"

step ""
echo "== consumer: OK in $((($(now_ms) - T_ALL) / 1000)) s (scratch installs: Effect 3 $((INSTALL_MS / 1000)) s, Effect 4 $((INSTALL4_MS / 1000)) s)"
