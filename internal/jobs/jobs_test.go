package jobs

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

func TestJobLifecycle(t *testing.T) {
	m := newManager(t, Config{})
	mk := marker()
	id, err := m.Start("echo start; sleep "+mk+" & wait; echo end; exit 4", 0)
	if err != nil {
		t.Fatal(err)
	}
	running(t, "sleep "+mk, 1)
	eventually(t, "first output", func() bool {
		out, err := m.Output(context.Background(), id, false, 0)
		if err != nil {
			t.Fatal(err)
		}
		if out.Status != Running || out.ExitCode != -1 || out.ID != id || out.Command == "" {
			t.Fatalf("running job: %+v", out)
		}
		if out.Output.Head != "" && out.Output.Head != "start\n" {
			t.Fatalf("output %q", out.Output.Head)
		}
		return out.Output.Head == "start\n"
	})
	// Not blocking, or blocking for a short while: still running, nothing new.
	out, err := m.Output(context.Background(), id, true, 50*time.Millisecond)
	if err != nil || out.Status != Running || out.Output.Head != "" {
		t.Fatalf("%+v %v", out, err)
	}
	// Let it finish: kill the sleep only, from outside.
	for _, pid := range pidsWith("sleep\x00" + mk + "\x00") {
		p, _ := os.FindProcess(pid)
		p.Kill()
	}
	out, err = m.Output(context.Background(), id, true, 0)
	if err != nil || out.Status != Exited || out.ExitCode != 4 || !strings.Contains(out.Output.Head, "Killed                  sleep "+mk+"\n") || !strings.Contains(out.Output.Head, "end\n") {
		t.Fatalf("finished job: %+v %v", out, err)
	}
	out, err = m.Output(context.Background(), id, true, 0)
	if err != nil || out.Status != Exited || out.Output.Head != "" || out.Output.Size != 0 {
		t.Fatalf("second read: %+v %v", out, err)
	}
	if err := m.Kill(id); !errors.Is(err, ErrNotRunning) {
		t.Errorf("Kill of a finished job: %v", err)
	}
}

func TestJobKillKillsGrandchildren(t *testing.T) {
	m := newManager(t, Config{})
	mk := marker()
	id, err := m.Start("sleep "+mk+" & (sleep "+mk+" &) ; sleep "+mk, 0)
	if err != nil {
		t.Fatal(err)
	}
	running(t, "sleep "+mk, 3)
	if err := m.Kill(id); err != nil {
		t.Fatal(err)
	}
	gone(t, mk)
	out, err := m.Output(context.Background(), id, false, 0)
	if err != nil || out.Status != Killed || out.Signal != "SIGTERM" {
		t.Errorf("%+v %v", out, err)
	}
}

func TestJobTimeout(t *testing.T) {
	m := newManager(t, Config{})
	mk := marker()
	id, err := m.Start("echo hi; sleep "+mk, time.Second) // time for a loaded machine to start bash
	if err != nil {
		t.Fatal(err)
	}
	out, err := m.Output(context.Background(), id, true, 0)
	if err != nil || out.Status != TimedOut || out.Output.Head != "hi\n" {
		t.Fatalf("%+v %v", out, err)
	}
	gone(t, mk)
}

