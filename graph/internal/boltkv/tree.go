package boltkv

import (
	"encoding/binary"
	"fmt"
	"os"
)

// bbolt's page layout: a 16-byte header (id, flags, element count,
// overflow pages), then 16-byte elements whose keys and values sit at an
// offset from the element itself.
const (
	pageHeaderSize  = 16
	elementSize     = 16
	branchPageFlag  = 0x01
	leafPageFlag    = 0x02
	bucketLeafFlag  = 0x01
	bucketHeaderLen = 16 // root page id, sequence; an inline bucket's page follows
	maxTreeProblems = 20
)

// CheckTree walks the B+tree of the bbolt file at path from its current
// meta page, reading pages with ReadAt, and returns where it leaves its
// bounds: a page past the file's high-water mark or reached twice, a page
// that is neither branch nor leaf, an element whose key or value lies
// outside its page.
//
// bbolt's own check (Tx.Check) follows such offsets into memory outside
// its map, in a goroutine of its own, where the fault kills the process
// and no recover can catch it; a store that passes CheckTree is safe to
// hand to it.
func CheckTree(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	m := CurrentMeta(f)
	if !m.OK {
		return []string{"no valid meta page"}, nil
	}
	w := &treeWalker{f: f, meta: m, seen: make([]uint64, m.Pages/64+1)}
	w.page(m.Root, "root bucket")
	return w.problems, w.err
}

type treeWalker struct {
	f        *os.File
	meta     Meta
	seen     []uint64 // one bit a page id
	problems []string
	err      error // a read that failed for another reason than the damage
}

func (w *treeWalker) report(format string, args ...any) {
	if len(w.problems) < maxTreeProblems {
		w.problems = append(w.problems, fmt.Sprintf(format, args...))
	}
}

func (w *treeWalker) done() bool { return len(w.problems) >= maxTreeProblems || w.err != nil }

// page reads page id, reached from where, and walks it.
func (w *treeWalker) page(id uint64, where string) {
	if w.done() {
		return
	}
	if id < 2 || id >= w.meta.Pages {
		w.report("page %d (%s): out of bounds: the file has %d pages", id, where, w.meta.Pages)
		return
	}
	if w.seen[id/64]&(1<<(id%64)) != 0 {
		w.report("page %d (%s): reached twice", id, where)
		return
	}
	w.seen[id/64] |= 1 << (id % 64)
	var hdr [pageHeaderSize]byte
	if _, err := w.f.ReadAt(hdr[:], int64(id*w.meta.PageSize)); err != nil {
		w.err = err
		return
	}
	if got := binary.LittleEndian.Uint64(hdr[0:]); got != id {
		w.report("page %d (%s): its header says page %d", id, where, got)
		return
	}
	overflow := uint64(binary.LittleEndian.Uint32(hdr[12:]))
	if id+overflow >= w.meta.Pages {
		w.report("page %d (%s): %d overflow pages run past the file's %d pages", id, where, overflow, w.meta.Pages)
		return
	}
	buf := make([]byte, (1+overflow)*w.meta.PageSize)
	if _, err := w.f.ReadAt(buf, int64(id*w.meta.PageSize)); err != nil {
		w.err = err
		return
	}
	w.node(buf, fmt.Sprintf("page %d", id))
}

// node walks the branch or leaf page in buf, a page read from the file or
// an inline bucket's.
func (w *treeWalker) node(buf []byte, name string) {
	if len(buf) < pageHeaderSize {
		w.report("%s: shorter than a page header", name)
		return
	}
	flags := binary.LittleEndian.Uint16(buf[8:])
	count := int(binary.LittleEndian.Uint16(buf[10:]))
	if flags != branchPageFlag && flags != leafPageFlag {
		w.report("%s: not a branch or leaf page (flags %#x)", name, flags)
		return
	}
	if pageHeaderSize+count*elementSize > len(buf) {
		w.report("%s: %d elements do not fit in %d bytes", name, count, len(buf))
		return
	}
	for i := 0; i < count && !w.done(); i++ {
		e := pageHeaderSize + i*elementSize
		el := buf[e : e+elementSize]
		if flags == branchPageFlag {
			pos, ksize := uint64(binary.LittleEndian.Uint32(el[0:])), uint64(binary.LittleEndian.Uint32(el[4:]))
			if uint64(e)+pos+ksize > uint64(len(buf)) {
				w.report("%s: key %d lies outside the page", name, i)
				continue
			}
			w.page(binary.LittleEndian.Uint64(el[8:]), fmt.Sprintf("%s, branch %d", name, i))
			continue
		}
		leafFlags := binary.LittleEndian.Uint32(el[0:])
		pos, ksize, vsize := uint64(binary.LittleEndian.Uint32(el[4:])), uint64(binary.LittleEndian.Uint32(el[8:])), uint64(binary.LittleEndian.Uint32(el[12:]))
		end := uint64(e) + pos + ksize + vsize
		if end > uint64(len(buf)) {
			w.report("%s: key or value %d lies outside the page", name, i)
			continue
		}
		if leafFlags&bucketLeafFlag == 0 {
			continue
		}
		v := buf[uint64(e)+pos+ksize : end]
		if len(v) < bucketHeaderLen {
			w.report("%s: bucket %d has a header of %d bytes", name, i, len(v))
			continue
		}
		if root := binary.LittleEndian.Uint64(v); root != 0 {
			w.page(root, fmt.Sprintf("%s, bucket %d", name, i))
		} else {
			w.node(v[bucketHeaderLen:], fmt.Sprintf("%s, inline bucket %d", name, i))
		}
	}
}
