#!/usr/bin/env bash
# Installs what the Swift tests run on loopback when it is missing: Debian's OpenStack Swift
# servers, Keystone's Python package and keystonemiddleware (not the keystone package, whose
# dbconfig/uwsgi setup the tests do not need) and memcached. Idempotent: a second run only checks.
# test-support's SwiftServer writes every config into the test's own directory and starts each
# server itself; nothing here starts a service (Debian's policy-rc.d, if any, keeps it so).
set -euo pipefail

packages=(swift swift-proxy swift-account swift-container swift-object python3-keystone
  python3-keystonemiddleware memcached)
programs=(/usr/bin/swift-proxy-server /usr/bin/swift-account-server /usr/bin/swift-container-server
  /usr/bin/swift-object-server /usr/bin/keystone-manage /usr/bin/keystone-wsgi-public /usr/bin/memcached)

installed() {
  local p
  for p in "${programs[@]}"; do [[ -x "$p" ]] || return 1; done
  /usr/bin/python3 -c 'import keystonemiddleware.auth_token, swift.common.middleware.slo' 2>/dev/null
}

if installed; then
  echo ".ci/swift.sh: Swift $(dpkg-query -W -f='${Version}' swift-proxy 2>/dev/null || echo '?'), Keystone $(dpkg-query -W -f='${Version}' python3-keystone 2>/dev/null || echo '?') already installed" >&2
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo ".ci/swift.sh: apt-get not found; install Debian's ${packages[*]} for the Swift tests" >&2
  exit 1
fi
start=$SECONDS
echo ".ci/swift.sh: installing ${packages[*]} (Debian packages)" >&2
export DEBIAN_FRONTEND=noninteractive
# An old package list may name versions the mirror no longer has: refresh it when the first try fails.
if ! apt-get install -y -qq --no-install-recommends "${packages[@]}" >&2; then
  apt-get update -qq >&2
  apt-get install -y -qq --no-install-recommends "${packages[@]}" >&2
fi
installed || { echo ".ci/swift.sh: the Swift or Keystone programs are still missing after apt-get install" >&2; exit 1; }
echo ".ci/swift.sh: installed in $((SECONDS - start)) s" >&2
