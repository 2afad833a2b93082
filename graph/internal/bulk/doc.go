// Package bulk writes the first load of an empty embedded store straight
// in the key layout of Cayley's kv quad store (as folded by boltkv): ids
// given in order, index entries sorted in runs on disk and each bucket
// written once, in key order, into a new file renamed over the empty one.
//
// It exists apart from graph because it writes Cayley's and bbolt's
// formats byte for byte, as boltkv reads them, and because it is the one
// writer whose speed a first build depends on; later loads go through
// Cayley's own writer.
package bulk
