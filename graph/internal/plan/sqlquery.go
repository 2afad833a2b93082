package plan

import (
	"context"

	cgraph "github.com/cayleygraph/cayley/graph"
	"github.com/cayleygraph/cayley/graph/iterator"
	"github.com/cayleygraph/cayley/query/shape"
)

// SQL is the quad store that queries run on with Cayley's SQL
// backends. It keeps the backend from turning node-from-quads steps
// (shape.NodesFrom, shape.QuadsAction) into its "NextPath" selects: with
// those, a query that walks more than one path per node (people,
// groups-in-place on 100 generated captions) panics in Cayley's
// sql.iteratorNext.NextPath, on a goroutine of Gizmo's where nothing can
// recover it, and the process dies. Every other step is still pushed
// down to SQL.
type SQL struct{ cgraph.QuadStore }

func (q SQL) OptimizeShape(ctx context.Context, s shape.Shape) (shape.Shape, bool) {
	switch s.(type) {
	case shape.NodesFrom, shape.QuadsAction:
		return s, false
	}
	o, ok := q.QuadStore.(shape.Optimizer)
	if !ok {
		return s, false
	}
	out, changed := o.OptimizeShape(ctx, s)
	if !changed {
		return s, false
	}
	return boundShape{Shape: out, qs: q.QuadStore}, true
}

// A boundShape is a shape the SQL backend made, which only it can build.
type boundShape struct {
	shape.Shape
	qs cgraph.QuadStore
}

func (b boundShape) BuildIterator(cgraph.QuadStore) iterator.Shape {
	return b.Shape.BuildIterator(b.qs)
}

func (b boundShape) Optimize(context.Context, shape.Optimizer) (shape.Shape, bool) { return b, false }
