// Package rows makes the rows of a saved query's result: a query may hand
// back one "batch" object ($rows, with $columns, $sort, $unique and
// $limit) instead of emitting every row, and rows builds, sorts,
// deduplicates and cuts them in Go. See [Of] and, over a run's results,
// [All].
//
// It is the Go half of what lib.js's emitSorted and emitTagged begin, so
// it lives beside them; it knows nothing of the store or of Cayley, only
// the shape of the values that Gizmo hands over.
package rows
