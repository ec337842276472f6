package mcpserver

import (
	"bufio"
	"context"
	"io"
	"os"
	"testing"
	"time"

	"github.com/hands-dev/hands"
)

// prepareServer returns a server whose Prepare reports each run (with
// whether it had a Hands session) on the returned channel.
func prepareServer(t *testing.T) (*Server, chan bool) {
	t.Helper()
	rt, err := hands.New(hands.Options{Roots: []string{t.TempDir()}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close() })
	ran := make(chan bool, 4)
	s := New(rt, Options{WarmUp: true, Prepare: func(_ context.Context, hs *hands.Session) { ran <- hs != nil }})
	t.Cleanup(func() { s.Close() })
	return s, ran
}

// serveLines serves s over pipes; the lines are written before ServeIO
// starts, as by a client started with the server.
func serveLines(t *testing.T, s *Server, lines ...string) (in io.WriteCloser, out *bufio.Reader, done <-chan error) {
	t.Helper()
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { inR.Close(); inW.Close(); outR.Close() })
	for _, l := range lines {
		inW.WriteString(l + "\n")
	}
	d := make(chan error, 1)
	go func() { d <- s.ServeIO(context.Background(), inR, outW); outW.Close() }()
	return inW, bufio.NewReader(outR), d
}

const (
	initLine        = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`
	initializedLine = `{"jsonrpc":"2.0","method":"notifications/initialized","params":{}}`
	listLine        = `{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}`
)

// A client that had written at start gets its tools before Prepare runs;
// Prepare then runs once, with the client's Hands session.
func TestPrepareWaitsForTheClientsTools(t *testing.T) {
	s, ran := prepareServer(t)
	in, out, done := serveLines(t, s, initLine, initializedLine)
	if _, err := out.ReadString('\n'); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ran:
		t.Fatal("Prepare ran before the client had its tools")
	default:
	}
	io.WriteString(in, listLine+"\n")
	if _, err := out.ReadString('\n'); err != nil {
		t.Fatal(err)
	}
	if withSession := <-ran; !withSession {
		t.Error("Prepare ran without the client's Hands session")
	}
	io.WriteString(in, `{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{}}`+"\n")
	out.ReadString('\n')
	in.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	select {
	case <-ran:
		t.Error("Prepare ran twice")
	default:
	}
	if n := warmed(s); n != 0 {
		t.Errorf("the warm-up ran though the client had written: %d sessions", n)
	}
}

// With no client yet, Prepare runs at once, with no session; for a client
// that lists no tools, it runs after prepareMax.
func TestPrepareRunsAtOnceOrAfterAWhile(t *testing.T) {
	s, ran := prepareServer(t)
	in, _, done := serveLines(t, s)
	if withSession := <-ran; withSession {
		t.Error("Prepare at start had a session")
	}
	in.Close()
	<-done

	s2, ran2 := prepareServer(t)
	in2, out2, done2 := serveLines(t, s2, initLine, initializedLine)
	out2.ReadString('\n')
	start := time.Now()
	if withSession := <-ran2; !withSession {
		t.Error("Prepare after a while had not the one client's session")
	}
	if waited := time.Since(start); waited < prepareMax/2 {
		t.Errorf("Prepare ran %v after initialize, before the client had its tools", waited)
	}
	in2.Close()
	<-done2
}
