package extract

import (
	"testing"

	"github.com/capgraph/capgraph/extract/gazetteer"
)

// BenchmarkBuildTrie measures the part of New that extract adds to the
// gazetteer's own load: indexing every name in the token trie.
func BenchmarkBuildTrie(b *testing.B) {
	data, err := gazetteer.Load()
	if err != nil {
		b.Fatal(err)
	}
	ix := data.Index()
	for b.Loop() {
		buildTrie(data, ix)
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/build")
}
