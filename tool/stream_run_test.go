package tool_test

import (
	"context"
	"testing"

	"github.com/hands-dev/hands/tool"
)

// TestStreamRunKeepsTheConcurrencyRule: a call made with Run (on a kept
// worker) is queued in the stream like any other: a safe call submitted
// while an unsafe Run call runs waits for it, and Run's result is the
// call's.
func TestStreamRunKeepsTheConcurrencyRule(t *testing.T) {
	release := make(chan struct{})
	started := make(chan string, 10)
	write := reportingEcho("write", false, started, release)
	fast := reportingEcho("fast", true, started, nil)
	rec := &recorder{}
	e := &tool.Executor{Registry: tool.NewRegistry(write, fast), Observe: rec.observe}
	s := e.Stream(context.Background(), nil)
	w := call("write", `{"text":"w"}`)
	got := make(chan tool.Result)
	go func() { got <- s.Run(context.Background(), w) }()
	if x := <-started; x != "w" {
		t.Fatalf("first started %s", x)
	}
	// The unsafe call is running, so it is queued: the safe call after
	// it waits for its end.
	f := call("fast", `{"text":"f"}`)
	waitF := s.Go(context.Background(), f)
	select {
	case x := <-started:
		t.Fatalf("%s started while the unsafe Run call ran", x)
	default:
	}
	close(release)
	if r := <-got; r.IsError || r.TextOf() != "w" || r.CallID != w.ID || r.Tool != "write" {
		t.Errorf("Run's result: %+v", r)
	}
	if r := waitF(); r.TextOf() != "f" {
		t.Errorf("the safe call's result: %+v", r)
	}
	ev := rec.list()
	if index(ev, "start:"+f.ID) < index(ev, "end:"+w.ID) {
		t.Errorf("the safe call started before the unsafe Run call ended: %v", ev)
	}
	// Run gives what Go and its wait give, calls that fail included.
	for _, c := range []tool.Call{call("fast", `{"text":"x"}`), call("fast", `{"text":"invalid"}`), call("fast", `{"text":7}`), call("none", `{}`)} {
		a, b := s.Run(context.Background(), c), s.Go(context.Background(), c)()
		a.Duration, b.Duration = 0, 0
		if a.TextOf() != b.TextOf() || a.IsError != b.IsError || a.Code != b.Code || a.CallID != b.CallID {
			t.Errorf("%s: Run gave %+v, Go %+v", c.ID, a, b)
		}
	}
}
