#!/usr/bin/env bash
# bench/querypairs.sh: time the saved queries at two commits, interleaved, on
# one store, so that the VM's noise falls on both alike.
#
#   bash bench/querypairs.sh STORE BASE [HEAD [PAIRS]]
#
# STORE is a bbolt store directory (capgraph build --store STORE ...); BASE and
# HEAD are commits (HEAD defaults to HEAD, PAIRS to 3). Each run is
# BenchmarkSavedQueries with -benchtime RUNS x (env RUNS, default 100: a
# p99 of fewer than 100 runs is their slowest); the output is one line per
# query and run: commit, pair, query, p50 ms, p99 ms, rows, first-run ms
# ("-" for commits that do not report it).
set -euo pipefail

if [ $# -lt 2 ]; then
	sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'
	exit 2
fi
store=$(cd "$1" && pwd)
base=$2 head=${3:-HEAD} pairs=${4:-3}
root=$(git rev-parse --show-toplevel)
tmp=$(mktemp -d)
trap 'git -C "$root" worktree remove --force "$tmp/base" >/dev/null 2>&1 || true; git -C "$root" worktree remove --force "$tmp/head" >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT

for side in base head; do
	rev=$base
	[ "$side" = head ] && rev=$head
	git -C "$root" worktree add -q --detach "$tmp/$side" "$rev"
	(cd "$tmp/$side" && go test -c -o "$tmp/$side.test" ./queries)
done

for pair in $(seq "$pairs"); do
	for side in base head; do
		echo "# $side pair $pair $(date -u +%H:%M:%S) load $(cut -d' ' -f1 /proc/loadavg)" >&2
		(cd "$tmp/$side/queries" && CAPGRAPH_BENCH_STORE=$store "$tmp/$side.test" \
			-test.run '^$' -test.bench SavedQueries -test.benchtime "${RUNS:-100}x" -test.timeout 60m) |
			awk -v side="$side" -v pair="$pair" '/^BenchmarkSavedQueries\// {
				split($1, a, "/"); sub(/-[0-9]+$/, "", a[2])
				first = "-"
				for (i = 3; i < NF; i++) {
					if ($(i + 1) == "first-ms") first = $i
					if ($(i + 1) == "p50-ms") p50 = $i
					if ($(i + 1) == "p99-ms") p99 = $i
					if ($(i + 1) == "rows") rows = $i
				}
				print side "\t" pair "\t" a[2] "\t" p50 "\t" p99 "\t" rows "\t" first
			}'
	done
done
