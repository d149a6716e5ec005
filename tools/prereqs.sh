#!/usr/bin/env bash
# Prints one line for each thing that `make test` needs and this machine
# lacks: the suites that need it skip (go test shows nothing of a passing
# package, so the line is printed here). With CI=true those suites fail
# instead, and this script says so too.
set -u
missing() {
  if [ "${CI:-}" = "true" ]; then
    echo "make test: $1 — with CI=true the suites that need it FAIL"
  else
    echo "make test: $1 — the suites that need it are SKIPPED"
  fi
}

url=${FEEDBACK_TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}
hostport=$(printf '%s' "$url" | sed -E 's#^[a-z]+://([^@/]*@)?([^/?]+).*#\2#')
host=${hostport%:*}
port=${hostport##*:}
[ "$port" = "$hostport" ] && port=5432
if ! (exec 3<>"/dev/tcp/$host/$port") 2>/dev/null; then
  missing "PostgreSQL is not reachable at $host:$port (set FEEDBACK_TEST_DATABASE_URL)"
fi

[ -x /usr/bin/chromium ] || missing "Chromium is not at /usr/bin/chromium (apt-get install chromium): the browser tests of server/e2e"

axe=${FEEDBACK_AXE_JS:-.ci/node/node_modules/axe-core/axe.min.js}
[ -f "$axe" ] || missing "axe-core is not installed (npm install --no-save --prefix .ci/node axe-core@4.10.3): the accessibility checks of server/e2e"
exit 0
