// Package model is capgraph's RDF model: the vocabulary it writes, the IRIs
// it mints for photos, caption graphs and entities (and reads back), and
// the quads that stand for one extraction. docs/model.md describes the
// model for people who query it.
//
// Everything that names a capgraph IRI takes it from here, so that the
// model changes in one place. The terms are Cayley quad IRIs, which
// convert to plain strings where a caller needs text.
package model
