package mcpserver_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/hands-dev/hands"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// notes collects the progress notifications a client receives.
type notes struct {
	mu      sync.Mutex
	got     []*mcp.ProgressNotificationParams
	changed chan struct{} // closed and replaced at each notification
}

func newNotes() *notes { return &notes{changed: make(chan struct{})} }

func (n *notes) handle(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
	n.mu.Lock()
	n.got = append(n.got, req.Params)
	close(n.changed)
	n.changed = make(chan struct{})
	n.mu.Unlock()
}

// of returns the notifications for token, in the order they came.
func (n *notes) of(token string) []*mcp.ProgressNotificationParams {
	n.mu.Lock()
	defer n.mu.Unlock()
	var out []*mcp.ProgressNotificationParams
	for _, p := range n.got {
		if p.ProgressToken == token {
			out = append(out, p)
		}
	}
	return out
}

func (n *notes) all() []*mcp.ProgressNotificationParams {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]*mcp.ProgressNotificationParams(nil), n.got...)
}

// waitFor waits until cond holds of the notifications received.
func (n *notes) waitFor(t *testing.T, what string, cond func([]*mcp.ProgressNotificationParams) bool) {
	t.Helper()
	deadline := time.After(60 * time.Second)
	for {
		n.mu.Lock()
		ok, ch := cond(n.got), n.changed
		n.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-ch:
		case <-deadline:
			t.Fatalf("no %s within a minute; got %s", what, dump(n.all()))
		}
	}
}

// waitLast waits for the last notification of token: the one whose total
// is set.
func (n *notes) waitLast(t *testing.T, token string) []*mcp.ProgressNotificationParams {
	t.Helper()
	n.waitFor(t, "last notification for "+token, func(ps []*mcp.ProgressNotificationParams) bool {
		for _, p := range ps {
			if p.ProgressToken == token && p.Total > 0 {
				return true
			}
		}
		return false
	})
	return n.of(token)
}

func dump(ps []*mcp.ProgressNotificationParams) string {
	s := ""
	for _, p := range ps {
		s += fmt.Sprintf("\n  %v %.3f/%.3f %q", p.ProgressToken, p.Progress, p.Total, p.Message)
	}
	return s
}

// transports are the two ways a client reaches the server in these tests:
// newline-delimited JSON over real pipes, and Streamable HTTP.
var transports = []string{"stdio", "http"}