func TestJobLimit(t *testing.T) {
	m := newManager(t, Config{MaxRunning: 2})
	mk := marker()
	a, err := m.Start("sleep "+mk, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Start("sleep "+mk, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Start("sleep "+mk, 0); !errors.Is(err, ErrLimit) {
		t.Fatalf("third job: %v, want ErrLimit", err)
	}
	if err := m.Kill(a); err != nil {
		t.Fatal(err)
	}
	// Finished jobs do not count.
	if _, err := m.Start("true", 0); err != nil {
		t.Fatalf("after a kill: %v", err)
	}
}

func TestJobNotFound(t *testing.T) {
	m := newManager(t, Config{})
	if _, err := m.Output(context.Background(), "job-42", true, 0); !errors.Is(err, ErrNotFound) {
		t.Errorf("Output: %v", err)
	}
	if err := m.Kill("job-42"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Kill: %v", err)
	}
}

func TestJobOutputSpills(t *testing.T) {
	m := newManager(t, Config{OutputLimit: 1000})
	id, err := m.Start("seq 1 100000", 0)
	if err != nil {
		t.Fatal(err)
	}
	out, err := m.Output(context.Background(), id, true, 0)
	if err != nil || out.Status != Exited {
		t.Fatal(out, err)
	}
	o := out.Output
	if !o.Truncated() || o.Size != 588895 || !strings.HasPrefix(o.Head, "1\n2\n") || !strings.HasSuffix(o.Tail, "99999\n100000\n") {
		t.Errorf("size %d head %q tail %q", o.Size, o.Head[:8], o.Tail[len(o.Tail)-13:])
	}
	if len(o.Head)+len(o.Tail) > 1000 {
		t.Errorf("text over the limit: %d", len(o.Head)+len(o.Tail))
	}
	b, err := os.ReadFile(o.Path)
	if err != nil || len(b) != 588895 {
		t.Errorf("spill file: %d bytes, %v", len(b), err)
	}
}

func TestJobCwdIsTheSessions(t *testing.T) {
	m := newManager(t, Config{})
	run(t, m, "mkdir sub && cd sub")
	id, err := m.Start("pwd; cd /", 0)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := m.Output(context.Background(), id, true, 0)
	if out.Output.Head != m.Cwd()+"\n" || !strings.HasSuffix(m.Cwd(), "/sub") {
		t.Errorf("job ran in %q; session now in %q", out.Output.Head, m.Cwd())
	}
}

func TestJobOutputContext(t *testing.T) {
	m := newManager(t, Config{})
	id, err := m.Start("sleep "+marker(), 0)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := m.Output(ctx, id, true, 0); !errors.Is(err, context.Canceled) {
		t.Errorf("Output with a canceled context: %v", err)
	}
}

// fakeJob is a job with no process, for testing Output's waiting in a
// synctest bubble.
func fakeJob(m *Manager, id string) *job {
	s := newSink(m.cfg.OutputLimit, m.cfg.FileLimit, false, false, nil)
	s.add(s.stdout, []byte("partial\n"))
	j := &job{id: id, command: "fake", sink: s, start: time.Now(), done: make(chan struct{}), status: Running, exitCode: -1}
	m.jobs[id] = j
	return j
}

func TestOutputBlockWaitsForTimeoutOrEnd(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := &Manager{cfg: Config{OutputLimit: 100, FileLimit: 1 << 20}, jobs: map[string]*job{}}
		fakeJob(m, "slow")
		start := time.Now()
		out, err := m.Output(context.Background(), "slow", true, 30*time.Second)
		if err != nil || out.Status != Running || out.Output.Head != "partial\n" {
			t.Fatalf("%+v %v", out, err)
		}
		if d := time.Since(start); d != 30*time.Second {
			t.Errorf("returned after %v, want the 30s timeout", d)
		}

		j := fakeJob(m, "quick")
		go func() {
			time.Sleep(5 * time.Second)
			j.mu.Lock()
			j.status, j.exitCode, j.end = Exited, 0, time.Now()
			j.mu.Unlock()
			close(j.done)
		}()
		start = time.Now()
		out, err = m.Output(context.Background(), "quick", true, time.Minute)
		if err != nil || out.Status != Exited || out.Duration != 5*time.Second {
			t.Fatalf("%+v %v", out, err)
		}
		if d := time.Since(start); d != 5*time.Second {
			t.Errorf("returned after %v, want when the job ended", d)
		}
	})
}

func TestJobsDieWithClose(t *testing.T) {
	m, err := NewManager(Config{Grace: 200 * time.Millisecond}, t.TempDir(), "")
	if err != nil {
		t.Fatal(err)
	}
	mk := marker()
	var ids []string
	for i := range 3 {
		// One ignores SIGTERM and gets SIGKILL.
		cmd := fmt.Sprintf("sleep %s & sleep %s", mk, mk)
		if i == 0 {
			cmd = "trap '' TERM; " + cmd
		}
		id, err := m.Start(cmd, 0)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	running(t, "sleep "+mk, 6)
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	gone(t, mk)
	if _, err := m.Output(context.Background(), ids[0], false, 0); !errors.Is(err, ErrClosed) {
		t.Errorf("Output after Close: %v", err)
	}
}

// TestJobOutputAll: Output gives what the previous read left; OutputAll
// gives everything from the start, every time.
func TestJobOutputAll(t *testing.T) {
	m := newManager(t, Config{})
	id, err := m.Start("echo one; echo two", 0)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if out, err := m.Output(ctx, id, true, 0); err != nil || out.Output.String() != "one\ntwo\n" {
		t.Fatalf("first read %q, %v", out.Output.String(), err)
	}
	if out, err := m.Output(ctx, id, true, 0); err != nil || out.Output.String() != "" {
		t.Errorf("second read %q, %v; want nothing new", out.Output.String(), err)
	}
	for range 2 {
		if out, err := m.OutputAll(ctx, id, true, 0); err != nil || out.Output.String() != "one\ntwo\n" || out.Status != Exited {
			t.Errorf("OutputAll %q %s, %v; want all of it", out.Output.String(), out.Status, err)
		}
	}
}
