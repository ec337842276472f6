package mcpserver_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hands-dev/hands"
	"github.com/hands-dev/hands/mcpserver"
	"github.com/hands-dev/hands/tool"
)

// servePipes runs ServeIO over real pipes for a runtime made from opts
// (its root a temporary directory): stdin to write, stdout to read, and
// ServeIO's result.
func servePipes(t *testing.T, opts hands.Options) (root string, stdin *os.File, stdout *os.File, done <-chan error) {
	t.Helper()
	root, _ = filepath.EvalSymlinks(t.TempDir())
	stdin, stdout, done = servePipesIn(t, root, opts)
	return root, stdin, stdout, done
}

// servePipesIn is servePipes over the directory root.
func servePipesIn(t *testing.T, root string, opts hands.Options) (stdin *os.File, stdout *os.File, done <-chan error) {
	t.Helper()
	srv := serverIn(t, root, opts)
	inR, inW, _ := os.Pipe()
	outR, outW, _ := os.Pipe()
	errc := make(chan error, 1)
	go func() { errc <- srv.ServeIO(context.Background(), inR, outW); outW.Close() }()
	return inW, outR, errc
}

// serverIn returns a server of a runtime made from opts over the
// directory root, closed at the end of the test.
func serverIn(t *testing.T, root string, opts hands.Options) *mcpserver.Server {
	t.Helper()
	opts.Roots = []string{root}
	rt, err := hands.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close() })
	srv := mcpserver.New(rt, mcpserver.Options{})
	t.Cleanup(func() { srv.Close() })
	return srv
}

// TestStdinEOFAnswersACallWaitingOnTheClient closes stdin while a call
// waits for the client's answer to an elicitation: no answer can come, so
// the call is answered as refused and ServeIO returns instead of hanging.
func TestStdinEOFAnswersACallWaitingOnTheClient(t *testing.T) {
	root, inW, outR, done := servePipes(t, hands.Options{Policy: tool.PolicyFunc(
		func(context.Context, tool.Info, tool.Call, any) (tool.Decision, string) {
			return tool.Ask, "asking"
		})})
	for _, line := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{"elicitation":{}},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"create_file","arguments":{"path":"x.txt","content":"x"}}}`,
	} {
		inW.WriteString(line + "\n")
	}
	inW.Close()
	var asked, answered bool
	sc := bufio.NewScanner(outR)
	for sc.Scan() {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("stdout line %q", sc.Text())
		}
		asked = asked || m.Method == "elicitation/create"
		if string(m.ID) == "2" {
			answered = true
			if !strings.Contains(string(m.Result)+string(m.Error), "closed its input") {
				t.Errorf("the call's reply does not say why: %s %s", m.Result, m.Error)
			}
		}
	}
	if err := <-done; err != nil {
		t.Errorf("ServeIO: %v", err)
	}
	if !asked || !answered {
		t.Errorf("asked %v, answered %v", asked, answered)
	}
	if _, err := os.Stat(filepath.Join(root, "x.txt")); err == nil {
		t.Error("the unanswered call wrote its file")
	}
}

// TestStdioDuplicateIDAndCancelledCall sends a second request with the id
// of one still running (refused, the first still answered), cancels another
// running call and closes stdin: the server answers the first request and
// ends, without waiting for a reply the client no longer wants.
func TestStdioDuplicateIDAndCancelledCall(t *testing.T) {
	started, ended := make(chan string, 4), make(chan string, 4)
	release := make(chan struct{})
	_, inW, outR, done := servePipes(t, hands.Options{Tools: testTools(started, ended, release)})
	out := bufio.NewReader(outR)
	send := func(s string) { inW.WriteString(s + "\n") }
	recv := func() map[string]any {
		line, err := out.ReadBytes('\n')
		if err != nil {
			return nil
		}
		var m map[string]any
		json.Unmarshal(line, &m)
		return m
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	recv()
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"block","arguments":{"name":"a"}}}`)
	<-started
	send(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"block","arguments":{"name":"b"}}}`)
	if m := recv(); m["id"] != nil || !strings.Contains(m["error"].(map[string]any)["message"].(string), "already used") {
		t.Errorf("a duplicate id: %v", m)
	}
	send(`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"block","arguments":{"name":"c"}}}`)
	if s := <-started; s != "c" {
		t.Fatalf("started %s", s)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":6}}`)
	inW.Close()
	if got := <-ended; got != "c:cancelled" {
		t.Errorf("ended %s", got)
	}
	close(release)
	answered := false
	for m := recv(); m != nil; m = recv() {
		answered = answered || m["id"] == float64(5) && m["result"] != nil
	}
	if err := <-done; err != nil {
		t.Errorf("ServeIO: %v", err)
	}
	if !answered {
		t.Error("the first request 5 was not answered")
	}
	if got := <-ended; got != "a:released" {
		t.Errorf("ended %s", got)
	}
	select {
	case s := <-started:
		t.Errorf("the duplicate ran: %s", s)
	default:
	}
}
