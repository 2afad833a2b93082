#!/usr/bin/env bash
# bench/run.sh: measure capgraph at several corpus sizes and redraw the figures.
#
#   bash bench/run.sh [flags] [SIZE ...]     (default sizes: 10000 100000 1000000)
#
# See bench/README.md for the columns and for how to read the numbers.
set -euo pipefail

usage() {
	cat <<'EOF'
Usage: bench/run.sh [flags] [SIZE ...]

Measure gen, extract, build, rebuild, export and saved queries for each corpus
size (captions), append one row per size to OUT/scale.tsv (OUT/scale-postgres.tsv
with --postgres) and draw OUT/scale.png.

Flags (environment variable in brackets):
  -o, --out dir          results directory (default bench/results) [BENCH_OUT]
      --postgres url     build into PostgreSQL at url instead of bbolt in a temp dir;
                         the database must be empty, or pass --postgres-reset
                         [BENCH_POSTGRES]
      --postgres-reset   drop the store's tables (Cayley's nodes and quads, the
                         hand-off between builds and the derived tables) before
                         each size
      --seed n           corpus seed (default 1) [BENCH_SEED]
      --query-runs k     timed runs per saved query (default 20) [BENCH_QUERY_RUNS]
      --startup-runs k   runs of each query against a one-caption store, to
                         measure process start-up (default 5) [BENCH_STARTUP_RUNS]
      --query-budget s   stop timing a query after s seconds of runs (at least one
                         run; default 60) [BENCH_QUERY_BUDGET]
      --query-timeout s  give up on one query invocation after s seconds; the
                         query is then NA (default 600) [BENCH_QUERY_TIMEOUT]
      --no-queries       skip the saved queries
      --no-plot          skip the plot
      --keep-tmp         keep the temp dir (binary, corpora, stores) and print it
  -h, --help             show this help

Temp files go under $TMPDIR (default /tmp): a bbolt store takes about
2-3 kB per caption (several GB at 10^6), the corpus about 260 bytes per caption.
EOF
}

die() { printf 'bench: %s\n' "$*" >&2; exit 1; }
log() { printf 'bench: %s\n' "$*" >&2; }

# Parameter values for saved queries that exist in every generated corpus
# (capgraph gen draws real places and groups from the gazetteer). Required
# parameters not listed here get the example from 'capgraph query list';
# optional parameters are left unset.
declare -A PARAM_VALUES=(
	[place]="Aleppo"
	[group]="Free Syrian Army"
	[name]="Aleppo"
	[from]="2016-01-01"
	[to]="2016-12-31"
	[subject]="Aleppo"
	[relation]="located_in"
	[object]="Syria"
)

out="${BENCH_OUT:-}"
postgres="${BENCH_POSTGRES:-}"
pg_reset=0
seed="${BENCH_SEED:-1}"
query_runs="${BENCH_QUERY_RUNS:-20}"
startup_runs="${BENCH_STARTUP_RUNS:-5}"
query_budget="${BENCH_QUERY_BUDGET:-60}"
query_timeout="${BENCH_QUERY_TIMEOUT:-600}"
do_queries=1
do_plot=1
keep_tmp=0
sizes=()
while (($#)); do
	case "$1" in
	-h | --help) usage; exit 0 ;;
	-o | --out) out="${2:?--out needs a directory}"; shift ;;
	--out=*) out="${1#*=}" ;;
	--postgres) postgres="${2:?--postgres needs a URL}"; shift ;;
	--postgres=*) postgres="${1#*=}" ;;
	--postgres-reset) pg_reset=1 ;;
	--seed) seed="${2:?--seed needs a number}"; shift ;;
	--seed=*) seed="${1#*=}" ;;
	--query-runs) query_runs="${2:?--query-runs needs a number}"; shift ;;
	--query-runs=*) query_runs="${1#*=}" ;;
	--startup-runs) startup_runs="${2:?--startup-runs needs a number}"; shift ;;
	--startup-runs=*) startup_runs="${1#*=}" ;;
	--query-budget) query_budget="${2:?--query-budget needs seconds}"; shift ;;
	--query-budget=*) query_budget="${1#*=}" ;;
	--query-timeout) query_timeout="${2:?--query-timeout needs seconds}"; shift ;;
	--query-timeout=*) query_timeout="${1#*=}" ;;
	--no-queries) do_queries=0 ;;
	--no-plot) do_plot=0 ;;
	--keep-tmp) keep_tmp=1 ;;
	--) shift; sizes+=("$@"); break ;;
	-*) usage >&2; die "unknown flag $1" ;;
	*) sizes+=("$1") ;;
	esac
	shift
