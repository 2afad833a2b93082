package graph

// Test helpers of package graph that its external tests (graph_test) use.

// Extracted returns the extractions of the caption files at paths that
// exist (extracted).
var Extracted = extracted
