// Package rows makes the rows of a saved query's result: a query may hand
// back one "batch" object ($rows, with $columns, $sort, $unique and
// $limit) instead of emitting every row, and rows builds, sorts,
// deduplicates and cuts them in Go. See [Of].
//
// It exists apart from graph because it knows nothing of the store or of
// Cayley: only the shape of the values that Gizmo hands over.
package rows
