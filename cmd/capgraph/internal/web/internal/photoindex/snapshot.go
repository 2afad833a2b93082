package photoindex

import (
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"slices"
)

// A snapshot is what Write keeps of an index: what Build read, without
// the maps and posting lists that Read derives again.
type snapshot struct {
	Format   int
	Store    string // the store's version when the index was built
	Photos   []Photo
	LinkAt   []int32
	Links    []int32
	Entities []Entity
	Inside   [][]int32
	Holders  [][]int32
	Names    []savedName
	Classes  map[int32]string
}

type savedName struct {
	Value, Fold, Key string
	Entity           int32
}

// snapshotFormat changes whenever snapshot or what Build reads changes.
const snapshotFormat = 1

// ErrStale is Read's error for a snapshot of another version of the store
// or another format.
var ErrStale = errors.New("photoindex: the saved index is of another version of the store")

// Write saves ix, built from the store at version storeVersion
// ([graph.Store.Version]), for Read.
func (ix *Index) Write(w io.Writer, storeVersion string) error {
	s := snapshot{Format: snapshotFormat, Store: storeVersion, Photos: ix.photos, LinkAt: ix.linkAt, Links: ix.links,
		Entities: ix.entities, Inside: ix.inside, Holders: ix.holders, Classes: ix.classes}
	for _, n := range ix.names {
		s.Names = append(s.Names, savedName{n.value, n.fold, n.key, n.entity})
	}
	if err := gob.NewEncoder(w).Encode(&s); err != nil {
		return fmt.Errorf("photoindex: save: %w", err)
	}
	return nil
}

// Read loads an index that Write saved from the store at storeVersion;
// a snapshot of any other version is ErrStale.
func Read(r io.Reader, storeVersion string) (*Index, error) {
	var s snapshot
	if err := gob.NewDecoder(r).Decode(&s); err != nil {
		return nil, fmt.Errorf("photoindex: read: %w", err)
	}
	if s.Format != snapshotFormat || s.Store != storeVersion {
		return nil, ErrStale
	}
	n := len(s.Entities)
	if len(s.LinkAt) != len(s.Photos)+1 || len(s.Inside) != n || len(s.Holders) != n || s.LinkAt[0] != 0 {
		return nil, fmt.Errorf("photoindex: read: %d photos, %d link offsets, %d entities, %d and %d place lists", len(s.Photos), len(s.LinkAt), n, len(s.Inside), len(s.Holders))
	}
	ix := &Index{photos: s.Photos, linkAt: s.LinkAt, links: s.Links, entities: s.Entities, inside: s.Inside,
		holders: s.Holders, classes: s.Classes, byIRI: make(map[string]int32, n), byCaption: make(map[string]int32, len(s.Photos))}
	if ix.classes == nil {
		ix.classes = map[int32]string{}
	}
	valid := func(e int32) bool { return e >= 0 && int(e) < n }
	for i := range ix.linkAt[1:] {
		if ix.linkAt[i] > ix.linkAt[i+1] || int(ix.linkAt[i+1]) > len(ix.links) {
			return nil, fmt.Errorf("photoindex: read: link offsets out of order at photo %d", i)
		}
	}
	for _, lists := range [][][]int32{ix.inside, ix.holders, {ix.links}} {
		for _, l := range lists {
			if !all(l, valid) {
				return nil, errors.New("photoindex: read: an entity number out of range")
			}
		}
	}
	for i, e := range ix.entities {
		ix.byIRI[e.IRI] = int32(i)
	}
	for i, p := range ix.photos {
		ix.byCaption[p.CaptionID] = int32(i)
	}
	for _, nm := range s.Names {
		if !valid(nm.Entity) {
			return nil, errors.New("photoindex: read: a name of no entity")
		}
		ix.names = append(ix.names, name{nm.Value, nm.Fold, nm.Key, nm.Entity})
	}
	ix.postings = make([][]int32, n)
	for i := range ix.photos {
		for _, e := range ix.linksOf(int32(i)) {
			ix.postings[e] = append(ix.postings[e], int32(i))
		}
	}
	return ix, nil
}

func all(l []int32, ok func(int32) bool) bool {
	return !slices.ContainsFunc(l, func(e int32) bool { return !ok(e) })
}
