package pgbulk

import (
	"database/sql"
	"testing"
	"time"

	"github.com/cayleygraph/cayley/graph/refs"
	"github.com/cayleygraph/quad"
)

// TestNodeRowRoundTrip writes each kind of value as a node row, as the
// bulk load copies it, and reads it back as export does.
func TestNodeRowRoundTrip(t *testing.T) {
	for _, v := range []quad.Value{
		quad.IRI("https://capgraph.org/id/place/geonames/170654"),
		quad.BNode("b1"),
		quad.String("Damascus"),
		quad.String("with a \x00 byte"),
		quad.TypedString{Value: "2014-03", Type: "http://www.w3.org/2001/XMLSchema#gYearMonth"},
		quad.LangString{Value: "Damas", Lang: "fr"},
		quad.Int(-42),
		quad.Bool(true),
		quad.Float(33.5),
		quad.Time(time.Date(2014, 3, 3, 10, 0, 0, 0, time.UTC)),
	} {
		row, err := nodeRow(refs.HashOf(v), v, 3)
		if err != nil {
			t.Fatalf("%#v: %v", v, err)
		}
		if len(row) != len(nodeColumns) || row[1] != 3 {
			t.Fatalf("%#v: row %v", v, row)
		}
		var n nodeValue
		if b, ok := row[2].([]byte); ok {
			n.data = b
		}
		str := func(x any) sql.NullString { s, ok := x.(string); return sql.NullString{String: s, Valid: ok} }
		boolean := func(x any) sql.NullBool { b, ok := x.(bool); return sql.NullBool{Bool: b, Valid: ok} }
		n.str, n.typ, n.lang = str(row[3]), str(row[4]), str(row[5])
		n.iri, n.bnode, n.vbool = boolean(row[6]), boolean(row[7]), boolean(row[9])
		if i, ok := row[8].(int64); ok {
			n.vint = sql.NullInt64{Int64: i, Valid: true}
		}
		if f, ok := row[10].(float64); ok {
			n.vfloat = sql.NullFloat64{Float64: f, Valid: true}
		}
		if tm, ok := row[11].(time.Time); ok {
			n.vtime = sql.NullTime{Time: tm, Valid: true}
		}
		got, err := n.value()
		if err != nil || got != v {
			t.Errorf("%#v came back as %#v, %v", v, got, err)
		}
	}
	var none nodeValue
	if v, err := none.value(); v != nil || err != nil {
		t.Errorf("an empty row is %#v, %v; want nil: a quad without a label", v, err)
	}
}
