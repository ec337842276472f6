#!/usr/bin/env bash
# bench/editmem.sh — peak resident memory of `hands run` reading (limit 1)
# and then editing one line of a large file, against the file's size.
#
#   bench/editmem.sh [MiB] [HANDS_BINARY]    (default 100 MiB, built here)
#
# Needs GNU time (/usr/bin/time -v).
set -euo pipefail
cd "$(dirname "$0")/.."
MIB=${1:-100}
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
HANDS=${2:-$DIR/hands}
[ -n "${2:-}" ] || go build -o "$HANDS" ./cmd/hands
python3 - "$DIR/big.txt" "$MIB" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    n, i = 0, 0
    while n < int(sys.argv[2]) << 20:
        l = "line %08d: the quick brown fox jumps over the lazy dog, some filler text here\n" % i
        f.write(l); n += len(l); i += 1
PY
SIZE=$(stat -c %s "$DIR/big.txt")
MID=$(printf 'line %08d: the quick brown fox' $((SIZE / 82 / 2)))
for profile in native claude; do
	if [ $profile = native ]; then
		CALLS='{"name":"view","input":{"path":"big.txt","limit":1}}
{"name":"str_replace","input":{"path":"big.txt","old_str":"'"$MID"'","new_str":"'"${MID/quick/QUICK}"'"}}'
	else
		CALLS='{"name":"Read","input":{"file_path":"'"$DIR/big.txt"'","limit":1}}
{"name":"Edit","input":{"file_path":"'"$DIR/big.txt"'","old_string":"'"$MID"'","new_string":"'"${MID/quick/QUICK}"'"}}'
	fi
	peak_kb=$( { /usr/bin/time -f '%M' "$HANDS" run --profile $profile --root "$DIR" --max-file-size 1G <<<"$CALLS" >"$DIR/out.jsonl"; } 2>&1 | tail -1)
	grep -q '"is_error":true' "$DIR/out.jsonl" && { echo "a call failed:"; cat "$DIR/out.jsonl"; exit 1; }
	# Undo the edit for the next profile.
	sed -i "s/${MID/quick/QUICK}/$MID/" "$DIR/big.txt"
	python3 -c "import sys; kb, size = int(sys.argv[1]), int(sys.argv[2]); print('%-7s file %4d MiB  peak RSS %4d MiB  ratio %.2fx' % (sys.argv[3], size >> 20, kb >> 10, kb * 1024 / size))" "$peak_kb" "$SIZE" $profile
done
