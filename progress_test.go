package hands_test

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/hands-dev/hands"
	"github.com/hands-dev/hands/tool"
)

// progressLog collects progress reports from any goroutine.
type progressLog struct {
	mu  sync.Mutex
	got []tool.Progress
}

func (l *progressLog) add(p tool.Progress) {
	l.mu.Lock()
	l.got = append(l.got, p)
	l.mu.Unlock()
}

func (l *progressLog) all() []tool.Progress {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]tool.Progress(nil), l.got...)
}

// printer prints line1 … lineN, one every 0.15 s: it runs for over a
// second, long enough for several reports.
const printer = `for i in 1 2 3 4 5 6 7 8; do echo line$i; sleep 0.15; done`

// checkCommandReports checks the reports of a call of printer: some while
// it ran, each showing a line it had printed by then (in order), then
// exactly one last report, Done, showing the last line and the exit code.
func checkCommandReports(t *testing.T, got []tool.Progress, callID, name string) {
	t.Helper()
	if len(got) < 2 {
		t.Fatalf("%d reports, want some while the command ran and one at its end: %+v", len(got), got)
	}
	lineRE := regexp.MustCompile(`^line([1-8])$`)
	prev := 0
	for i, p := range got {
		if p.CallID != callID || p.Tool != name {
			t.Errorf("report %d names call %q of %q, want %q of %q", i, p.CallID, p.Tool, callID, name)
		}
		if i > 0 && p.Elapsed < got[i-1].Elapsed {
			t.Errorf("report %d went back in time: %s after %s", i, p.Elapsed, got[i-1].Elapsed)
		}
		if p.Done != (i == len(got)-1) {
			t.Errorf("report %d of %d: Done %v", i, len(got), p.Done)
		}
		if p.Line == "" {
			continue
		}
		m := lineRE.FindStringSubmatch(p.Line)
		if m == nil {
			t.Errorf("report %d shows %q, not a line the command printed", i, p.Line)
			continue
		}
		n, _ := strconv.Atoi(m[1])
		if n < prev {
			t.Errorf("report %d shows line%d after line%d", i, n, prev)
		}
		prev = n
		if !strings.HasSuffix(p.Message, ": "+p.Line) {
			t.Errorf("report %d: message %q does not end with the line %q", i, p.Message, p.Line)
		}
	}
	last := got[len(got)-1]
	if last.Line != "line8" || !regexp.MustCompile(`^exit code 0 after \d+\.\ds: line8$`).MatchString(last.Message) {
		t.Errorf("last report: line %q, message %q", last.Line, last.Message)
	}
}

// TestLibraryProgressCallback: a Go host sees a long command's progress
// through Options.Progress, the same reports the MCP server sends.
func TestLibraryProgressCallback(t *testing.T) {
	var log progressLog
	sess, _ := optionsSession(t, hands.Options{Progress: log.add})
	res := sess.Call(context.Background(), tool.Call{ID: "c1", Name: "bash", Input: json.RawMessage(fmt.Sprintf(`{"command":%q}`, printer))})
	if res.IsError {
		t.Fatal(res.TextOf())
	}
	checkCommandReports(t, log.all(), "c1", "bash")

	// A quick call that is no command sends nothing.
	before := len(log.all())
	if res := call(sess, "view", `{"path":"."}`); res.IsError {
		t.Fatal(res.TextOf())
	}
	if n := len(log.all()); n != before {
		t.Errorf("view sent %d reports", n-before)
	}
}

// TestWithProgressOverridesTheOptions: a call under tool.WithProgress
// reports to its own callback, and to no other.
func TestWithProgressOverridesTheOptions(t *testing.T) {
	var shared, own progressLog
	sess, _ := optionsSession(t, hands.Options{Profile: "claude", Progress: shared.add})
	ctx := tool.WithProgress(context.Background(), own.add)
	res := sess.Call(ctx, tool.Call{ID: "mine", Name: "Bash", Input: json.RawMessage(fmt.Sprintf(`{"command":%q}`, printer))})
	if res.IsError {
		t.Fatal(res.TextOf())
	}
	checkCommandReports(t, own.all(), "mine", "Bash")
	if n := len(shared.all()); n != 0 {
		t.Errorf("Options.Progress got %d reports of a call that had its own callback", n)
	}
}

// TestCancelledCallReportsNoMore: once a call is cancelled its reports
// stop: none after Call returns, and no last report.
func TestCancelledCallReportsNoMore(t *testing.T) {
	first := make(chan struct{})
	var once sync.Once
	var log progressLog
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ctx = tool.WithProgress(ctx, func(p tool.Progress) {
		log.add(p)
		once.Do(func() { close(first) })
	})
	sess, _ := optionsSession(t, hands.Options{})
	done := make(chan tool.Result)
	go func() {
		done <- sess.Call(ctx, tool.Call{Name: "bash", Input: json.RawMessage(`{"command":"while :; do echo tick; sleep 0.05; done"}`)})
	}()
	<-first
	cancel()
	res := <-done
	if res.Code != tool.Canceled {
		t.Fatalf("result %s: %s", res.Code, res.TextOf())
	}
	after := log.all()
	for _, p := range after {
		if p.Done {
			t.Errorf("a cancelled call sent a last report: %+v", p)
		}
	}
	// Call has returned: the next call runs and ends, and nothing more of
	// the cancelled one arrives.
	if res := call(sess, "bash", `{"command":"true"}`); res.IsError {
		t.Fatal(res.TextOf())
	}
	if n := len(log.all()); n != len(after) {
		t.Errorf("%d reports after the cancelled call returned", n-len(after))
	}
}

// BenchmarkBashProgress is the cost of a quick command with and without
// a progress callback: what reporting adds to a call that ends before
// its first report.
func BenchmarkBashProgress(b *testing.B) {
	for _, with := range []bool{false, true} {
		b.Run(fmt.Sprintf("callback=%v", with), func(b *testing.B) {
			rt := benchRuntime(b)
			sess, _ := rt.NewSession()
			defer sess.Close()
			ctx := context.Background()
			if with {
				ctx = tool.WithProgress(ctx, func(tool.Progress) {})
			}
			call := tool.Call{Name: "bash", Input: json.RawMessage(`{"command":"true"}`)}
			b.ReportAllocs()
			for b.Loop() {
				if res := sess.Call(ctx, call); res.IsError {
					b.Fatal(res.TextOf())
				}
			}
		})
	}
}
