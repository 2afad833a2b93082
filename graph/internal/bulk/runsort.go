package bulk

import (
	"bufio"
	"cmp"
	"container/heap"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"slices"
)

// A record is one entry of a bulk-loaded bucket: a key of up to 24 bytes,
// zero-padded (every key of one bucket has the same length), and a number:
// a quad id for an index, a node id or a reference count for a value map.
type record struct {
	key [24]byte
	val uint64
}

func compareRecords(a, b record) int {
	for i := 0; i < len(a.key); i += 8 {
		x, y := binary.BigEndian.Uint64(a.key[i:]), binary.BigEndian.Uint64(b.key[i:])
		if x != y {
			return cmp.Compare(x, y)
		}
	}
	return cmp.Compare(a.val, b.val)
}

const recordSize = 24 + 8

// A runSorter sorts more records than fit in memory: it keeps up to limit
// records, and spills each full buffer to a temporary file as a sorted run;
// merge then reads the runs back in one k-way merge. Records compare by key,
// then by value, so the ids of one index key come out ascending, as Cayley
// appends them.
type runSorter struct {
	dir   string
	limit int
	buf   []record
	runs  []*os.File
}

func newRunSorter(dir string, limit int) *runSorter {
	return &runSorter{dir: dir, limit: limit}
}

func (s *runSorter) add(r record) error {
	if s.buf == nil {
		s.buf = make([]record, 0, s.limit) // not append's growth, which overshoots
	}
	s.buf = append(s.buf, r)
	if len(s.buf) >= s.limit {
		return s.spill()
	}
	return nil
}

// spill writes the buffer as one sorted run.
func (s *runSorter) spill() error {
	if len(s.buf) == 0 {
		return nil
	}
	slices.SortFunc(s.buf, compareRecords)
	f, err := os.CreateTemp(s.dir, "run-*")
	if err != nil {
		return err
	}
	s.runs = append(s.runs, f)
	w := bufio.NewWriterSize(f, 1<<20)
	var b [recordSize]byte
	for _, r := range s.buf {
		copy(b[:24], r.key[:])
		binary.BigEndian.PutUint64(b[24:], r.val)
		if _, err := w.Write(b[:]); err != nil {
			return err
		}
	}
	s.buf = s.buf[:0]
	if err := w.Flush(); err != nil {
		return fmt.Errorf("write run %s: %w", f.Name(), err)
	}
	return nil
}

// merge calls fn with every record added, in order. A sorter whose records
// all fit in memory never touches the disk.
func (s *runSorter) merge(fn func(record) error) error {
	if len(s.runs) == 0 {
		slices.SortFunc(s.buf, compareRecords)
		for _, r := range s.buf {
			if err := fn(r); err != nil {
				return err
			}
		}
		s.buf = nil
		return nil
	}
	if err := s.spill(); err != nil {
		return err
	}
	s.buf = nil
	h := make(runHeap, 0, len(s.runs))
	for _, f := range s.runs {
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return err
		}
		rr := &runReader{r: bufio.NewReaderSize(f, 256<<10), name: f.Name()}
		if ok, err := rr.next(); err != nil {
			return err
		} else if ok {
			h = append(h, rr)
		}
	}
	heap.Init(&h)
	for len(h) > 0 {
		top := h[0]
		if err := fn(top.cur); err != nil {
			return err
		}
		ok, err := top.next()
		if err != nil {
			return err
		}
		if ok {
			heap.Fix(&h, 0)
		} else {
			heap.Pop(&h)
		}
	}
	return nil
}

// close removes the sorter's runs.
func (s *runSorter) close() {
	for _, f := range s.runs {
		f.Close()
		os.Remove(f.Name())
	}
	s.runs, s.buf = nil, nil
}

type runReader struct {
	r    *bufio.Reader
	name string
	cur  record
	b    [recordSize]byte
}

func (rr *runReader) next() (bool, error) {
	if _, err := io.ReadFull(rr.r, rr.b[:]); err == io.EOF {
		return false, nil
	} else if err != nil {
		return false, fmt.Errorf("read run %s: %w", rr.name, err)
	}
	copy(rr.cur.key[:], rr.b[:24])
	rr.cur.val = binary.BigEndian.Uint64(rr.b[24:])
	return true, nil
}

type runHeap []*runReader

func (h runHeap) Len() int           { return len(h) }
func (h runHeap) Less(i, j int) bool { return compareRecords(h[i].cur, h[j].cur) < 0 }
func (h runHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *runHeap) Push(x any)        { *h = append(*h, x.(*runReader)) }
func (h *runHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
