#!/usr/bin/env bash
# Consumer test: the five public packages as a user gets them. Builds and packs them, installs the
# tarballs into a fresh project outside the repository with npm, by README.md's own install line
# (the tarballs standing in for the @broker-history packages it names), and checks there that:
#   - publint and attw find no packaging or type-resolution problem in any tarball;
#   - a TypeScript consumer type-checks under nodenext and bundler resolution (every .d.ts checked);
#   - plain Node reads full histories through the installed client (undici and fetch agree) and the
#     installed CLI exports the same deposits (read-history.mjs);
#   - the client's neutral path (layer + FetchHttpClient) loads no Node-only module (neutral.mjs);
#   - the same path works on Bun and Deno (neutral-runtime.mjs);
# and prints tarball sizes, the install time and CLI start-up times. Any failure fails the script.
# Needs Node 20+ and npm (pnpm via npx), the repository's dependencies installed, and the npm
# registry; all other traffic goes to 127.0.0.1. Usage, from anywhere: bash scripts/consumer/run.sh
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
HERE="$ROOT/scripts/consumer"
cd "$ROOT"
PNPM_VERSION=$(node -p 'require("./package.json").packageManager.split("@")[1]')
export CI="${CI:-true}" NO_COLOR=1 FORCE_COLOR=0
PACKAGES=(core domain client server cli)
DEMO_KEY=mx0vglDEMOKEY0000000000000000000
DEMO_SECRET=45d0b3c26f2644f19bfb98b07741b2f5

WORK=$(mktemp -d "${TMPDIR:-/tmp}/broker-history-consumer.XXXXXX")
PACKS="$WORK/packs"
PROJECT="$WORK/project"
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
  tgz=$(echo "$PACKS"/broker-history-"$p"-*.tgz)
  [[ -f "$tgz" ]] || { echo "no tarball for $p in $PACKS" >&2; exit 1; }
  bytes=$(wc -c <"$tgz" | tr -d ' ')
  files=$(tar -tzf "$tgz" | wc -l | tr -d ' ')
  total=$((total + bytes))
  printf '   tarball %-24s %8s bytes, %3s files\n' "@broker-history/$p" "$bytes" "$files"
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

step "fresh project outside the repository: npm install of the tarballs"
mkdir -p "$PROJECT"
cd "$PROJECT"
npm init -y >/dev/null
npm pkg set type=module
# npm 11 asks for install scripts to be approved: better-sqlite3 compiles (or fetches) its binding,
# bun and deno link their platform binaries. Older npm ignores the field.
npm pkg set allowScripts.better-sqlite3=true allowScripts.bun=true allowScripts.deno=true --json
# The README's own install line (read out of README.md, so the two cannot drift), the tarballs in
# place of the @broker-history packages it names and the other packed ones added; then the tools.
mapfile -t README_INSTALL < <(node "$HERE/readme-install.mjs" "$ROOT/README.md" "$PACKS")
[[ ${#README_INSTALL[@]} -gt 0 ]] || { echo "no install line read from README.md" >&2; exit 1; }
echo "   README.md's install line: npm install ${README_INSTALL[*]#"$PACKS/"}"
T_INSTALL=$(now_ms)
bounded 600 npm install --no-audit --no-fund "${README_INSTALL[@]}"
bounded 300 npm install --no-audit --no-fund --save-dev \
  "typescript@~5.9" "@types/node@^20" publint "@arethetypeswrong/cli"
INSTALL_MS=$(($(now_ms) - T_INSTALL))
echo "   scratch install (the README's line with 5 tarballs; typescript, publint, attw; better-sqlite3 built): $((INSTALL_MS / 1000)).$((INSTALL_MS % 1000 / 100)) s"
cp "$HERE"/{read-history.mjs,neutral.mjs,neutral-runtime.mjs,record-loads.mjs,record-loads-register.mjs} .
cp "$HERE"/{consumer.ts,consumer-node.ts,tsconfig.nodenext.json,tsconfig.bundler.json} .

step "publint --strict and attw --profile esm-only on each tarball"
for p in "${PACKAGES[@]}"; do
  tgz=$(echo "$PACKS"/broker-history-"$p"-*.tgz)
  bounded 120 node_modules/.bin/publint run --strict "$tgz"
  # attw skips wildcard exports ("./*"): name every public module (dist/**/*.d.ts, not internal/).
  mapfile -t entries < <(tar -tzf "$tgz" | sed -n 's#^package/dist/\([A-Za-z0-9_/]*\)\.d\.ts$#./\1#p' |
    grep -v -e '^\./index$' -e '^\./internal/')
  # ESM-only packages: the CommonJS and node10 resolutions are out of scope, every other problem fails.
  bounded 120 node_modules/.bin/attw "$tgz" --profile esm-only --no-color --no-emoji --format table-flipped \
    --include-entrypoints "${entries[@]}"
done

step "tsc --noEmit: nodenext (consumer.ts, consumer-node.ts) and bundler (consumer.ts), skipLibCheck false"
bounded 300 node_modules/.bin/tsc -p tsconfig.nodenext.json
bounded 300 node_modules/.bin/tsc -p tsconfig.bundler.json
echo "   type-check OK"

step "plain Node: full histories through the installed client and CLI (read-history.mjs)"
bounded 300 node read-history.mjs

step "reference service for the neutrality and runtime checks (installed CLI, under Node)"
"$PROJECT/node_modules/.bin/broker-history" serve --port 0 --transfers 2000 --deposits 500 --sub-accounts 3 \
  --seed 7 --no-log >"$WORK/serve.log" 2>&1 </dev/null &
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
export BROKER_BASE_URL="$BASE_URL" BROKER_API_KEY="$DEMO_KEY" BROKER_SECRET_KEY="$DEMO_SECRET"

step "runtime neutrality: BrokerHistory.layer + FetchHttpClient loads no Node-only module (neutral.mjs)"
bounded 120 node --import ./record-loads-register.mjs neutral.mjs

step "Bun and Deno (npm packages bun, deno): the neutral path over fetch and WebCrypto (neutral-runtime.mjs)"
T_RT=$(now_ms)
bounded 300 npm install --no-audit --no-fund --save-dev "bun@^1" "deno@^2"
echo "   bun and deno installed in $((($(now_ms) - T_RT) / 1000)) s"
echo "   $(node_modules/.bin/bun --version | sed 's/^/bun /'); $(node_modules/.bin/deno --version | head -1)"
DO_NOT_TRACK=1 BUN_RUNTIME_TRANSPILER_CACHE_PATH=0 \
  bounded 120 node_modules/.bin/bun run --no-install neutral-runtime.mjs
# Deno reads package.json and the npm-installed node_modules (manual mode), downloads nothing
# (--cached-only) and may only reach 127.0.0.1 and read this project.
DENO_DIR="$WORK/deno-dir" DENO_NO_UPDATE_CHECK=1 DENO_NO_PROMPT=1 \
  bounded 120 node_modules/.bin/deno run --node-modules-dir=manual --cached-only --no-prompt \
  --allow-net=127.0.0.1 --allow-env --allow-read=. neutral-runtime.mjs
stop_server

step "CLI start-up: installed (the bundle, plain node) vs workspace (tsx)"
bounded 600 bash "$HERE/startup.sh" "$PROJECT"

step ""
echo "== consumer: OK in $((($(now_ms) - T_ALL) / 1000)) s (scratch install $((INSTALL_MS / 1000)) s)"
