#!/usr/bin/env bash
# Real-world playlist/ICY corpus against `onair resolve` (and `onair listen` for ICY titles).
#
#   ONAIR=/path/to/onair Tests/StreamInputTests/Fixtures/realworld/run.sh [CASE_ID_SUBSTRING]
#
# Serves this folder on a free 127.0.0.1 port (serve.py: python's http.server plus a rewriting
# /local/ view that maps every absolute internet URL in a playlist onto the same server, so that
# resolution proceeds to a local stand-in; the files themselves stay as captured). For each case in
# cases.json it runs `onair resolve URL --json`, for each block in icy/metadata-cases.json
# `onair listen URL --sink wav:… --duration 2 --json`, keeps stdout/stderr/exit code under
# $RESULTS (kept), and prints: case | file | expected | onair said | verdict.
# Nothing leaves loopback. Exit status 1 when any case is FAIL or ERROR.
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ONAIR=${ONAIR:-$PWD/.build/release/onair}
FILTER=${1:-}
WAIT_LIMIT=${WAIT_LIMIT:-2400}

waited=0
until [[ -x $ONAIR ]]; do
  (( waited >= WAIT_LIMIT )) && { echo "no onair binary at $ONAIR after ${waited}s" >&2; exit 2; }
  echo "waiting for $ONAIR (${waited}s)…" >&2; sleep 60; waited=$((waited + 60))
done

T=$(mktemp -d /tmp/realworld.XXXXXX)
RESULTS=${RESULTS:-$T/results}; mkdir -p "$RESULTS"
export ONAIR_HOME=$T/home CORPUS_LOG_DIR=$T; mkdir -p "$ONAIR_HOME"
SERVER_PID=
cleanup() { [[ -n $SERVER_PID ]] && kill "$SERVER_PID" 2>/dev/null; }
trap cleanup EXIT

# 20 s of a 440 Hz tone as MP3: the body of every stand-in Icecast mount and ICY case.
if command -v ffmpeg >/dev/null; then
  ffmpeg -nostdin -hide_banner -loglevel error -y -f lavfi -i "sine=frequency=440:sample_rate=44100:duration=20" \
    -ac 2 -c:a libmp3lame -b:a 128k "$T/tone.mp3" || echo "ffmpeg failed; stand-in mounts send silence bytes" >&2
fi

PORT=$(python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])')
python3 "$HERE/serve.py" "$HERE" "$PORT" "$T/tone.mp3" >"$T/serve.out" 2>&1 &
SERVER_PID=$!
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$PORT/cases.json" >/dev/null && break; sleep 0.1; done
BASE=http://127.0.0.1:$PORT

# One line per case: id, mode, file, query, quality.
python3 - "$HERE/cases.json" >"$T/cases.tsv" <<'PY'
import json, sys
for c in json.load(open(sys.argv[1], encoding="utf-8")):
    print("\t".join([c["id"], c["mode"], c["file"], c["query"] or "-", c["quality"]]))
PY

while IFS=$'\t' read -r id mode file query quality; do
  [[ -n $FILTER && $id != *$FILTER* ]] && continue
  [[ $query == - ]] && query=
  case $mode in
    static) url="$BASE/$file" ;;
    local)  url="$BASE/local/$file${query:+?$query}" ;;
    raw)    url="$BASE/_raw/$file" ;;
  esac
  args=(resolve "$url" --json)
  [[ $quality == low ]] && args+=(--quality low)
  printf '%q ' "$ONAIR" "${args[@]}" >"$RESULTS/$id.cmd"
  timeout 60 "$ONAIR" "${args[@]}" >"$RESULTS/$id.out" 2>"$RESULTS/$id.err" </dev/null
  echo $? >"$RESULTS/$id.rc"
done <"$T/cases.tsv"

python3 -c 'import json,sys; [print(c["id"]) for c in json.load(open(sys.argv[1], encoding="utf-8"))]' \
  "$HERE/icy/metadata-cases.json" >"$T/icy.ids"
while read -r mid; do
  id=icy-meta-$mid
  [[ -n $FILTER && $id != *$FILTER* ]] && continue
  args=(listen "$BASE/_icy/$mid" --sink "wav:$T/$mid.wav" --duration 2 --json)
  printf '%q ' "$ONAIR" "${args[@]}" >"$RESULTS/$id.cmd"
  timeout 30 "$ONAIR" "${args[@]}" >"$RESULTS/$id.out" 2>"$RESULTS/$id.err" </dev/null
  echo $? >"$RESULTS/$id.rc"
done <"$T/icy.ids"

python3 "$HERE/check.py" "$HERE" "$RESULTS"
status=$?
echo "results (commands, stdout, stderr, exit codes): $RESULTS" >&2
exit $status
