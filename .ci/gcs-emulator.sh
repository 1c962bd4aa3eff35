#!/usr/bin/env bash
# Installs firebase-tools@15.34.2, whose Cloud Storage emulator serves the GCS JSON API the GCS
# tests run against, into a cache dir when it is missing; prints the dir. Idempotent: a second run
# only checks. The tests start the emulator without firebase's CLI (which wants Java 21 and
# downloads a rules runtime): test-support's GcsEmulatorServer runs its gcs-emulator.js, which
# loads the storage emulator module of this exact version, so the version is pinned. The tests
# find the dir through GCS_EMULATOR_DIR (else the same default dir as here).
set -euo pipefail

version=15.34.2
dir="${GCS_EMULATOR_DIR:-$HOME/.cache/etcd-workers/gcs-emulator}"
package="$dir/node_modules/firebase-tools"

installed() {
  [[ -f "$package/package.json" && -f "$package/lib/emulator/storage/index.js" ]] \
    && [[ "$(node -p "require('$package/package.json').version" 2>/dev/null)" == "$version" ]]
}

if installed; then
  echo ".ci/gcs-emulator.sh: firebase-tools $version already in $dir" >&2
  echo "$dir"
  exit 0
fi
if ! command -v npm >/dev/null 2>&1; then
  echo ".ci/gcs-emulator.sh: npm not found; install Node.js (Debian: apt-get install nodejs npm) for the GCS tests" >&2
  exit 1
fi
echo ".ci/gcs-emulator.sh: installing firebase-tools@$version into $dir (about 300 MB, a few minutes)" >&2
mkdir -p "$dir"
# --prefix keeps it out of the project and of any global node_modules; no audit/fund chatter.
npm install --prefix "$dir" --no-audit --no-fund --loglevel=error "firebase-tools@$version" >&2
installed || { echo ".ci/gcs-emulator.sh: firebase-tools $version is not complete in $dir after npm install" >&2; exit 1; }
echo ".ci/gcs-emulator.sh: firebase-tools $version installed in $dir" >&2
echo "$dir"