done
((${#sizes[@]})) || sizes=(10000 100000 1000000)
for n in "${sizes[@]}" "$seed" "$query_runs" "$startup_runs" "$query_budget" "$query_timeout"; do
	[[ $n =~ ^[0-9]+$ ]] || die "not a whole number: $n"
done
for n in "${sizes[@]}"; do ((n > 0)) || die "size must be positive"; done
((query_runs > 0 && startup_runs > 0)) || die "--query-runs and --startup-runs must be positive"
[[ -z $postgres || $postgres == postgres://* || $postgres == postgresql://* ]] ||
	die "--postgres wants a postgres:// or postgresql:// URL"
[[ -x /usr/bin/time ]] || die "/usr/bin/time (GNU time) is required"

# Work from the repository root, wherever we were started.
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(git -C "$here" rev-parse --show-toplevel 2>/dev/null || (cd "$here/.." && pwd))"
cd "$root"
out="${out:-bench/results}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"

# Settings must come from the flags below only: no capgraph.yaml (commands run
# in the temp dir) and no CAPGRAPH_* variables.
while read -r v; do
	log "ignoring $v for the benchmark"
	unset "$v"
done < <(compgen -e | grep '^CAPGRAPH_' || true)

tmp="$(mktemp -d "${TMPDIR:-/tmp}/capgraph-bench.XXXXXX")"
cleanup() {
	if ((keep_tmp)); then
		log "kept $tmp"
	else
		rm -rf "$tmp"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

cg="$tmp/capgraph"
log "building $cg"
go build -o "$cg" ./cmd/capgraph
cd "$tmp" # so that no capgraph.yaml is picked up

backend=bbolt
tsv="$out/scale.tsv"
png="$out/scale.png"
qtsv="$out/queries.tsv"
if [[ -n $postgres ]]; then
	backend=postgres
	tsv="$out/scale-postgres.tsv"
	png="$out/scale-postgres.png"
	qtsv="$out/queries-postgres.tsv"
	command -v psql >/dev/null || log "psql not found: store_bytes will be NA and --postgres-reset cannot work"
fi

# timed NAME CMD...: run CMD under GNU time; leave "wall user sys maxrss_kb"
# in $tmp/NAME.time and its stderr in $tmp/NAME.err. Stdout is the caller's.
timed() {
	local name="$1"
	shift
	if ! /usr/bin/time -f '%e %U %S %M' -o "$tmp/$name.time" "$@" 2>"$tmp/$name.err"; then
		cat "$tmp/$name.err" >&2
		die "$name failed: $*"
	fi
}
field() { # field NAME I: the I-th number (1-based) of $tmp/NAME.time
	awk -v i="$2" 'END { print $i }' "$tmp/$1.time"
}
div() { awk -v a="$1" -v b="$2" -v f="${3:-%.1f}" 'BEGIN { if (b > 0) printf f "\n", a / b; else print "NA" }'; }
add() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f\n", a + b }'; }
# pctl P FILE: nearest-rank P-th percentile of the numbers in FILE, one a line.
pctl() {
	sort -g "$2" | awk -v p="$1" '{ v[NR] = $1 } END {
		if (NR == 0) { print "NA"; exit }
		r = int(p / 100 * NR); if (r < p / 100 * NR) r++; if (r < 1) r = 1
		printf "%.1f\n", v[r] }'
}
now_ms() { # wall clock in ms, from bash's microsecond clock (no fork)
	local t="${EPOCHREALTIME/[.,]/}"
	printf '%s\n' "$((t / 1000))"
}
store_bytes() {
	if [[ $backend == bbolt ]]; then
		du -sb "$1" | awk '{ print $1 }'
	elif command -v psql >/dev/null; then
		psql "$postgres" -Atqc 'select pg_database_size(current_database())' 2>/dev/null || echo NA
	else
		echo NA
	fi
}
stats_quads() { # total quads in the store, from capgraph stats --json
	"$cg" stats --json --store "$1" | grep -o '"quads": *[0-9]*' | grep -o '[0-9]*$'
}
stats_captions() {
	"$cg" stats --json --store "$1" | grep -o '"captions": *[0-9]*' | grep -o '[0-9]*$'
}

# Saved queries: name, then its -p arguments, from 'capgraph query list'.
declare -a qnames=()
declare -A qparams=() # name -> newline-separated name=value
if ((do_queries)); then
	if "$cg" query list >"$tmp/query-list.txt" 2>"$tmp/query-list.err"; then
		cur=""
		while IFS= read -r line; do
			if [[ $line =~ ^([A-Za-z0-9_.-]+)[[:space:]] || $line =~ ^([A-Za-z0-9_.-]+)$ ]]; then
				cur="${BASH_REMATCH[1]}"
				qnames+=("$cur")
				qparams[$cur]=""
			elif [[ -n $cur && $line =~ ^[[:space:]]+-p[[:space:]]+([A-Za-z0-9_]+)=[A-Za-z]+[[:space:]]+\(([^\)]*)\)(,[[:space:]]+e\.g\.[[:space:]]+(.*))?$ ]]; then
				p="${BASH_REMATCH[1]}" kind="${BASH_REMATCH[2]}" ex="${BASH_REMATCH[4]:-}"
				ex="${ex%%: *}"
				[[ $kind == required ]] || continue
				v="${PARAM_VALUES[$p]:-$ex}"
				[[ -n $v ]] || die "query $cur: no value for required parameter $p; add one to PARAM_VALUES"
				qparams[$cur]+="$p=$v"$'\n'
			fi
		done <"$tmp/query-list.txt"
		log "saved queries: ${qnames[*]:-none}"
	else
		log "skipping saved queries: 'capgraph query list' failed: $(head -c 300 "$tmp/query-list.err")"
		do_queries=0
	fi
fi
((${#qnames[@]})) || do_queries=0

header=(size extract_cps build_wall_s build_qps build_cps quads_per_caption store_bytes peak_rss_kb
	rerun_wall_s rerun_ratio export_qps
	backend seed extract_wall_s extract_cpu_s extract_rss_kb build_cpu_s quads rerun_rss_kb
	export_wall_s export_quads export_rss_kb date commit)
for q in "${qnames[@]}"; do
	header+=("q_${q}_p50_ms" "q_${q}_p99_ms" "q_${q}_startup_ms")
done
header_line="$(IFS=$'\t'; printf '%s' "${header[*]}")"
if [[ -s $tsv ]] && [[ "$(head -n 1 "$tsv")" != "$header_line" ]]; then
	old="$tsv.$(date +%Y%m%dT%H%M%S).old"
	log "$tsv has other columns (the saved queries changed?): moved it to $old"
	mv "$tsv" "$old"
fi
[[ -s $tsv ]] || printf '%s\n' "$header_line" >"$tsv"
qheader=$'size\tbackend\tquery\tparams\trows\truns\tp50_ms\tp99_ms\tstartup_runs\tstartup_p50_ms\tnet_p50_ms\tdate\tcommit'
if [[ -s $qtsv ]] && [[ "$(head -n 1 "$qtsv")" != "$qheader" ]]; then
	mv "$qtsv" "$qtsv.$(date +%Y%m%dT%H%M%S).old"
fi
[[ -s $qtsv ]] || printf '%s\n' "$qheader" >"$qtsv"

commit="$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"
if [[ -n "$(git -C "$root" status --porcelain --untracked-files=no 2>/dev/null)" ]]; then
	commit+="-dirty"
fi
{
	echo "== $(date -u +%Y-%m-%dT%H:%M:%SZ) sizes: ${sizes[*]} backend: $backend seed: $seed"
	echo "nproc: $(nproc)"
	echo "cpu: $(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || echo unknown)"
	echo "memory: $(awk '/^MemTotal/ { printf "%.1f GB\n", $2 / 1048576 }' /proc/meminfo 2>/dev/null || echo unknown)"
	echo "kernel: $(uname -sr)"
	echo "go: $(go version)"
	echo "commit: $commit ($(git -C "$root" log -1 --format=%s 2>/dev/null || true))"
	echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)"
	echo "tmp: $tmp ($(df -h "$tmp" | awk 'NR == 2 { print $1 ", " $4 " free" }'))"
} >>"$out/machine.txt"

for n in "${sizes[@]}"; do
	log "== $n captions"
	corpus="$tmp/corpus-$n.jsonl"
	"$cg" gen --captions "$n" --seed "$seed" -o "$corpus" 2>/dev/null

	if [[ $backend == bbolt ]]; then
		store="$tmp/store-$n"
		rm -rf "$store"
	else
		store="$postgres"
		if [[ "$(stats_captions "$store")" != 0 ]]; then
			((pg_reset)) || die "the PostgreSQL store is not empty; pass --postgres-reset to drop its tables"
			psql "$store" -qc 'DROP TABLE IF EXISTS quads, nodes, capgraph_handed, capgraph_handed_done, capgraph_derived, capgraph_photos, capgraph_photo_dates, capgraph_statements, capgraph_mentions, capgraph_tallies CASCADE' >/dev/null
		fi
	fi

	log "extract"
	timed extract "$cg" extract "$corpus" >/dev/null
	extract_wall=$(field extract 1)
	extract_cpu=$(add "$(field extract 2)" "$(field extract 3)")
	extract_rss=$(field extract 4)
	extract_cps=$(div "$n" "$extract_wall" %.0f)

	log "build"
	timed build "$cg" build --store "$store" "$corpus"
	build_wall=$(field build 1)
	build_cpu=$(add "$(field build 2)" "$(field build 3)")
	peak_rss=$(field build 4)
	summary="$(grep '^built ' "$tmp/build.err" | tail -n 1 || true)"
	written="$(sed -n 's/.*; \([0-9][0-9]*\) quads written.*/\1/p' <<<"$summary")"
	quads="$(stats_quads "$store")"
	[[ -n $written ]] || { log "no build summary line; using capgraph stats for quads written"; written=$quads; }
	[[ $written == "$quads" ]] || log "note: build wrote $written quads, the store holds $quads"
	build_qps=$(div "$written" "$build_wall" %.0f)
	build_cps=$(div "$n" "$build_wall" %.1f)
	qpc=$(div "$quads" "$n" %.1f)
	bytes=$(store_bytes "$store")

	log "rebuild (nothing changed)"
	timed rerun "$cg" build --store "$store" "$corpus"
	rerun_wall=$(field rerun 1)
	rerun_rss=$(field rerun 4)
	rerun_ratio=$(div "$rerun_wall" "$build_wall" %.3f)
	grep -q ' 0 added, 0 replaced' "$tmp/rerun.err" || log "note: rebuild changed the store: $(grep '^built ' "$tmp/rerun.err" || true)"

	log "export"
	# To a pipe, not a file: at 10^6 captions the N-Quads run to many GB.
	export_quads="$( (timed export "$cg" export --format nq --store "$store") | wc -l)"
	export_wall=$(field export 1)
	export_rss=$(field export 4)
	export_qps=$(div "$export_quads" "$export_wall" %.0f)

	qcols=()
	if ((do_queries)); then
		# A one-caption store: the same command there costs what every
		# invocation pays whatever the store's size (process start-up,
		# gazetteer if the query resolves names, store open, Gizmo VM).
		tiny="$tmp/tiny-store"
		if [[ ! -d $tiny ]]; then
			"$cg" gen --captions 1 --seed "$seed" -o "$tmp/tiny.jsonl" 2>/dev/null
			"$cg" build -q --store "$tiny" "$tmp/tiny.jsonl"
		fi
		for q in "${qnames[@]}"; do
			args=()
			while IFS= read -r kv; do
				[[ -n $kv ]] && args+=(-p "$kv")
			done <<<"${qparams[$q]}"
			desc="$(printf '%s' "${qparams[$q]}" | paste -sd' ' -)"
			log "query $q ${desc:-(no parameters)}"
			# The first run checks the query and its parameters, and counts rows.
			: >"$tmp/q.ms"
			t0=$(now_ms)
			rc=0
			timeout -s KILL "$query_timeout" "$cg" query run "$q" "${args[@]}" --store "$store" -f json >"$tmp/q.json" 2>"$tmp/q.err" || rc=$?
			first=$(($(now_ms) - t0))
			if ((rc != 0)); then
				if ((rc == 137)); then
					log "query $q took over ${query_timeout}s, skipped"
				else
					log "query $q failed, skipped: $(head -c 300 "$tmp/q.err")"
				fi
				qcols+=(NA NA NA)
				printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$n" "$backend" "$q" "${desc:--}" NA \
					0 NA NA 0 NA NA "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$commit" >>"$qtsv"
				continue
			fi
			if command -v jq >/dev/null; then
				rows="$(jq length "$tmp/q.json")"
			else
				rows="$(grep -c '^  {' "$tmp/q.json" || true)"
			fi
			((rows > 0)) || log "note: query $q returned no rows at $n captions"
			runs=0
			if ((first > query_budget * 1000)); then
				log "note: query $q took ${first} ms, over the ${query_budget}s budget: one run only"
				echo "$first" >>"$tmp/q.ms"
				runs=1
			else
				spent=0
				while ((runs < query_runs && (runs == 0 || spent <= query_budget * 1000))); do
					t0=$(now_ms)
					timeout -s KILL "$query_timeout" "$cg" query run "$q" "${args[@]}" --store "$store" -f json >/dev/null 2>"$tmp/q.err" || true
					t=$(($(now_ms) - t0))
					echo "$t" >>"$tmp/q.ms"
					spent=$((spent + t))
					runs=$((runs + 1))
				done
				((runs == query_runs)) || log "note: query $q: $runs runs within the ${query_budget}s budget"
			fi
			: >"$tmp/s.ms"
			for ((i = 0; i < startup_runs; i++)); do
				t0=$(now_ms)
				timeout -s KILL "$query_timeout" "$cg" query run "$q" "${args[@]}" --store "$tiny" -f json >/dev/null 2>"$tmp/q.err" || true
				echo $(($(now_ms) - t0)) >>"$tmp/s.ms"
			done
			p50=$(pctl 50 "$tmp/q.ms")
			p99=$(pctl 99 "$tmp/q.ms")
			s50=$(pctl 50 "$tmp/s.ms")
			net=$(awk -v a="$p50" -v b="$s50" 'BEGIN { printf "%.1f\n", a - b }')
			qcols+=("$p50" "$p99" "$s50")
			printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$n" "$backend" "$q" "${desc:--}" "$rows" \
				"$runs" "$p50" "$p99" "$startup_runs" "$s50" "$net" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$commit" >>"$qtsv"
		done
	fi

	row=("$n" "$extract_cps" "$build_wall" "$build_qps" "$build_cps" "$qpc" "$bytes" "$peak_rss"
		"$rerun_wall" "$rerun_ratio" "$export_qps"
		"$backend" "$seed" "$extract_wall" "$extract_cpu" "$extract_rss" "$build_cpu" "$quads" "$rerun_rss"
		"$export_wall" "$export_quads" "$export_rss" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$commit" "${qcols[@]}")
	(IFS=$'\t'; printf '%s\n' "${row[*]}") >>"$tsv"
	log "$n captions: extract $extract_cps captions/s; build ${build_wall}s ($build_cps captions/s, $build_qps quads/s, $qpc quads/caption, peak RSS $peak_rss kB, store $bytes bytes); rebuild ${rerun_wall}s (x$rerun_ratio); export $export_qps quads/s"
	if ((!keep_tmp)); then
		[[ $backend == bbolt ]] && rm -rf "$store"
		rm -f "$corpus"
	fi
done

if ((do_plot)); then
	cd "$root"
	log "plot $png"
	go run ./bench/plot -in "$tsv" -out "$png"
fi
log "results in $tsv, $qtsv, $out/machine.txt"
