package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/creack/pty"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// slowCommand prints a line every 0.15 s for over a second, then a line
// that tries to drive the terminal (colour, and a window title).
const slowCommand = `for i in 1 2 3 4 5 6 7 8; do echo line$i; sleep 0.15; done; printf '\033]0;pwned\007\033[31mred\n'; sleep 0.6`

// callOnPTY runs hands call with stderr on a pseudo-terminal cols wide
// and returns what the terminal received and what went to stdout.
func callOnPTY(t *testing.T, cols uint16, args ...string) (term, stdout string) {
	t.Helper()
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer ptmx.Close()
	if err := pty.Setsize(ptmx, &pty.Winsize{Cols: cols, Rows: 24}); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	cmd := exec.Command(binary, append([]string{"call"}, args...)...)
	cmd.Stdout, cmd.Stderr = &out, tty
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	tty.Close()
	got := make(chan []byte)
	go func() {
		b, _ := io.ReadAll(ptmx) // ends with EIO once the child has gone
		got <- b
	}()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("hands call: %v (stdout %q)", err, out.String())
	}
	return string(<-got), out.String()
}

// TestCallProgressLineOnATerminal: on a terminal, a call past one second
// shows one line (tool, elapsed time, last line of output) redrawn in
// place, within the terminal's width, with the command's control
// characters escaped, and erased at the end; stdout has the result alone.
func TestCallProgressLineOnATerminal(t *testing.T) {
	root := workspace(t)
	term, stdout := callOnPTY(t, 60, "--root", root, "bash", `{"command":`+quote(slowCommand)+`}`)
	t.Logf("terminal: %q", term)
	if strings.Contains(stdout, "\r") || !strings.HasSuffix(stdout, "red\n\n[exit code: 0]\n") {
		t.Errorf("stdout %q", stdout)
	}
	if strings.ContainsRune(term, 0x1b) || strings.ContainsRune(term, 0x07) || strings.Contains(term, "\n") {
		t.Errorf("the terminal got a control character or a new line: %q", term)
	}
	frames := strings.Split(term, "\r")
	if len(frames) < 4 || frames[0] != "" {
		t.Fatalf("terminal output %q: want several frames drawn with carriage returns", term)
	}
	last := frames[len(frames)-1]
	if erase := frames[len(frames)-2]; last != "" || strings.Trim(erase, " ") != "" || len(erase) < len("bash 1.0s line1") {
		t.Errorf("the line was not erased at the end: %q", term)
	}
	frameRE := regexp.MustCompile(`^bash (\d+)\.\ds(?: (.*))? *$`)
	sawLine, sawEscaped := false, false
	for _, f := range frames[1 : len(frames)-2] {
		if n := utf8.RuneCountInString(f); n > 59 {
			t.Errorf("frame of %d characters on a 60-column terminal: %q", n, f)
		}
		m := frameRE.FindStringSubmatch(f)
		if m == nil {
			t.Errorf("frame %q", f)
			continue
		}
		if m[1] == "0" {
			t.Errorf("frame %q drawn before one second", f)
		}
		detail := strings.TrimRight(m[2], " ")
		sawLine = sawLine || regexp.MustCompile(`^line[1-8]$`).MatchString(detail)
		sawEscaped = sawEscaped || strings.Contains(detail, `\x1b]0;pwned\x07\x1b[31mred`)
	}
	if !sawLine || !sawEscaped {
		t.Errorf("frames show no output line (%v) or not the escaped one (%v): %q", sawLine, sawEscaped, term)
	}
}

// TestCallProgressNeverOnAPipe: with stderr a pipe, or for a call under a
// second, nothing is drawn.
func TestCallProgressNeverOnAPipe(t *testing.T) {
	root := workspace(t)
	cmd := exec.Command(binary, "call", "--root", root, "bash", `{"command":`+quote(slowCommand)+`}`)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	if stderr.Len() != 0 || strings.Contains(stdout.String(), "\r") {
		t.Errorf("on a pipe: stderr %q, stdout %q", stderr.String(), stdout.String())
	}
	term, out := callOnPTY(t, 80, "--root", root, "bash", `{"command":"echo quick"}`)
	if term != "" || out != "quick\n\n[exit code: 0]\n" {
		t.Errorf("a quick call drew %q (stdout %q)", term, out)
	}
}

// quote returns s as a JSON string.
func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestServeSendsProgress: hands serve over its real stdin and stdout sends
// a command's progress to a go-sdk client that gave a progress token, the
// last notification last.
func TestServeSendsProgress(t *testing.T) {
	root := workspace(t)
	notes := make(chan *mcp.ProgressNotificationParams, 100)
	client := mcp.NewClient(&mcp.Implementation{Name: "progress-test", Version: "1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) { notes <- req.Params },
	})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var stderr bytes.Buffer
	cmd := exec.Command(binary, "serve", "--root", root)
	cmd.Stderr = &stderr
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v (stderr %s)", err, stderr.String())
	}
	defer cs.Close()
	params := &mcp.CallToolParams{Name: "bash", Arguments: map[string]any{"command": `for i in 1 2 3 4 5 6; do echo step$i; sleep 0.15; done`}}
	params.SetProgressToken(42)
	if res, err := cs.CallTool(ctx, params); err != nil || res.IsError {
		t.Fatalf("call: %v %+v", err, res)
	}
	var got []string
	for {
		select {
		case p := <-notes:
			got = append(got, p.Message)
			if p.ProgressToken != float64(42) {
				t.Errorf("token %v (%T), want 42", p.ProgressToken, p.ProgressToken)
			}
			if p.Total == 0 {
				continue
			}
			if len(got) < 2 || !regexp.MustCompile(`^exit code 0 after \d+\.\ds: step6$`).MatchString(p.Message) {
				t.Errorf("notifications %q", got)
			}
			return
		case <-ctx.Done():
			t.Fatalf("no last notification; got %q (stderr %s)", got, stderr.String())
		}
	}
}

// FuzzProgressLine: whatever a command prints, the progress line holds no
// control character (no escape sequence reaches the terminal) and fits
// the width.
func FuzzProgressLine(f *testing.F) {
	f.Add("line\x1b]0;title\x07\t\r\n\u0085é", 20)
	f.Fuzz(func(t *testing.T, s string, n int) {
		n = n%200 + 1
		if n < 1 {
			n += 200
		}
		got := clip(printable(s), n)
		if c := utf8.RuneCountInString(got); c > n {
			t.Fatalf("%d characters, width %d", c, n)
		}
		for _, r := range got {
			if r < 0x20 || r >= 0x7f && r < 0xa0 {
				t.Fatalf("control character %q in %q", r, got)
			}
		}
	})
}
