// Package boltkv is the key-value layer under Cayley's kv quad store in an
// embedded capgraph store: bbolt, with Cayley's per-hash buckets folded
// into two flat ones and the appended buckets packed full, and the guards
// that keep a damaged file from crashing the process (a meta-page check
// before bbolt maps the file, and a recover around its reads).
//
// It exists apart from graph because it is the part that copies Cayley's
// and bbolt's internals byte for byte: the layout of their keys and of
// bbolt's meta pages. It registers itself with Cayley as [Backend]; the
// bulk loader writes the same layout directly.
package boltkv
