#!/bin/sh
# gen-wikidata.sh regenerates data/wikidata.tsv (the Wikidata items of the
# gazetteer's countries, armed groups and lexicon terms) and the licences of
# its two sources, npm's @rapideditor/country-coder and name-suggestion-index.
# Run from the module root or this directory; needs npm and network access to
# its registry.
set -eu
cd "$(dirname "$0")"
borders=5.6.1
nsi=8.0.20260918
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && mkdir cc nsi &&
	npm pack --silent "@rapideditor/country-coder@$borders" >/dev/null && tar xzf rapideditor-country-coder-$borders.tgz -C cc &&
	npm pack --silent "name-suggestion-index@$nsi" >/dev/null && tar xzf name-suggestion-index-$nsi.tgz -C nsi)
cp "$tmp/cc/package/LICENSE.md" data/LICENSE-country-coder.txt
cp "$tmp/nsi/package/LICENSE.md" data/LICENSE-name-suggestion-index.txt
go run ./internal/genwikidata \
	-borders "$tmp/cc/package/src/data/borders.json" -borders-version "$borders" \
	-labels "$tmp/nsi/package/dist/wikidata/wikidata.json" -labels-version "$nsi" \
	-out data/wikidata.tsv
