package plan

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/cayleygraph/cayley/graph/kv"
	cproto "github.com/cayleygraph/cayley/graph/proto"
	"github.com/cayleygraph/cayley/graph/refs"
	"github.com/cayleygraph/quad"
	hkv "github.com/hidal-go/hidalgo/kv"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
)

// readPrimitive reads primitive id (a node or a quad) from kv's log, or
// nil when it is not there.
func readPrimitive(ctx context.Context, tx hkv.Tx, id uint64) (*cproto.Primitive, error) {
	v, err := logEntry(ctx, tx, id)
	if v == nil || err != nil {
		return nil, err
	}
	p := new(cproto.Primitive)
	if err := proto.Unmarshal(v, p); err != nil {
		return nil, fmt.Errorf("quad %d: %w", id, err)
	}
	return p, nil
}

// logEntry returns the bytes of primitive id in kv's log, or nil when it
// is not there.
func logEntry(ctx context.Context, tx hkv.Tx, id uint64) ([]byte, error) {
	var k [8]byte
	binary.BigEndian.PutUint64(k[:], id)
	v, err := tx.Get(ctx, hkv.Key{[]byte("log"), k[:]})
	if errors.Is(err, hkv.ErrNotFound) {
		return nil, nil
	}
	return v, err
}

// link is a quad as kv's log holds it: its directions' node ids, and
// whether it is dead.
type link struct {
	dirs    [4]uint64 // by quad.Direction - 1
	deleted bool
}

// dir returns the node in direction d, as kv's QuadDirection does: nil for
// a quad without a label.
func (l *link) dir(d quad.Direction) refs.Ref {
	if d < quad.Subject || d > quad.Label || (d == quad.Label && l.dirs[3] == 0) {
		return nil
	}
	return kv.Int64Value(l.dirs[d-1])
}

// readLink reads quad id from kv's log into l, and reports whether it is
// there. It decodes the few fields a quad's primitive has by hand: the
// generic protobuf decoder allocates a message per quad, and queries read
// one for every quad they walk.
func readLink(ctx context.Context, tx hkv.Tx, id uint64, l *link) (bool, error) {
	v, err := logEntry(ctx, tx, id)
	if v == nil || err != nil {
		return false, err
	}
	if err := decodeLink(v, l); err != nil {
		return false, fmt.Errorf("quad %d: %w", id, err)
	}
	return true, nil
}

// decodeLink decodes a primitive of kv's log into l. Fields a quad does
// not have (a node's value, ids, times) are skipped.
func decodeLink(b []byte, l *link) error {
	*l = link{}
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return protowire.ParseError(n)
		}
		b = b[n:]
		if typ != protowire.VarintType {
			if n = protowire.ConsumeFieldValue(num, typ, b); n < 0 {
				return protowire.ParseError(n)
			}
			b = b[n:]
			continue
		}
		x, n := protowire.ConsumeVarint(b)
		if n < 0 {
			return protowire.ParseError(n)
		}
		b = b[n:]
		switch num {
		case primSubject, primPredicate, primObject, primLabel:
			l.dirs[num-primSubject] = x
		case primDeleted:
			l.deleted = x != 0
		}
	}
	return nil
}

// The field numbers of kv's Primitive message (graph/proto/primitive.proto).
const (
	primSubject   protowire.Number = 2 // then Predicate 3, Object 4, Label 5
	primPredicate protowire.Number = 3
	primObject    protowire.Number = 4
	primLabel     protowire.Number = 5
	primDeleted   protowire.Number = 9
)

// decodeIDs appends the quad ids of an index value (uvarints, as kv
// writes them) to dst.
func decodeIDs(dst []uint64, b []byte) ([]uint64, error) {
	for len(b) > 0 {
		v, n := binary.Uvarint(b)
		if n <= 0 {
			return dst, errors.New("graph: bad quad index value")
		}
		dst = append(dst, v)
		b = b[n:]
	}
	return dst, nil
}
