package pgbulk

import (
	"fmt"
	"slices"
	"testing"
	"time"

	cgraph "github.com/cayleygraph/cayley/graph"

	"github.com/capgraph/capgraph/internal/pgtest"
)

// TestHandOff walks the queue through two waiting builds and two
// writers: the first writer claims in the order of handing over and only
// its own model's captions, fails before Done, and the second claims what
// it left; Done records the counts for each build that handed some over
// and empties the queue of the second writer's claims only, not of what
// was handed over meanwhile; a build killed before its turn keeps
// nothing; Withdraw
// takes back only what nobody claimed.
func TestHandOff(t *testing.T) {
	addr := pgtest.Schema(t, "capgraph_pgbulk_handoff")
	if err := cgraph.InitQuadStore("postgres", addr, nil); err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	if err := CreateHandoff(ctx, addr); err != nil {
		t.Fatal(err)
	}
	if err := CreateHandoff(ctx, addr); err != nil {
		t.Fatalf("second CreateHandoff: %v", err)
	}
	open := func() *Builds {
		b, err := OpenBuilds(ctx, addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { b.Close() })
		return b
	}
	hand := func(b *Builds, build, model string, payloads ...string) {
		t.Helper()
		var hs []Handed
		for _, p := range payloads {
			hs = append(hs, Handed{Build: build, Model: model, Extractor: "x1", Payload: []byte(p)})
		}
		if err := b.Hand(ctx, hs); err != nil {
			t.Fatal(err)
		}
	}
	payloads := func(hs []Handed) []string {
		var out []string
		for _, h := range hs {
			out = append(out, h.Build+"/"+string(h.Payload))
		}
		return out
	}
	claim := func(b *Builds, writer string, limit int) []string {
		t.Helper()
		hs, err := b.Claim(ctx, writer, "m1", limit)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range hs {
			if h.Model != "m1" || h.Extractor != "x1" {
				t.Errorf("claimed %+v", h)
			}
		}
		return payloads(hs)
	}

	writer1, waiting1, waiting2 := open(), open(), open()
	if ok, err := writer1.TryLock(ctx); err != nil || !ok {
		t.Fatalf("first TryLock = %v, %v; want true", ok, err)
	}
	if ok, err := waiting1.TryLock(ctx); err != nil || ok {
		t.Fatalf("TryLock while held = %v, %v; want false", ok, err)
	}
	hand(waiting1, "b1", "m1", "a", "b", "c")
	killed := open()
	hand(killed, "k", "m1", "killed before its turn")
	killed.Close()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		var alive bool
		if err := writer1.db.QueryRow(`SELECT EXISTS (SELECT 1 FROM pg_stat_activity WHERE pid = $1)`, killed.backend).Scan(&alive); err != nil {
			t.Fatal(err)
		}
		if !alive {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the closed connection's server process is still there")
		}
	}
	hand(waiting2, "b2", "m2", "other model")
	hand(waiting2, "b2", "m1", "d", "e")

	if got, want := claim(writer1, "w1", 2), []string{"b1/a", "b1/b"}; !slices.Equal(got, want) {
		t.Errorf("w1 claimed %q, want %q", got, want)
	}
	if n, err := waiting1.Withdraw(ctx, "b1"); err != nil || n != 1 {
		t.Errorf("b1 withdrew %d (%v), want 1: c, not claimed", n, err)
	}
	hand(waiting1, "b1", "m1", "f")
	// w1 fails: no Done. w2, the next holder of the lock, claims again
	// what w1 claimed, with the rest of its model's.
	if got, want := claim(writer1, "w2", 10), []string{"b1/a", "b1/b", "b2/d", "b2/e", "b1/f"}; !slices.Equal(got, want) {
		t.Errorf("w2 claimed %q, want %q", got, want)
	}
	if got := claim(writer1, "w2", 10); len(got) != 0 {
		t.Errorf("w2 claimed %q again", got)
	}
	hand(waiting1, "b1", "m1", "g") // too late for w2
	if err := writer1.Done(ctx, "w2", map[string][]byte{"b1": []byte(`3`), "b2": []byte(`2`)}); err != nil {
		t.Fatal(err)
	}
	for build, want := range map[string][]string{"b1": {"3"}, "b2": {"2"}, "b3": nil} {
		recs, err := waiting1.Results(ctx, build)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range recs {
			got = append(got, string(r))
		}
		if !slices.Equal(got, want) {
			t.Errorf("Results(%s) = %q, want %q", build, got, want)
		}
	}
	if recs, err := waiting1.Results(ctx, "b1"); err != nil || len(recs) != 0 {
		t.Errorf("Results(b1) read twice: %q, %v", recs, err)
	}
	// Left: the caption handed over too late, and the other model's,
	// for a writer of that model.
	if got, want := claim(writer1, "w3", 10), []string{"b1/g"}; !slices.Equal(got, want) {
		t.Errorf("w3 claimed %q, want %q", got, want)
	}
	left, err := writer1.Claim(ctx, "w3", "m2", 10)
	if err != nil || fmt.Sprint(payloads(left)) != "[b2/other model]" {
		t.Errorf("a writer of m2 claimed %q (%v)", payloads(left), err)
	}

	// The lock passes when its holder closes.
	writer1.Close()
	if ok, err := waiting1.TryLock(ctx); err != nil || !ok {
		t.Fatalf("TryLock after the holder closed = %v, %v; want true", ok, err)
	}
}
