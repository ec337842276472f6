package jobs

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

func TestRunWithDirDoesNotMoveTheWorkingDirectory(t *testing.T) {
	m := newManager(t, Config{MergeStreams: true})
	before := m.Cwd()
	other, _ := filepath.EvalSymlinks(t.TempDir())
	out, err := m.RunWith(context.Background(), "pwd; cd /", 0, Options{Dir: other})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(out.Merged.String()); got != other {
		t.Errorf("ran in %q, want %q", got, other)
	}
	if m.Cwd() != before || out.Cwd != before {
		t.Errorf("working directory moved to %q (out %q), want %q", m.Cwd(), out.Cwd, before)
	}
	if _, err := m.RunWith(context.Background(), "true", 0, Options{Dir: filepath.Join(other, "missing")}); err == nil {
		t.Error("a missing directory was accepted")
	}
}

func TestUnconfinedSkipsTheConfineHook(t *testing.T) {
	calls := 0
	// No warm shell: its start would call the hook too, after the
	// unconfined command.
	m := newManager(t, Config{NoWarm: true, Confine: func() error { calls++; return errors.New("confinement refused") }})
	if _, err := m.Run(context.Background(), "true", 0); err == nil {
		t.Error("a failing confinement did not stop the command")
	}
	out, err := m.RunWith(context.Background(), "echo free", 0, Options{Unconfined: true})
	if err != nil || !strings.Contains(out.Merged.String(), "free") {
		t.Errorf("unconfined run: %v %+v", err, out)
	}
	if calls != 1 {
		t.Errorf("confine hook called %d times, want 1", calls)
	}
	id, err := m.StartWith("echo bg", 0, Options{Unconfined: true})
	if err != nil {
		t.Fatal(err)
	}
	res, err := m.Output(context.Background(), id, true, 0)
	if err != nil || !strings.Contains(res.Output.String(), "bg") {
		t.Errorf("unconfined job: %v %+v", err, res)
	}
}
