#!/usr/bin/env bash
# bench/calls.sh — times single MCP calls over stdio (read of a 3.5 KB,
# 32 KB and 240 KB file, a directory listing, a glob, bash `true`) on
# $(go env GOROOT)/src, side by side in one run: hands serve, the reply
# floor (bench/cmd/floorserver, a go-sdk server returning a precomputed
# text of the same size), @modelcontextprotocol/server-filesystem and
# boris when present, and a bare `bash -c true` spawn. Prints medians of
# wall time and of server CPU per call and the ratios to the floor.
#
#   bench/calls.sh [ROUNDS]       (default 200 calls per server and case)
#   BENCH_CASES=read32k,bash      only these cases
#   BENCH_STARTUP=N               also time starting hands serve and the floor
#                                 and answering initialize, N times each: from
#                                 the process's start, and sent to a process
#                                 already started and settled; and Hands's
#                                 first bash call after each (ROUNDS 0: only this)
#   BENCH_BEFORE=/path/to/hands   also time an older build of hands (hands-before)
#   BENCH_BORIS=/path/to/boris    also time boris (github.com/mjkoo/boris,
#                                 built locally: go build -o ... . in its tree)
#
# server-filesystem is installed with npm into $BENCH_NPM (default
# /tmp/hands-bench-npm) on the first run:
#   npm install --prefix /tmp/hands-bench-npm @modelcontextprotocol/server-filesystem
# Without npm it is skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-200}
BINDIR=$(mktemp -d)
trap 'rm -rf "$BINDIR"' EXIT
go build -o "$BINDIR/hands" ./cmd/hands
go build -o "$BINDIR/floorserver" ./bench/cmd/floorserver
go build -o "$BINDIR/callbench" ./bench/cmd/callbench
NPM=${BENCH_NPM:-/tmp/hands-bench-npm}
FSJS=$NPM/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js
if [ ! -f "$FSJS" ] && command -v npm >/dev/null; then
	npm install --silent --prefix "$NPM" @modelcontextprotocol/server-filesystem >&2 || true
fi
FS=""
if [ -f "$FSJS" ] && command -v node >/dev/null; then FS="node $FSJS"; fi
exec "$BINDIR/callbench" -hands "$BINDIR/hands" -floor "$BINDIR/floorserver" \
	-fs "$FS" -boris "${BENCH_BORIS:-}" -before "${BENCH_BEFORE:-}" -startup "${BENCH_STARTUP:-0}" -rounds "$ROUNDS" \
	-cases "${BENCH_CASES:-read3k,read32k,read240k,list,glob,bash}" 2> >(grep -v -e 'running on stdio' -e 'No valid root' >&2)
