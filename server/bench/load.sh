#!/usr/bin/env bash
# Load test of a real feedbackd process with wrk: the API list (with
# meta.total) and visitor ingest, against PostgreSQL (default) or SQLite.
#   server/bench/load.sh [postgres|sqlite] [seconds]
# Needs wrk (installed with apt-get when missing and run as root) and, for
# postgres, a server on 127.0.0.1:5432 with trust auth.
set -euo pipefail
cd "$(dirname "$0")/../.."
kind=${1:-postgres}
secs=${2:-10}
command -v wrk >/dev/null || { apt-get update -q && apt-get install -y -q wrk; }
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
go build -o "$work/feedbackd" ./server/cmd/feedbackd

export FEEDBACK_SECRET_KEY=$(head -c 32 /dev/urandom | base64) FEEDBACK_RATE_LIMIT=100000000 \
  FEEDBACK_VISITOR_LIMIT=100000000 FEEDBACK_POSTER_LIMIT=100000000
if [ "$kind" = postgres ]; then
  db=feedback_load_$$
  psql -h 127.0.0.1 -U postgres -qc "CREATE DATABASE $db"
  trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"; psql -h 127.0.0.1 -U postgres -qc "DROP DATABASE IF EXISTS '$db' WITH (FORCE)"' EXIT
  export DATABASE_URL="postgres://postgres@127.0.0.1:5432/$db?sslmode=disable"
else
  export DATABASE_URL="$work/feedback.db"
fi
port=$((20000 + RANDOM % 20000))
out=$("$work/feedbackd" demo --base-url "http://127.0.0.1:$port")
token=$(grep -o 'fbk_[0-9A-Za-z]\{40\}' <<<"$out" | head -1)
code=$(grep -E '^\s+hygiene' <<<"$out" | grep -o '/q/[A-Za-z0-9_-]\{43\}' | head -1)
"$work/feedbackd" serve --addr "127.0.0.1:$port" --log-level warn &
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done


echo "== $kind: POST $code (new submission per request), ${secs}s"
wrk -t2 -c16 -d"${secs}s" --latency -s server/bench/post.lua "http://127.0.0.1:$port$code"
echo "== $kind: GET /api/v1/hygiene (page 1 with meta.total), ${secs}s"
wrk -t2 -c16 -d"${secs}s" --latency -H "Authorization: Bearer $token" "http://127.0.0.1:$port/api/v1/hygiene"
