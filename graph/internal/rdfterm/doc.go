// Package rdfterm writes single RDF terms in N-Triples and Turtle syntax:
// IRIs, escaped strings, typed and language-tagged literals, blank nodes
// and prefixed names. The exporters build lines and documents from these.
//
// It exists apart from graph so that it is fuzzed and tested on its own:
// its output must be accepted by independent parsers (rapper, rdflib)
// whatever bytes a caption holds.
package rdfterm
