#!/usr/bin/env bash
# Webhook delivery under HTTP ingest, from outside: a real feedbackd on
# PostgreSQL with one subscription to a local receiver (server/bench/sink),
# wrk posting a new hygiene submission per request at 16 connections, then
# every delivery counted at the receiver: how many arrived (each event
# exactly once) and the lag from commit to arrival (p50, p99).
#   server/bench/webhook.sh [seconds] [receiver delay, e.g. 0s or 200ms]
# feedbackd and the receiver run on CPU 1, wrk on CPU 0 (PostgreSQL too
# with PIN_POSTGRES=1, restored afterwards). Needs wrk and PostgreSQL on
# 127.0.0.1:5432 with trust auth.
set -euo pipefail
cd "$(dirname "$0")/../.."
secs=${1:-10}
delay=${2:-0s}
command -v wrk >/dev/null || { apt-get update -q && apt-get install -y -q wrk; }
work=$(mktemp -d)
db=feedback_webhook_$$
cleanup() {
  kill $(jobs -p) 2>/dev/null || true
  [ "${PIN_POSTGRES:-}" = 1 ] && for p in $(pgrep -x postgres); do taskset -a -p -c 0-$(($(nproc) - 1)) "$p" >/dev/null || true; done
  psql -h 127.0.0.1 -U postgres -qc "DROP DATABASE IF EXISTS $db WITH (FORCE)" || true
  rm -rf "$work"
}
trap cleanup EXIT
go build -o "$work/feedbackd" ./server/cmd/feedbackd
go build -o "$work/sink" ./server/bench/sink
psql -h 127.0.0.1 -U postgres -qc "CREATE DATABASE $db"
[ "${PIN_POSTGRES:-}" = 1 ] && for p in $(pgrep -x postgres); do taskset -a -p -c 1 "$p" >/dev/null; done

export FEEDBACK_SECRET_KEY=$(head -c 32 /dev/urandom | base64) FEEDBACK_RATE_LIMIT=100000000 \
  FEEDBACK_VISITOR_LIMIT=100000000 FEEDBACK_POSTER_LIMIT=100000000 \
  DATABASE_URL="postgres://postgres@127.0.0.1:5432/$db?sslmode=disable"
port=$((20000 + RANDOM % 20000))
out=$("$work/feedbackd" demo --base-url "http://127.0.0.1:$port")
token=$(grep -o 'fbk_[0-9A-Za-z]\{40\}' <<<"$out" | head -1)
code=$(grep -E '^\s+hygiene' <<<"$out" | grep -o '/q/[A-Za-z0-9_-]\{43\}' | head -1)
taskset -c 1 "$work/feedbackd" serve --addr "127.0.0.1:$port" --log-level warn --webhook-allow 127.0.0.0/8 &
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done

taskset -c 1 "$work/sink" -delay "$delay" -idle 10s >"$work/sink.out" &
sinkpid=$!
for _ in $(seq 50); do [ -s "$work/sink.out" ] && break; sleep 0.1; done
sinkaddr=$(head -1 "$work/sink.out")
curl -sf -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
  -d "{\"url\":\"http://$sinkaddr/\",\"events\":[\"hygiene_submission.created\"]}" \
  "http://127.0.0.1:$port/api/v1/webhooks" >/dev/null

total() {
  curl -sf -H "Authorization: Bearer $token" "http://127.0.0.1:$port/api/v1/hygiene?per_page=1" |
    grep -o '"total":[0-9]*' | cut -d: -f2
}
before=$(total)
echo "== ingest: POST $code at 16 connections for ${secs}s, receiver delay $delay"
taskset -c 0 wrk -t2 -c16 -d"${secs}s" --latency -s server/bench/post.lua "http://127.0.0.1:$port$code" | grep -E 'Requests/sec|Non-2xx|50%|99%'
stored=$(( $(total) - before ))
echo "== stored $stored submissions; waiting for their deliveries (the receiver stops 10 s after the last)"
wait "$sinkpid" || true
tail -1 "$work/sink.out"
echo "expected $stored distinct deliveries"
