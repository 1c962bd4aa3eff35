#!/usr/bin/env bash
# Installs Azurite (npm azurite@3), the Azure Blob Storage emulator the ABS tests start on
# loopback, into a cache dir when it is missing; prints the dir. Idempotent: a second run only
# checks. The tests find it through AZURITE_DIR (the system property azurite.dir in the pom
# defaults to the same dir), so set AZURITE_DIR to put it elsewhere.
set -euo pipefail

dir="${AZURITE_DIR:-$HOME/.cache/etcd-workers/azurite}"
bin="$dir/node_modules/.bin/azurite-blob"

if [[ -x "$bin" ]] && "$bin" --version >/dev/null 2>&1; then
  echo ".ci/azurite.sh: Azurite $("$bin" --version) already in $dir" >&2
  echo "$dir"
  exit 0
fi
if ! command -v npm >/dev/null 2>&1; then
  echo ".ci/azurite.sh: npm not found; install Node.js (Debian: apt-get install nodejs npm) for the ABS tests" >&2
  exit 1
fi
echo ".ci/azurite.sh: installing azurite@3 into $dir" >&2
mkdir -p "$dir"
# --prefix keeps it out of the project and of any global node_modules; no audit/fund chatter.
npm install --prefix "$dir" --no-audit --no-fund --loglevel=error azurite@3 >&2
"$bin" --version >/dev/null
echo ".ci/azurite.sh: Azurite $("$bin" --version) installed in $dir" >&2
echo "$dir"
