package queries_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/capgraph/capgraph/queries"
)

func writeQuery(t *testing.T, dir, name, text string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func ExampleQuery_Bind() {
	q, ok := queries.Lookup(queries.Builtin(), "photos-in-place")
	if !ok {
		log.Fatal("no such query")
	}
	prog, err := q.Bind(map[string]string{"place": "Ma'arat\n\"x"})
	if err != nil {
		log.Fatal(err)
	}
	first, _, _ := strings.Cut(prog, "\n")
	fmt.Println(first)
	// The query's own text follows the shared helpers unchanged.
	fmt.Println(strings.HasSuffix(prog, "\n"+q.Text))
	// Output:
	// var params = Object.freeze(JSON.parse("{\u0022$names\u0022:{\u0022place\u0022:[\u0022Ma\u0027arat\u005cn\u005c\u0022x\u0022,\u0022ma\u0027arat\u005cn\u005c\u0022x\u0022,\u0022MA\u0027ARAT\u005cn\u005c\u0022X\u0022,\u0022Ma\u0027Arat\u005cn\u005c\u0022x\u0022]},\u0022place\u0022:\u0022Ma\u0027arat\u005cn\u005c\u0022x\u0022}"));
	// true
}
