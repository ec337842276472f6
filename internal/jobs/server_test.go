//go:build linux

package jobs

import (
	"bufio"
	"errors"
	"os/exec"
	"strings"
	"syscall"
	"testing"
)

// startEcho starts a server that leaves a sleep in its group, says ready
// and echoes its stdin.
func startEcho(t *testing.T, m *Manager, mk string) (*Server, *bufio.Reader) {
	t.Helper()
	s, err := m.StartServer([]string{"sh", "-c", "sleep " + mk + " & echo ready; exec cat"}, t.TempDir(), []string{"HANDS_TEST_X=1"})
	if err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(s.Stdout())
	if line, err := r.ReadString('\n'); err != nil || line != "ready\n" {
		t.Fatalf("server said %q, %v", line, err)
	}
	running(t, "sleep "+mk, 1)
	return s, r
}

// TestServerTalksAndKillEndsItsGroup: a server answers over its pipes, and
// Kill ends it and what it started.
func TestServerTalksAndKillEndsItsGroup(t *testing.T) {
	m := newManager(t, Config{})
	mk := marker()
	s, r := startEcho(t, m, mk)
	if _, err := s.Stdin().Write([]byte("ping\n")); err != nil {
		t.Fatal(err)
	}
	if line, err := r.ReadString('\n'); err != nil || line != "ping\n" {
		t.Fatalf("echo: %q, %v", line, err)
	}
	if s.ExitStatus() != "" {
		t.Errorf("a running server has exit status %q", s.ExitStatus())
	}
	s.Kill()
	<-s.Done()
	gone(t, mk)
	if s.ExitStatus() == "" {
		t.Error("no exit status after Kill")
	}
	s.Kill() // harmless again
}

// TestServerCrashTakesItsGroup: when the server itself dies (SIGKILL to it
// alone), what it started is killed too and Done says so.
func TestServerCrashTakesItsGroup(t *testing.T) {
	m := newManager(t, Config{})
	mk := marker()
	s, _ := startEcho(t, m, mk)
	if err := syscall.Kill(s.Pid(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-s.Done()
	gone(t, mk)
	if got := s.ExitStatus(); got != "signal SIGKILL" {
		t.Errorf("exit status %q, want signal SIGKILL", got)
	}
}

// TestServerEndsWithTheManager: Close kills running servers; a server
// cannot start after it.
func TestServerEndsWithTheManager(t *testing.T) {
	m := newManager(t, Config{})
	mk := marker()
	s, _ := startEcho(t, m, mk)
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	<-s.Done()
	gone(t, mk)
	if _, err := m.StartServer([]string{"cat"}, t.TempDir(), nil); !errors.Is(err, ErrClosed) {
		t.Errorf("StartServer after Close: %v, want ErrClosed", err)
	}
}

// TestServerMissingAndStderr: a program not on PATH is exec.ErrNotFound;
// a server that fails leaves its last words and exit status.
func TestServerMissingAndStderr(t *testing.T) {
	m := newManager(t, Config{})
	if _, err := m.StartServer([]string{"no-such-server-h6"}, t.TempDir(), nil); !errors.Is(err, exec.ErrNotFound) {
		t.Errorf("missing program: %v", err)
	}
	s, err := m.StartServer([]string{"sh", "-c", "echo \"$HANDS_TEST_X\" oops >&2; exit 3"}, t.TempDir(), []string{"HANDS_TEST_X=said"})
	if err != nil {
		t.Fatal(err)
	}
	<-s.Done()
	if got := strings.TrimSpace(s.Stderr()); got != "said oops" {
		t.Errorf("stderr %q", got)
	}
	if got := s.ExitStatus(); got != "exit status 3" {
		t.Errorf("exit status %q", got)
	}
}
