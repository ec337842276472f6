package jobs

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func sh(script string) Command {
	return Command{Path: "/bin/sh", Args: []string{"sh", "-c", script}, Grace: 500 * time.Millisecond}
}

func TestExecCapturesStdinStdoutStderrAndStatus(t *testing.T) {
	c := sh(`cat; echo oops >&2; exit 3`)
	c.Stdin = []byte("hello\n")
	c.Dir = t.TempDir()
	res, err := Exec(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	if string(res.Stdout) != "hello\n" || string(res.Stderr) != "oops\n" || res.ExitCode != 3 || res.TimedOut || res.Canceled || res.Signal != "" {
		t.Errorf("got %+v", res)
	}
}

// TestExecKeepsBothEndsOfAHugeStream checks that a stream far past twice
// the window keeps its ends, within bounds, not all of it.
func TestExecKeepsBothEndsOfAHugeStream(t *testing.T) {
	res, err := Exec(context.Background(), sh(`printf start; head -c 5000000 /dev/zero; printf end`))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(res.Stdout); n < 2*execWindow || n > 3*execWindow || !strings.HasPrefix(string(res.Stdout), "start") || !strings.HasSuffix(string(res.Stdout), "end") {
		t.Errorf("kept %d bytes, want 2 to 3 MiB holding both ends", n)
	}
}

// TestExecTimeoutKillsTheWholeGroup runs a shell that waits for a child
// it started past the timeout: both are killed and nothing is left.
func TestExecTimeoutKillsTheWholeGroup(t *testing.T) {
	mk := marker()
	pidFile := filepath.Join(t.TempDir(), "pid")
	// The timer starts with the command; a slow machine may fire it before
	// the child is forked, which would prove nothing, so the timeout grows
	// until the child is seen to have started.
	for timeout := 200 * time.Millisecond; ; timeout *= 2 {
		c := sh(`sleep ` + mk + ` & echo $! > ` + pidFile + `; wait`)
		c.Timeout = timeout
		res, err := Exec(context.Background(), c)
		if err != nil {
			t.Fatal(err)
		}
		if !res.TimedOut || res.Signal == "" {
			t.Fatalf("got %+v, want a timeout ending the shell by a signal", res)
		}
		gone(t, mk)
		if b, _ := os.ReadFile(pidFile); len(b) > 0 {
			return
		}
		if timeout > 10*time.Second {
			t.Fatal("the child never started")
		}
	}
}

// TestExecKillsWhatTheCommandLeftBehind: a command that exits leaving a
// process in its group, its output not even on the pipes, ends it too.
func TestExecKillsWhatTheCommandLeftBehind(t *testing.T) {
	mk := marker()
	res, err := Exec(context.Background(), sh(`sleep `+mk+` >/dev/null 2>&1 & echo started`))
	if err != nil {
		t.Fatal(err)
	}
	if string(res.Stdout) != "started\n" || res.ExitCode != 0 {
		t.Errorf("got %+v", res)
	}
	gone(t, mk)
}

func TestExecCancelKillsTheWholeGroup(t *testing.T) {
	mk := marker()
	ctx, cancel := context.WithCancel(context.Background())
	type ret struct {
		res *Result
		err error
	}
	done := make(chan ret, 1)
	go func() {
		res, err := Exec(ctx, sh(`sleep `+mk+` & wait`))
		done <- ret{res, err}
	}()
	running(t, "sleep "+mk, 1)
	cancel()
	r := <-done
	if !errors.Is(r.err, context.Canceled) || r.res == nil || !r.res.Canceled {
		t.Errorf("got %+v, %v; want Canceled and ctx's error", r.res, r.err)
	}
	gone(t, mk)
}

func TestExecRefusesWhatCannotStart(t *testing.T) {
	for _, c := range []Command{
		{Path: "/nonexistent/program", Args: []string{"program"}},
		{Path: "/bin/sh", Args: []string{"sh", "-c", "true"}, Dir: "/nonexistent/dir"},
	} {
		if res, err := Exec(context.Background(), c); err == nil || res != nil {
			t.Errorf("%+v: got %+v, %v; want an error and no result", c, res, err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if res, err := Exec(ctx, sh("true")); !errors.Is(err, context.Canceled) || res != nil {
		t.Errorf("a cancelled context: got %+v, %v", res, err)
	}
}
