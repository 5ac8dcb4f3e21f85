#!/usr/bin/env bash
# What a reviewer runs before allowing a release, and what release.yml runs on the tag: rebuilds
# dist/ from the committed source with the locked dependencies, in a fresh copy of the commit (so
# nothing of this checkout's node_modules or uncommitted files takes part), and compares it with
# the dist/ committed in that commit (dist/cli/, the command line, too), file by file. Install scripts are not run: the build needs
# none. Usage: npm run verify-dist [-- COMMIT] (default HEAD).
set -euo pipefail
commit=${1:-HEAD}
root=$(git rev-parse --show-toplevel)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

git -C "$root" archive --format=tar "$commit" | tar -x -C "$work"
mv "$work/dist" "$work/dist.committed"
cd "$work"
npm ci --ignore-scripts --no-audit --no-fund --prefer-offline --loglevel=error
npx ncc build src/index.ts -o dist --license licenses.txt --quiet
npx ncc build src/cli/index.ts -o dist/cli --license licenses.txt --quiet

if diff -r --brief dist.committed dist; then
  echo "dist/ of $(git -C "$root" rev-parse --short "$commit") is exactly what its source builds to ($(find dist -type f | wc -l) files)."
else
  echo "dist/ of $(git -C "$root" rev-parse --short "$commit") differs from a clean build of its source (files above)." >&2
  exit 1
fi
