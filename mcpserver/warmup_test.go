package mcpserver

import (
	"bufio"
	"context"
	"os"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/hands-dev/hands"
	"github.com/hands-dev/hands/internal/tooltest/counted"
	"github.com/hands-dev/hands/tool"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// warmServer returns a server with the warm-up on, over a runtime whose
// tool "note" counts how often its definition is built.
func warmServer(t *testing.T) (*Server, *atomic.Int32) {
	t.Helper()
	infos := new(atomic.Int32)
	note := tool.New(tool.Spec[noteIn]{Name: "note", Description: "notes"}, func(_ context.Context, _ *tool.Env, in noteIn) (noteOut, error) {
		return noteOut(in), nil
	})
	rt, err := hands.New(hands.Options{Roots: []string{t.TempDir()}, Tools: []tool.Tool{counted.Tool{Tool: note, Infos: infos}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close() })
	s := New(rt, Options{WarmUp: true})
	t.Cleanup(func() { s.Close() })
	return s, infos
}

// Each request of the warm-up is answered without an error, and the
// warm-up leaves no session behind: no Hands session (its initialized
// notification starts none) and no SDK session.
func TestWarmUpIsAnswered(t *testing.T) {
	s, infos := warmServer(t)
	ctx := context.Background()
	for _, lines := range warmUpLines {
		if err := s.warmUp(ctx, lines); err != nil {
			t.Fatalf("warm-up %q: %v", lines[0], err)
		}
	}
	if n := infos.Load(); n != 0 {
		t.Errorf("the warm-up built the tool's definition %d times, want none", n)
	}
	if n := warmed(s); n != len(warmUpLines) {
		t.Errorf("%d warm-up sessions answered, want %d", n, len(warmUpLines))
	}
	if n := startedSessions(s); n != 0 {
		t.Errorf("the warm-up started %d Hands sessions, want none", n)
	}
	for ss := range s.mcp.Sessions() {
		t.Errorf("the warm-up left the SDK session %v", ss)
	}
	if s.isWarmUp(nil) {
		t.Error("a nil session counts as the warm-up's")
	}
}

// With nothing written yet, ServeIO warms up while it waits; a client
// coming after finds the server as it would without: its first list
// builds each definition once and tells it of no change, and its
// initialized notification starts its Hands session.
func TestServeIOWarmsUpWhileItWaits(t *testing.T) {
	s, infos := warmServer(t)
	ctx := context.Background()
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer inR.Close()
	defer inW.Close()
	if inputPending(inR) {
		t.Fatal("an empty pipe has input pending")
	}
	s.startWarmUp(ctx)()
	if n := warmed(s); n != len(warmUpLines) {
		t.Fatalf("%d warm-up sessions answered, want %d", n, len(warmUpLines))
	}

	var changed atomic.Int32
	// A client of protocol 2025-06-18, as the clients of today are: its
	// initialized notification starts its Hands session.
	cs := connectTo(t, s, &mcp.ClientOptions{ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed.Add(1) }},
		&mcp.ClientSessionOptions{ProtocolVersion: "2025-06-18"})
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, d := range list.Tools {
		found = found || d.Name == "note"
	}
	if !found {
		t.Fatalf("tools/list after the warm-up lacks note: %d tools", len(list.Tools))
	}
	if n := infos.Load(); n != 1 {
		t.Errorf("the client's list built the definition %d times, want once", n)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "note", Arguments: map[string]any{"text": "hi"}})
	if err != nil || res.IsError {
		t.Fatalf("calling the tool: %v %+v", err, res)
	}
	checkOneClient(t, s, &changed)
}

// When the client has written already, its own requests are under way and
// ServeIO does not warm up.
func TestWarmUpYieldsToAClientThatSpoke(t *testing.T) {
	s, _ := warmServer(t)
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer inR.Close()
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer outR.Close()
	if _, err := inW.WriteString(warmUpLines[1][0] + "\n"); err != nil {
		t.Fatal(err)
	}
	if !inputPending(inR) {
		t.Fatal("a pipe with a line in it has no input pending")
	}
	done := make(chan error, 1)
	go func() { done <- s.ServeIO(context.Background(), inR, outW); outW.Close() }()
	if _, err := bufio.NewReader(outR).ReadString('\n'); err != nil {
		t.Fatal(err)
	}
	inW.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if n := warmed(s); n != 0 {
		t.Errorf("the warm-up ran though the client had spoken: %d sessions", n)
	}
}

// WarmUpTools lists the tools once, as a client's first list would, and
// leaves no session; a client's list then builds nothing again and hears
// of no change. Once the tools were offered it does nothing.
func TestWarmUpToolsListsThemOnce(t *testing.T) {
	s, infos := warmServer(t)
	ctx := context.Background()
	s.WarmUpTools(ctx)
	if n := infos.Load(); n != 1 {
		t.Fatalf("WarmUpTools built the tool's definition %d times, want once", n)
	}
	if n := warmed(s); n != 1 {
		t.Fatalf("%d warm-up sessions answered, want 1", n)
	}
	var changed atomic.Int32
	cs := connectTo(t, s, &mcp.ClientOptions{ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed.Add(1) }},
		&mcp.ClientSessionOptions{ProtocolVersion: "2025-06-18"})
	if _, err := cs.ListTools(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if n := infos.Load(); n != 1 {
		t.Errorf("after WarmUpTools a client's list built the definition again: %d builds", n)
	}
	s.WarmUpTools(ctx)
	if n := warmed(s); n != 1 {
		t.Errorf("WarmUpTools ran again once the tools were offered: %d sessions", n)
	}
	checkOneClient(t, s, &changed)
}

// startedSessions returns how many Hands sessions s started.
func startedSessions(s *Server) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.started
}

// checkOneClient checks that the one client of s heard no list_changed
// and that one Hands session was started, its own.
func checkOneClient(t *testing.T, s *Server, changed *atomic.Int32) {
	t.Helper()
	if n := changed.Load(); n != 0 {
		t.Errorf("the client heard %d list_changed for the warm-up's offer", n)
	}
	if n := startedSessions(s); n != 1 {
		t.Errorf("%d Hands sessions started for one client, want 1", n)
	}
}

// warmed returns how many warm-up sessions s answered.
func warmed(s *Server) int {
	s.warmMu.Lock()
	defer s.warmMu.Unlock()
	return s.warmed
}

// Warm-ups that overlap (the one at start, and WarmUpTools once the probe
// is done) each keep their session a warm-up's: none of their initialized
// notifications starts a Hands session.
func TestOverlappingWarmUpsStartNoSession(t *testing.T) {
	s, _ := warmServer(t)
	ctx := context.Background()
	var wg sync.WaitGroup
	for range 8 {
		for _, lines := range append(warmUpLines, warmUpToolsLines) {
			wg.Go(func() {
				if err := s.warmUp(ctx, lines); err != nil {
					t.Errorf("warm-up %q: %v", lines[0], err)
				}
			})
		}
	}
	wg.Wait()
	if n := startedSessions(s); n != 0 {
		t.Errorf("overlapping warm-ups started %d Hands sessions, want none", n)
	}
}
