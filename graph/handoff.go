package graph

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"os"

	"github.com/capgraph/capgraph/extract"
	"github.com/capgraph/capgraph/graph/internal/pgbulk"
	"github.com/capgraph/capgraph/graph/model"
)

// Builds of one PostgreSQL store write in turn (pgbulk.Builds): a build
// reads what it then rewrites, a tally or a description, and two at once
// would lose one's addition. Waiting would make N builds started at once
// take N times as long as one, and longer than one build of all their
// input, which bulk loads an empty store where the waiting ones would
// then go through the indexes caption by caption. So a build that finds
// another writing extracts its input as usual and hands the extractions
// over, in the store, then waits: the writing build writes them after its
// own, in its bulk load if it is one, and records what it counted for the
// build that handed them over, which reports it when its turn comes. What
// is still queued then (handed over too late, or left by a writer that
// failed) it writes itself, with whatever other builds left there.

// handedChunk is how many extractions a waiting build hands over in one
// transaction, and handedClaim how many the writer claims at once.
const (
	handedChunk = 1000
	handedClaim = 5000
)

// runInTurn loads xs into a PostgreSQL store: at once if no other build
// writes to it, or else by handing them over and waiting for its turn.
func (l *loading) runInTurn(ctx context.Context, xs iter.Seq2[extract.Extraction, error]) (err error) {
	s := l.s
	b, err := pgbulk.OpenBuilds(ctx, s.pgAddr)
	if err != nil {
		return fmt.Errorf("graph: load %s: %w", s.addr, err)
	}
	defer func() {
		if cerr := b.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("graph: load %s: %w", s.addr, cerr)
		}
	}()
	l.id = buildID()
	l.took = make(map[string]*LoadStats)
	writing, err := b.TryLock(ctx)
	if err != nil {
		return fmt.Errorf("graph: load %s: %w", s.addr, err)
	}
	own := l.own(xs)
	var inputErr error
	if !writing {
		s.log.Info("another build is writing to the store: handing these captions over to it", "store", s.addr)
		inputErr = l.handOver(ctx, b, xs)
		if err := ctx.Err(); err != nil {
			return l.withdraw(ctx, b, err)
		}
		s.log.Info("waiting for the build writing to the store to finish", "store", s.addr)
		if err := b.Lock(ctx); err != nil {
			if ctx.Err() != nil {
				err = ctx.Err() // not the driver's word for it
			}
			return l.withdraw(ctx, b, fmt.Errorf("graph: load %s: %w", s.addr, err))
		}
		if err := l.collect(ctx, b); err != nil {
			return err
		}
		own = nil
	}
	err = l.run(ctx, own, b)
	if err == nil {
		err = l.recordTaken(ctx, b)
	}
	return l.finish(ctx, errors.Join(inputErr, err))
}

// handOver puts the extractions of xs in the store's queue, a chunk per
// transaction, and returns the first error of xs, which ends it as it
// ends a load.
func (l *loading) handOver(ctx context.Context, b *pgbulk.Builds, xs iter.Seq2[extract.Extraction, error]) error {
	var (
		chunk  []pgbulk.Handed
		handed int
	)
	flush := func() error {
		if err := b.Hand(ctx, chunk); err != nil {
			return fmt.Errorf("graph: write to %s: %w", l.s.addr, err)
		}
		handed += len(chunk)
		chunk = chunk[:0]
		l.opts.Progress(LoadStats{Captions: handed, Handed: handed})
		return nil
	}
	for x, err := range xs {
		if err != nil {
			return errors.Join(err, flush())
		}
		if x.ID == "" {
			return errors.Join(fmt.Errorf("graph: load: caption %q has no id", short(x.Text)), flush())
		}
		payload, err := json.Marshal(x)
		if err != nil {
			return errors.Join(fmt.Errorf("graph: load: caption %s: %w", x.ID, err), flush())
		}
		chunk = append(chunk, pgbulk.Handed{Build: l.id, Model: model.Version, Extractor: l.prov.ExtractorVersion, Payload: payload})
		if len(chunk) == handedChunk {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	return flush()
}

// withdraw takes back what the load handed over and no build has claimed,
// when it stops before its turn with err.
func (l *loading) withdraw(ctx context.Context, b *pgbulk.Builds, err error) error {
	n, werr := b.Withdraw(context.WithoutCancel(ctx), l.id)
	if werr != nil {
		return errors.Join(err, fmt.Errorf("graph: write to %s: %w", l.s.addr, werr))
	}
	l.s.log.Info("took back captions handed over and not yet written", "captions", n)
	return err
}

// collect adds to the load's counts what other builds counted of the
// captions it handed over.
func (l *loading) collect(ctx context.Context, b *pgbulk.Builds) error {
	recs, err := b.Results(ctx, l.id)
	if err != nil {
		return fmt.Errorf("graph: read %s: %w", l.s.addr, err)
	}
	for _, rec := range recs {
		var st LoadStats
		if err := json.Unmarshal(rec, &st); err != nil {
			return fmt.Errorf("graph: read %s: what another build counted: %w", l.s.addr, err)
		}
		st.Handed = st.Captions
		l.st.add(st)
	}
	return nil
}

// handed returns the extractions of hs, to prepare.
func (l *loading) handed(hs []pgbulk.Handed) iter.Seq[*prepared] {
	return func(yield func(*prepared) bool) {
		for _, h := range hs {
			m := &prepared{payload: h.Payload, handedBy: h.Build, prov: model.Provenance{ExtractorVersion: h.Extractor}}
			if !yield(m) {
				return
			}
		}
	}
}

// tookFrom adds d, what writing one of build's captions counted, to
// build's counts.
func (l *loading) tookFrom(build string, d LoadStats) {
	st := l.took[build]
	if st == nil {
		st = new(LoadStats)
		l.took[build] = st
	}
	st.add(d)
}

// recordTaken, once the load has committed, takes out of the queue what
// it claimed, records what it counted for the builds that handed it over,
// and moves those counts from the load's own to Took. (A load that fails
// records nothing: what it claimed is claimed again, and found unchanged
// where it was committed.)
func (l *loading) recordTaken(ctx context.Context, b *pgbulk.Builds) error {
	recs := make(map[string][]byte, len(l.took))
	for build, st := range l.took {
		rec, err := json.Marshal(st)
		if err != nil {
			return err
		}
		recs[build] = rec
	}
	if err := b.Done(ctx, l.id, recs); err != nil {
		return fmt.Errorf("graph: write to %s: %w", l.s.addr, err)
	}
	for _, st := range l.took {
		l.st = l.st.minus(*st)
		l.st.Took += st.Captions
	}
	return nil
}

// buildID names a build among those of a store: where it runs, for the
// log, and a random part.
func buildID() string {
	host, _ := os.Hostname()
	return fmt.Sprintf("%s:%d:%s", host, os.Getpid(), rand.Text()[:8])
}
