#!/usr/bin/env bash
# bench/builders.sh: builds of one PostgreSQL store started at once, against
# one build of all their input.
#
#   bash bench/builders.sh URL [N [PAIRS [BUILDERS]]]
#
# URL is a scratch PostgreSQL database whose store (quads, nodes and the
# hand-off tables) is dropped before each build. It generates N captions
# (default 20000), splits them into BUILDERS parts (default 2), and PAIRS
# times (default 3) times one build of all N, then BUILDERS builds of the
# parts started together, in turn so that the machine's noise falls on
# both. One tab-separated line per build: pair, "one" or "many", seconds.
# Then it checks that the last two stores export the same N-Quads, load
# times aside.
set -euo pipefail
url=${1:?usage: bench/builders.sh URL [N [PAIRS [BUILDERS]]]}
n=${2:-20000}
pairs=${3:-3}
builders=${4:-2}
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/capgraph" ./cmd/capgraph
"$tmp/capgraph" gen --captions "$n" --seed 7 -o "$tmp/all.jsonl"
split -n "l/$builders" -d --additional-suffix=.jsonl "$tmp/all.jsonl" "$tmp/part-"

reset() {
	psql "$url" -qc 'DROP TABLE IF EXISTS quads, nodes, capgraph_handed, capgraph_handed_done, capgraph_derived, capgraph_photos, capgraph_photo_dates, capgraph_statements, capgraph_mentions, capgraph_tallies CASCADE' 2>/dev/null
}
# export writes the store's N-Quads, load times blanked, sorted.
export_store() {
	"$tmp/capgraph" export --store "$url" --format nq |
		sed -E 's/"[0-9T:.-]+Z"\^\^<http:\/\/www.w3.org\/2001\/XMLSchema#dateTime>/TIME/' | LC_ALL=C sort >"$1"
}
seconds() { awk -v s="$1" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }'; }

for ((p = 1; p <= pairs; p++)); do
	reset
	start=$(date +%s.%N)
	"$tmp/capgraph" build -q --store "$url" "$tmp/all.jsonl"
	printf '%d\tone\t%s\n' "$p" "$(seconds "$start")"
	((p == pairs)) && export_store "$tmp/one.nq"

	reset
	start=$(date +%s.%N)
	pids=()
	for part in "$tmp"/part-*; do
		"$tmp/capgraph" build -q --store "$url" "$part" &
		pids+=($!)
	done
	for pid in "${pids[@]}"; do wait "$pid"; done
	printf '%d\tmany\t%s\n' "$p" "$(seconds "$start")"
	((p == pairs)) && export_store "$tmp/many.nq"
done
if cmp -s "$tmp/one.nq" "$tmp/many.nq"; then
	echo "same store: $(wc -l <"$tmp/one.nq") quads"
else
	echo "the stores differ:"
	diff "$tmp/one.nq" "$tmp/many.nq" | head
	exit 1
fi
