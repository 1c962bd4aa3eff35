#!/usr/bin/env bash
# Regenerates every manifest that the launcher renders: for each <name>.args under manifests/,
# runs `java -jar job-launcher.jar <the args>` and writes its stdout to <name>.yaml next to it.
# A .args file holds the launcher's command line, one argument per line, taken as is (no
# quoting, no comments): ManifestsDriftTest reads the same files and runs the same command line
# in-process, and fails when a committed .yaml differs from what the launcher renders.
#
# Usage: mvn -B -pl job-launcher -am package -DskipTests && manifests/render.sh
# (JOB_LAUNCHER_JAR=/path/to/job-launcher.jar to use another build.)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
jar=${JOB_LAUNCHER_JAR:-$here/../job-launcher/target/job-launcher.jar}
if [[ ! -f $jar ]]; then
  echo "render.sh: $jar not found; build it: mvn -B -pl job-launcher -am package -DskipTests" >&2
  exit 2
fi

# LAUNCHER_* variables are the flags' environment twins: one set here would fill a flag the
# .args file leaves out, and the rendering would differ from the test's (which has none).
while IFS= read -r var; do
  unset "$var"
done < <(compgen -e | grep '^LAUNCHER_' || true)

find "$here" -name '*.args' -type f | sort | while IFS= read -r argsfile; do
  out=${argsfile%.args}.yaml
  mapfile -t args < "$argsfile"
  tmp=$(mktemp "$out.XXXXXX")
  # write to a temp file first: a failed run never leaves a truncated manifest behind
  if ! java -jar "$jar" "${args[@]}" > "$tmp"; then
    rm -f "$tmp"
    echo "render.sh: job-launcher failed for $argsfile" >&2
    exit 1
  fi
  chmod 0644 "$tmp"
  mv "$tmp" "$out"
  echo "rendered ${out#"$here"/}"
done
