package web

import (
	"context"
	"net"
	"net/http"
	"sync/atomic"
	"testing"
	"time"
)

// TestServeWaitsForHandlers: a request still running when the server
// stops is cancelled after the grace period, and ServeListener returns
// only after its handler has, so the caller can close the store safely.
func TestServeWaitsForHandlers(t *testing.T) {
	if testing.Short() {
		t.Skip("waits out the 5 s grace period")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	started := make(chan struct{})
	var finished atomic.Bool
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(started)
		<-r.Context().Done() // a query that only stops when cancelled
		time.Sleep(50 * time.Millisecond)
		finished.Store(true)
	})
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- ServeListener(ctx, ln, h, nil, nil) }()
	go http.Get("http://" + ln.Addr().String() + "/slow")
	select {
	case <-started:
	case <-time.After(10 * time.Second):
		t.Fatal("request never reached the handler")
	}
	cancel()
	select {
	case <-served:
		if !finished.Load() {
			t.Error("ServeListener returned while a handler was still running")
		}
	case <-time.After(20 * time.Second):
		t.Fatal("ServeListener did not return")
	}
}
