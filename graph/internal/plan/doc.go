// Package plan is the query planner of an embedded capgraph store: it
// plans the steps of Cayley's query shapes on the kv store's two quad
// indexes (joins by index prefix, distinct predicates on index keys) where
// Cayley would scan every quad of a node, and keeps read caches of node
// values, quad ids and index prefixes that a load resets. [SQL] does the
// same job for the SQL backend: it leaves the joins to PostgreSQL and
// keeps Cayley from the steps that crash it.
//
// It exists apart from graph because it reads Cayley's kv layout and
// implements Cayley's iterator and shape interfaces, which a Cayley
// upgrade may change; checks.go makes such a change fail to build instead
// of silently dropping the planner.
package plan
