#!/usr/bin/env bash
# bench/million.sh: one large first build, followed minute by minute.
#
#   bash bench/million.sh [N] [DIR]     (default N=1000000, DIR a new temp dir)
#
# Generates N captions (capgraph gen --seed 1), builds them into a fresh bbolt
# store with --no-sync, and every 60 s appends one row to DIR/samples.tsv:
# elapsed seconds, captions and quads written, resident memory of the build,
# and store size. GNU time's report goes to DIR/time.txt. bench/run.sh measures
# the smaller sizes end to end; this is for the size that takes hours.
set -euo pipefail

n="${1:-1000000}"
dir="${2:-$(mktemp -d "${TMPDIR:-/tmp}/capgraph-million.XXXXXX")}"
[[ $n =~ ^[0-9]+$ ]] || { echo "million: N must be a whole number" >&2; exit 2; }
[[ -x /usr/bin/time ]] || { echo "million: /usr/bin/time (GNU time) is required" >&2; exit 1; }

root="$(git -C "$(dirname "${BASH_SOURCE[0]}")" rev-parse --show-toplevel)"
mkdir -p "$dir"
(cd "$root" && go build -o "$dir/capgraph" ./cmd/capgraph)
cd "$dir"
[[ -e store ]] && { echo "million: $dir/store exists; give a new DIR" >&2; exit 1; }
./capgraph gen --captions "$n" --seed 1 >corpus.jsonl

/usr/bin/time -v -o time.txt ./capgraph build --no-sync --log-level info --store store corpus.jsonl 2>build.log &
pid=$!
start=$(date +%s)
printf 'elapsed_s\tcaptions\tquads\trss_kb\tstore_bytes\n' >samples.tsv
while sleep 60; do
	build=$(pgrep -P "$pid" -x capgraph || true)
	[[ -n $build ]] || break
	line=$(grep 'msg=building' build.log | tail -n 1 || true)
	captions=$(sed -n 's/.* captions=\([0-9]*\).*/\1/p' <<<"$line")
	quads=$(sed -n 's/.* quads=\([0-9]*\).*/\1/p' <<<"$line")
	rss=$(awk '/VmRSS/ {print $2}' "/proc/$build/status" 2>/dev/null || echo NA)
	printf '%s\t%s\t%s\t%s\t%s\n' "$(($(date +%s) - start))" "${captions:-NA}" "${quads:-NA}" "$rss" \
		"$(stat -c %s store/indexes.bolt 2>/dev/null || echo NA)" >>samples.tsv
done
wait "$pid"
tail -n 1 build.log
grep -E 'Elapsed|Maximum resident' time.txt
echo "million: results in $dir"