// progressClient serves a runtime over root through the transport kind
// and connects a go-sdk client that records progress notifications.
func progressClient(t *testing.T, kind, root string, opts hands.Options) (*mcp.ClientSession, *notes) {
	t.Helper()
	var transport mcp.Transport
	switch kind {
	case "stdio":
		stdin, stdout, done := servePipesIn(t, root, opts)
		t.Cleanup(func() { stdin.Close(); <-done; stdout.Close() })
		transport = &mcp.IOTransport{Reader: stdout, Writer: stdin}
	case "http":
		ts := httptest.NewServer(serverIn(t, root, opts).HTTPHandler())
		t.Cleanup(ts.Close)
		transport = &mcp.StreamableClientTransport{Endpoint: ts.URL}
	}
	n := newNotes()
	client := mcp.NewClient(&mcp.Implementation{Name: "progress-test", Version: "1"}, &mcp.ClientOptions{ProgressNotificationHandler: n.handle})
	cs, err := client.Connect(context.Background(), transport, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs, n
}

// callWith calls a tool, with a progress token unless token is "".
func callWith(ctx context.Context, cs *mcp.ClientSession, token, name string, args map[string]any) (*mcp.CallToolResult, error) {
	params := &mcp.CallToolParams{Name: name, Arguments: args}
	if token != "" {
		params.SetProgressToken(token)
	}
	return cs.CallTool(ctx, params)
}

func mustCall(t *testing.T, cs *mcp.ClientSession, token, name string, args map[string]any) string {
	t.Helper()
	res, err := callWith(context.Background(), cs, token, name, args)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if res.IsError {
		t.Fatalf("%s: %s", name, text(res))
	}
	return text(res)
}

// checkOrder checks what every token's notifications must be: progress
// strictly increasing, and exactly one with total, the last, whose total
// is its progress.
func checkOrder(t *testing.T, ps []*mcp.ProgressNotificationParams) {
	t.Helper()
	t.Logf("notifications:%s", dump(ps))
	for i, p := range ps {
		if i > 0 && p.Progress <= ps[i-1].Progress {
			t.Errorf("notification %d: progress %v after %v, not increasing%s", i, p.Progress, ps[i-1].Progress, dump(ps))
		}
		last := i == len(ps)-1
		if (p.Total > 0) != last || last && p.Total != p.Progress {
			t.Errorf("notification %d of %d: total %v%s", i, len(ps), p.Total, dump(ps))
		}
	}
}

// checkSequence checks the messages: each but the last matches running,
// whose first group is a number that never decreases; the last matches
// last.
func checkSequence(t *testing.T, ps []*mcp.ProgressNotificationParams, running, last *regexp.Regexp) {
	t.Helper()
	prev := 0
	for i, p := range ps[:len(ps)-1] {
		m := running.FindStringSubmatch(p.Message)
		if m == nil {
			t.Errorf("notification %d: message %q does not match %s", i, p.Message, running)
			continue
		}
		if len(m) > 1 && m[1] != "" {
			n, _ := strconv.Atoi(m[1])
			if n < prev {
				t.Errorf("notification %d: %d after %d%s", i, n, prev, dump(ps))
			}
			prev = n
		}
	}
	if m := ps[len(ps)-1].Message; !last.MatchString(m) {
		t.Errorf("last message %q does not match %s", m, last)
	}
}

const printer = `for i in 1 2 3 4 5 6 7 8; do echo line$i; sleep 0.15; done`

// TestBashProgressOverMCP: a command that prints as it runs, called with
// a progress token, sends notifications with the elapsed time and its
// last line so far, in order, and one when it ends; called without a
// token it sends none.
func TestBashProgressOverMCP(t *testing.T) {
	for _, kind := range transports {
		t.Run(kind, func(t *testing.T) {
			root, _ := filepath.EvalSymlinks(t.TempDir())
			cs, n := progressClient(t, kind, root, hands.Options{})
			out := mustCall(t, cs, "bash-1", "bash", map[string]any{"command": printer})
			if want := "line8\n\n[exit code: 0]"; out[len(out)-len(want):] != want {
				t.Errorf("result %q", out)
			}
			ps := n.waitLast(t, "bash-1")
			if len(ps) < 2 {
				t.Fatalf("%d notifications for a command of over a second%s", len(ps), dump(ps))
			}
			checkOrder(t, ps)
			checkSequence(t, ps, regexp.MustCompile(`^\d+\.\ds(?:: line([1-8]))?$`), regexp.MustCompile(`^exit code 0 after \d+\.\ds: line8$`))

			// Without a token: the same command, and nothing extra.
			mustCall(t, cs, "", "bash", map[string]any{"command": printer})
			mustCall(t, cs, "sync", "bash", map[string]any{"command": "touch synced"})
			n.waitLast(t, "sync")
			for _, p := range n.all() {
				if p.ProgressToken != "bash-1" && p.ProgressToken != "sync" {
					t.Errorf("a notification for token %v, which no request gave", p.ProgressToken)
				}
			}
		})
	}
}

// TestSearchProgressOverMCP: grep and glob over a generated tree of 20,000
// files report the files searched and the matches found so far, in
// order, and their totals at the end.
func TestSearchProgressOverMCP(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	for d := range 100 {
		dir := filepath.Join(root, fmt.Sprintf("d%03d", d))
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for f := range 200 {
			body := "nothing here\n"
			if f%100 == 7 {
				body = "a needle here\n"
			}
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%03d.txt", f)), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, kind := range transports {
		t.Run(kind, func(t *testing.T) {
			// A delay of a nanosecond: every search reports, however
			// quick this machine is (the 500 ms default is the
			// reporter's own test).
			cs, n := progressClient(t, kind, root, hands.Options{Limits: hands.Limits{SearchProgressAfter: time.Nanosecond}})
			mustCall(t, cs, "grep", "grep", map[string]any{"pattern": "needle"})
			ps := n.waitLast(t, "grep")
			checkOrder(t, ps)
			checkSequence(t, ps, regexp.MustCompile(`^searched (\d+) files so far, \d+ matches \(\d+\.\ds\)$`), regexp.MustCompile(`^searched 20000 files, 200 matches in \d+\.\ds$`))

			mustCall(t, cs, "glob", "glob", map[string]any{"pattern": "**/f007.txt"})
			ps = n.waitLast(t, "glob")
			checkOrder(t, ps)
			checkSequence(t, ps, regexp.MustCompile(`^searched (\d+) entries so far, \d+ matches \(\d+\.\ds\)$`), regexp.MustCompile(`^searched 20000 entries, 100 matches in \d+\.\ds$`))
		})
	}
}

// TestTaskOutputProgressOverMCP: task_output with block reports the
// job's last line while it waits, and how the job ended.
func TestTaskOutputProgressOverMCP(t *testing.T) {
	for _, kind := range transports {
		t.Run(kind, func(t *testing.T) {
			root, _ := filepath.EvalSymlinks(t.TempDir())
			cs, n := progressClient(t, kind, root, hands.Options{})
			res, err := callWith(context.Background(), cs, "", "bash", map[string]any{"command": printer, "run_in_background": true})
			if err != nil || res.IsError {
				t.Fatalf("start: %v %s", err, text(res))
			}
			id := res.StructuredContent.(map[string]any)["task_id"].(string)
			mustCall(t, cs, "wait", "task_output", map[string]any{"task_id": id, "block": true})
			ps := n.waitLast(t, "wait")
			checkOrder(t, ps)
			q := regexp.QuoteMeta(id)
			checkSequence(t, ps, regexp.MustCompile(`^waiting for `+q+` \(\d+\.\ds\)(?:: line([1-8]))?$`), regexp.MustCompile(`^`+q+` exited with code 0 after waiting \d+\.\ds: line8$`))
		})
	}
}

// TestCancelStopsProgressOverMCP: a call cancelled mid-stream sends no
// last notification and nothing once it has ended.
func TestCancelStopsProgressOverMCP(t *testing.T) {
	for _, kind := range transports {
		t.Run(kind, func(t *testing.T) {
			root, _ := filepath.EvalSymlinks(t.TempDir())
			cs, n := progressClient(t, kind, root, hands.Options{})
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			errc := make(chan error, 1)
			go func() {
				_, err := callWith(ctx, cs, "loop", "bash", map[string]any{"command": "while :; do echo tick; sleep 0.05; done"})
				errc <- err
			}()
			n.waitFor(t, "first notification", func(ps []*mcp.ProgressNotificationParams) bool {
				for _, p := range ps {
					if p.ProgressToken == "loop" {
						return true
					}
				}
				return false
			})
			cancel()
			if err := <-errc; err == nil {
				t.Fatal("the cancelled call returned no error")
			}
			// A call that changes something runs after the cancelled one
			// has ended; its last notification comes after any of the
			// cancelled call's.
			mustCall(t, cs, "after", "bash", map[string]any{"command": "touch after"})
			n.waitLast(t, "after")
			ps := n.of("loop")
			for _, p := range ps {
				if p.Total > 0 || p.Message == "" || p.Message[0] < '0' || p.Message[0] > '9' {
					t.Errorf("the cancelled call sent %q (total %v)", p.Message, p.Total)
				}
			}
			// Nothing more comes for it: a second synchronising call.
			mustCall(t, cs, "after2", "bash", map[string]any{"command": "touch after2"})
			n.waitLast(t, "after2")
			if got := len(n.of("loop")); got != len(ps) {
				t.Errorf("%d notifications of the cancelled call after it ended", got-len(ps))
			}
		})
	}
}
