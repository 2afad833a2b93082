#!/usr/bin/env bash
# bench/sparql.sh: the SPARQL twins in Oxigraph over a generated export.
#
#   bash bench/sparql.sh [N] [DIR]     (default N=100000, DIR a new temp dir)
#
# Generates N captions (capgraph gen --seed 1), builds them into a bbolt
# store, exports N-Quads, binds each saved query's twin as a researcher
# would (capgraph query show NAME --sparql -p ...), loads the export into
# Oxigraph (npm oxigraph, default settings) and runs every twin once. Prints
# one line per twin: name, rows, milliseconds. Needs node, and oxigraph in
# $CAPGRAPH_TEST_OXIGRAPH (a node_modules directory) or on NODE_PATH.
set -euo pipefail

n="${1:-100000}"
dir="${2:-$(mktemp -d "${TMPDIR:-/tmp}/capgraph-sparql.XXXXXX")}"
[[ $n =~ ^[0-9]+$ ]] || { echo "sparql: N must be a whole number" >&2; exit 2; }

root="$(git -C "$(dirname "${BASH_SOURCE[0]}")" rev-parse --show-toplevel)"
mkdir -p "$dir"
(cd "$root" && go build -o "$dir/capgraph" ./cmd/capgraph)
cd "$dir"
if [[ ! -e export.nq ]]; then
	./capgraph gen --captions "$n" --seed 1 >corpus.jsonl
	./capgraph build --quiet --store store corpus.jsonl
	./capgraph export --store store -f nq -o export.nq
fi

# Parameters that exist in every generated corpus of this size, the
# broadest first (Syria holds most places).
show() { local name=$1; shift; ./capgraph query show "$name" --sparql "$@" >"rq/$name$suffix.rq"; }
mkdir -p rq
suffix=""
show agencies
show aliases -p name=
show co-occurrence -p group=
show entity -p name=Idlib
show group-timeline -p group="Free Syrian Army"
show groups-in-place -p place=Syria
show people
show photographer-coverage -p photographer=
show photos-between -p from=2018-01-01 -p to=2018-12-31
show photos-in-place -p place=Idlib
show places-of-group -p group="Free Syrian Army"
show provenance -p subject=Saraqeb -p relation=located_in -p object=Idlib
suffix="-syria"
show photos-in-place -p place=Syria
show photos-between -p from=2018-01-01 -p to=2018-12-31 -p place=Syria
show entity -p name=Syria

node "$root/queries/testdata/sparql/oxigraph.mjs" export.nq rq/*.rq |
	node -e '
		const lines = require("fs").readFileSync(0, "utf8").trim().split("\n").map(JSON.parse);
		console.log("load\t" + lines[0].quads + " quads\t" + lines[0].ms + " ms");
		for (const r of lines.slice(1)) {
			const name = r.query.replace(/^.*\//, "").replace(/\.rq$/, "");
			console.log(name + "\t" + (r.error ? "error: " + r.error : r.rows.length + " rows\t" + r.ms + " ms"));
		}'
