#!/usr/bin/env bash
# Proves `npm run local-action` works: runs the action from src/ with @github/local-action and the
# inputs of .env.example against the fake purge API, then checks what the fake API purged and the
# summary written. local-action exits 0 even when the action fails, so the effects are checked.
set -euo pipefail
cd "$(dirname "$0")/.."

work=$(mktemp -d)
trap 'if [ -s "$work/pid" ]; then kill "$(cat "$work/pid")" 2>/dev/null || true; fi; rm -rf "$work"' EXIT

npx tsx scripts/fake-server.mts --quiet --url-file "$work/url" --state-file "$work/state.json" \
  --pid-file "$work/pid" > "$work/server.log" 2>&1 &
for _ in $(seq 1 100); do [ -s "$work/url" ] && break; sleep 0.1; done
[ -s "$work/url" ] || { cat "$work/server.log"; echo "fake server did not start"; exit 1; }
url=$(cat "$work/url")

# .env.example names the fake API at 127.0.0.1:8787; point it at this run's free port instead.
sed -e "s#http://127.0.0.1:8787#$url#g" \
  -e "s#^GITHUB_STEP_SUMMARY=.*#GITHUB_STEP_SUMMARY=$work/summary.md#" \
  -e "s#^RUNNER_TEMP=.*#RUNNER_TEMP=$work#" .env.example > "$work/.env"

npx local-action run . src/main.ts "$work/.env" > "$work/local-action.log" 2>&1 ||
  { cat "$work/local-action.log"; exit 1; }

node -e '
  const state = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  const text = JSON.stringify(state);
  const missing = ["homepage", "product-42", "product-43", "/products/42"].filter((t) => !text.includes(t));
  if (missing.length > 0) { console.error("not purged through local-action: " + missing.join(", ")); process.exit(1); }
' "$work/state.json" || { cat "$work/local-action.log"; exit 1; }
grep -q "4 purged, 0 failed" "$work/summary.md" ||
  { echo "summary does not report 4 purged:"; cat "$work/summary.md"; exit 1; }
echo "local-action: the action from src/ purged 3 keys and 1 URL through the fake purge API"
