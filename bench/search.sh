#!/usr/bin/env bash
# bench/search.sh — times the grep/glob engine (bench/cmd/searchbench)
# against ripgrep (and fd for globs) on $(go env GOROOT)/src and on a copy
# ten times larger, warm cache, and prints the median ratio per pattern.
#
#   bench/search.sh [RUNS]        (default 10 runs per command)
#   BENCH_ONLY=REGEXP             only the cases whose name matches
#   BENCH_TREES="goroot"          skip the ten-times tree
#
# Needs rg, python3, optionally hyperfine and fdfind:
#   apt-get install -y ripgrep fd-find hyperfine
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-10}
SRC=$(go env GOROOT)/src
BIG=${BENCH_BIG:-/tmp/hands-bench-10x}
BINDIR=$(mktemp -d)
BIN=$BINDIR/searchbench
HANDS=$BINDIR/hands
go build -o "$BIN" ./bench/cmd/searchbench
go build -o "$HANDS" ./cmd/hands
command -v rg >/dev/null || { echo "ripgrep (rg) is required" >&2; exit 1; }

if [ ! -f "$BIG/.complete" ]; then
	rm -rf "$BIG"; mkdir -p "$BIG"
	for i in $(seq 1 10); do cp -r "$SRC" "$BIG/copy$i"; done
	touch "$BIG/.complete"
fi

# Each pair of commands is timed by bench/timecmp.py: runs alternate
# between ripgrep and ours so that background load hits both alike (the
# machine may be shared); hyperfine runs one command's runs in a block,
# which is fairer only on an idle machine: set BENCH_HYPERFINE=1 for it.
compare() { # compare RG_CMD OUR_CMD -> "rg_wall ours_wall rg_cpu ours_cpu"
	if [ -n "${BENCH_HYPERFINE:-}" ] && command -v hyperfine >/dev/null; then
		local j; j=$(mktemp)
		hyperfine -N -i -w 2 -r "$RUNS" --export-json "$j" "$1" "$2" >/dev/null 2>&1
		python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"]; print(" ".join("%.1f" % (x["median"]*1000) for x in r), " ".join("%.1f" % ((x["user"]+x["system"])*1000) for x in r))' "$j"
		rm -f "$j"
	else
		python3 bench/timecmp.py "$RUNS" "$1" "$2"
	fi
}

# name | rg command | our command   (DIR is replaced by the tree)
CASES=(
	"literal 'func main' (content -n)|rg -n 'func main' DIR|$BIN -n 'func main' DIR"
	"rare literal ErrBodyNotAllowed|rg -n ErrBodyNotAllowed DIR|$BIN -n ErrBodyNotAllowed DIR"
	"case-insensitive -i 'func main'|rg -n -i 'func main' DIR|$BIN -n -i 'func main' DIR"
	"regex 'func \\w+Reader'|rg -n 'func \\w+Reader' DIR|$BIN -n 'func \\w+Reader' DIR"
	"regex '\\w+Xyz\\d' (inner literal)|rg -n '\\w+Xyz\\d' DIR|$BIN -n '\\w+Xyz\\d' DIR"
	"regex without literal '[A-Z]{3}\\d{2}'|rg -n '[A-Z]{3}\\d{2}' DIR|$BIN -n '[A-Z]{3}\\d{2}' DIR"
	"files_with_matches -l 'func main'|rg -l 'func main' DIR|$BIN -l 'func main' DIR"
	"count -c 'func main'|rg -c 'func main' DIR|$BIN -c 'func main' DIR"
	"glob '**/*.go' (vs rg --files)|rg --files -g '*.go' DIR|$BIN -glob '**/*.go' DIR"
	"glob '**/*_test.go' (vs rg --files)|rg --files -g '*_test.go' DIR|$BIN -glob '**/*_test.go' DIR"
)
# The same searches through the hands command: process start, runtime and
# session set-up, the tool's paging and rendering included.
CASES+=(
	"hands call grep content 'func main'|rg -n 'func main' DIR|$HANDS call --root DIR grep '{\"pattern\":\"func main\",\"output_mode\":\"content\"}'"
	"hands call grep files 'func main'|rg -l 'func main' DIR|$HANDS call --root DIR grep '{\"pattern\":\"func main\"}'"
	"hands call grep count -i 'func main'|rg -c -i 'func main' DIR|$HANDS call --root DIR grep '{\"pattern\":\"func main\",\"output_mode\":\"count\",\"-i\":true}'"
	"hands call glob '**/*.go'|rg --files -g '*.go' DIR|$HANDS call --root DIR glob '{\"pattern\":\"**/*.go\"}'"
)
if command -v fdfind >/dev/null; then
	CASES+=("glob '**/*.go' (vs fd)|fdfind -t f -g '*.go' DIR|$BIN -glob '**/*.go' DIR")
fi

printf '%-11s %-38s %8s %8s %6s %9s %9s %6s\n' tree pattern "rg ms" "ours ms" ratio "rg cpu" "ours cpu" ratio
TREES="$SRC $BIG"
[ "${BENCH_TREES:-}" = goroot ] && TREES=$SRC
for tree in $TREES; do
	label=goroot; [ "$tree" = "$BIG" ] && label=goroot-x10
	for c in "${CASES[@]}"; do
		IFS='|' read -r name rgc ourc <<<"$c"
		if [ -n "${BENCH_ONLY:-}" ] && ! grep -qE "$BENCH_ONLY" <<<"$name"; then continue; fi
		read -r rw ow rc oc <<<"$(compare "${rgc//DIR/$tree}" "${ourc//DIR/$tree}")"
		printf '%-11s %-38s %8s %8s %6s %9s %9s %6s\n' "$label" "$name" "$rw" "$ow" \
			"$(python3 -c "print('%.2fx' % ($ow/$rw))")" "$rc" "$oc" "$(python3 -c "print('%.2fx' % ($oc/$rc))")"
	done
done
