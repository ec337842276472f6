package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/hands-dev/hands/tool"
	"golang.org/x/term"
)

// indicatorAfter is how long a call runs before hands call shows its
// progress line; indicatorEvery how often the line is redrawn.
const (
	indicatorAfter = time.Second
	indicatorEvery = 250 * time.Millisecond
)

// indicator is hands call's one-line progress display on a terminal: once
// the call has run for indicatorAfter it shows the tool, the elapsed time
// and the call's latest progress (the last line of output, or what a
// search has done), redrawn in place with carriage returns, and it is
// erased when the call ends. It writes no escape sequences, and nothing
// it draws comes raw from a command: control characters are shown
// escaped.
type indicator struct {
	w     io.Writer
	width int
	name  string
	start time.Time
	quit  chan struct{}
	done  chan struct{}

	mu     sync.Mutex
	detail string
	drawn  int // characters on the line now
}

// terminalWidth returns the width of w when w is a terminal.
func terminalWidth(w io.Writer) (int, bool) {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return 0, false
	}
	width, _, err := term.GetSize(int(f.Fd()))
	if err != nil || width <= 0 {
		width = 80
	}
	return width, true
}

// startIndicator starts the progress line of a call of the tool name on
// stderr, and returns ctx carrying its progress callback. It shows
// nothing, and returns nil, unless stderr is a terminal.
func startIndicator(ctx context.Context, stderr io.Writer, name string) (context.Context, *indicator) {
	width, ok := terminalWidth(stderr)
	if !ok {
		return ctx, nil
	}
	ind := &indicator{w: stderr, width: width, name: name, start: time.Now(), quit: make(chan struct{}), done: make(chan struct{})}
	go ind.loop()
	return tool.WithProgress(ctx, ind.report), ind
}

// report takes in a progress report of the call.
func (ind *indicator) report(p tool.Progress) {
	detail := p.Line
	if detail == "" && (p.Files > 0 || p.Matches > 0) {
		detail = fmt.Sprintf("%d searched, %d matches", p.Files, p.Matches)
	}
	ind.mu.Lock()
	ind.detail = detail
	ind.mu.Unlock()
}

func (ind *indicator) loop() {
	defer close(ind.done)
	t := time.NewTimer(indicatorAfter)
	defer t.Stop()
	for {
		select {
		case <-ind.quit:
			return
		case <-t.C:
			ind.draw()
			t.Reset(indicatorEvery)
		}
	}
}

// line is the text of the progress line, at most width-1 characters so
// that the terminal never wraps it.
func (ind *indicator) line() string {
	ind.mu.Lock()
	detail := ind.detail
	ind.mu.Unlock()
	s := fmt.Sprintf("%s %.1fs", ind.name, time.Since(ind.start).Seconds())
	if detail != "" {
		s += " " + detail
	}
	return clip(printable(s), ind.width-1)
}

func (ind *indicator) draw() {
	s := ind.line()
	n := len([]rune(s))
	ind.mu.Lock()
	defer ind.mu.Unlock()
	pad := strings.Repeat(" ", max(ind.drawn-n, 0))
	fmt.Fprintf(ind.w, "\r%s%s", s, pad)
	ind.drawn = n
}

// finish stops the display and erases the line, if one was drawn.
func (ind *indicator) finish() {
	if ind == nil {
		return
	}
	close(ind.quit)
	<-ind.done
	ind.mu.Lock()
	defer ind.mu.Unlock()
	if ind.drawn > 0 {
		fmt.Fprintf(ind.w, "\r%s\r", strings.Repeat(" ", ind.drawn))
		ind.drawn = 0
	}
}

// printable shows control characters (escape included: a command's
// output must not drive the user's terminal) as \xNN, and tabs as spaces.
func printable(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\t':
			b.WriteByte(' ')
		case unicode.IsControl(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// clip cuts s to n characters, the last one "…" when it cut.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	if n <= 0 {
		return ""
	}
	return string(r[:n-1]) + "…"
}
