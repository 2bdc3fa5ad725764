#!/usr/bin/env bash
# Proves the repository stands alone: clones HEAD into an empty temporary folder (no ../shared
# beside it, no node_modules, no build output) and runs the unit and integration suites there,
# as someone who cloned only this repository would. Playwright is left to the main run.
set -euo pipefail
src="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/deskstore-alone-XXXXXX")"
trap 'rm -rf "$work"' EXIT
git clone --quiet --no-local "$src" "$work/deskstore"
cd "$work/deskstore"
test ! -e ../shared
npm ci --no-audit --no-fund --prefer-offline
npm run build
npx vitest run
