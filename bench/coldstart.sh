#!/usr/bin/env bash
# bench/coldstart.sh — the cost of starting Hands for one call: `hands call
# glob` on a directory of ten files beside `rg --files` on it, run as real
# processes, interleaved round by round (a shared machine's load hits each
# alike). Prints the median wall time and the median CPU (user + system) of
# each, and the ratios to rg. Beside them, for what any Go program of that
# size pays before main: a hello-world Go binary (go-hello) and `hands
# --version` (hands-version: the runtime start, package init and page
# faults of the hands binary, no tool) and a Go program that links the MCP
# SDK's server and exits (go-sdk-hello: the least a Go MCP server pays).
#
#   bench/coldstart.sh [ROUNDS]          (default 100)
#   BENCH_BEFORE=/path/to/hands          also time an older build (hands-before)
#
# Initialize over stdio is timed by callbench: BENCH_STARTUP=N bench/calls.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-100}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
go build -o "$WORK/hands" ./cmd/hands
mkdir "$WORK/hello"
printf 'package main\n\nimport "fmt"\n\nfunc main() { fmt.Println("hello") }\n' >"$WORK/hello/main.go"
(cd "$WORK/hello" && go build -o "$WORK/go-hello" main.go)
go build -o "$WORK/go-sdk-hello" ./bench/cmd/sdkhello
mkdir "$WORK/ten"
for i in $(seq 1 10); do echo "file $i" > "$WORK/ten/f$i.txt"; done
declare -A CMDS=([rg]="rg --files $WORK/ten" [hands]="$WORK/hands call --root $WORK/ten glob {\"pattern\":\"*\"}"
	[go-hello]="$WORK/go-hello" [go-sdk-hello]="$WORK/go-sdk-hello" [hands-version]="$WORK/hands --version")
NAMES=(rg hands go-hello go-sdk-hello hands-version)
if [ -n "${BENCH_BEFORE:-}" ]; then
	CMDS[hands-before]="$BENCH_BEFORE call --root $WORK/ten glob {\"pattern\":\"*\"}"
	NAMES+=(hands-before)
fi
TIMEFORMAT='%R %U %S'
for ((r = 0; r < ROUNDS; r++)); do
	for n in "${NAMES[@]}"; do
		read -ra argv <<<"${CMDS[$n]}"
		t=$({ time "${argv[@]}" >/dev/null; } 2>&1)
		echo "$n $t" >>"$WORK/times"
	done
done
python3 - "$WORK/times" "${NAMES[@]}" <<'PY'
import sys, statistics
rows = [l.split() for l in open(sys.argv[1])]
med = {}
for n in sys.argv[2:]:
    w = [float(r[1]) for r in rows if r[0] == n]
    c = [float(r[2]) + float(r[3]) for r in rows if r[0] == n]
    med[n] = (statistics.median(w) * 1000, statistics.median(c) * 1000, len(w))
print(f"{'command':<14}{'wall ms':>9}{'÷rg':>7}{'cpu ms':>9}{'÷rg':>7}  rounds")
for n, (w, c, k) in med.items():
    print(f"{n:<14}{w:9.1f}{w / med['rg'][0]:6.2f}×{c:9.1f}{c / max(med['rg'][1], 0.001):6.2f}×  {k}")
PY
