package plan

import (
	cgraph "github.com/cayleygraph/cayley/graph"
	"github.com/cayleygraph/cayley/graph/iterator"
	"github.com/cayleygraph/cayley/query/shape"
)

// Cayley finds a planner by asserting shape.Optimizer on the quad store it
// runs a query on; if an upgrade changed that interface, the planner would
// be dropped without a word. These make it fail to build instead.
var (
	_ cgraph.QuadStore = (*Store)(nil)
	_ shape.Optimizer  = (*Store)(nil)
	_ cgraph.QuadStore = SQL{}
	_ shape.Optimizer  = SQL{}

	_ shape.Shape = (*indexLinks)(nil)
	_ shape.Shape = (*indexJoin)(nil)
	_ shape.Shape = (*distinctLinks)(nil)
	_ shape.Shape = boundShape{}

	_ iterator.Shape = (*linksIterator)(nil)
	_ iterator.Shape = (*joinIterator)(nil)
	_ iterator.Shape = (*distinctIterator)(nil)
)
