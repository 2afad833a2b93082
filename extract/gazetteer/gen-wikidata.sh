#!/bin/sh
# gen-wikidata.sh regenerates data/wikidata.tsv (the Wikidata items of the
# gazetteer's countries) and data/LICENSE-country-coder.txt from npm's
# @rapideditor/country-coder. Run from the module root or this directory;
# needs npm and network access to its registry.
set -eu
cd "$(dirname "$0")"
version=5.6.1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack --silent "@rapideditor/country-coder@$version" >/dev/null && tar xzf rapideditor-country-coder-$version.tgz)
cp "$tmp/package/LICENSE.md" data/LICENSE-country-coder.txt
go run ./internal/genwikidata -borders "$tmp/package/src/data/borders.json" -version "$version" -out data/wikidata.tsv
