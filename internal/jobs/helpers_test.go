package jobs

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestMain(m *testing.M) {
	if os.Getenv("HANDS_JOBS_HELPER") != "" {
		helperMain()
		return
	}
	os.Exit(m.Run())
}

// newManager returns a Manager working in a new directory, closed at the
// end of the test.
func newManager(t testing.TB, cfg Config) *Manager {
	t.Helper()
	if cfg.TempDir == "" {
		cfg.TempDir = t.TempDir()
	}
	if cfg.Grace == 0 {
		cfg.Grace = 500 * time.Millisecond
	}
	m, err := NewManager(cfg, t.TempDir(), "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := m.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return m
}

func run(t testing.TB, m *Manager, command string) *Output {
	t.Helper()
	out, err := m.Run(context.Background(), command, 20*time.Second)
	if err != nil {
		t.Fatalf("Run(%q): %v", command, err)
	}
	return out
}

var markerSeq atomic.Int64

// marker returns a number of seconds for sleep that no other process has
// on its command line, so the test can find its processes in /proc.
func marker() string {
	return fmt.Sprintf("%d%d.%04d", 7000+os.Getpid()%1000, markerSeq.Add(1), time.Now().Nanosecond()%10000)
}

// pidsWith returns the processes whose command line holds s. Zombies have
// an empty command line and do not count.
func pidsWith(s string) []int {
	return pidsWhose("cmdline", func(b []byte) bool { return bytes.Contains(b, []byte(s)) })
}

// pidsWhose returns the processes but this one whose /proc/PID/file
// match says yes to.
func pidsWhose(file string, match func([]byte) bool) []int {
	var pids []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), file))
		if err == nil && match(b) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// eventually polls cond until it holds or the deadline passes.
func eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting: %s", what)
		}
		time.Sleep(5 * time.Millisecond) // polling a real condition
	}
}

// gone fails the test unless no process with marker s remains, allowing
// a moment for the kernel to finish killing them.
func gone(t testing.TB, s string) {
	t.Helper()
	eventually(t, "no process with "+s+" left", func() bool { return len(pidsWith(s)) == 0 })
}

// running waits until at least n processes with marker s run; a marker
// starting with "sleep " counts only the sleep processes themselves, not
// the shells whose command text holds it.
func running(t testing.TB, s string, n int) {
	t.Helper()
	if rest, ok := strings.CutPrefix(s, "sleep "); ok {
		s = "sleep\x00" + rest + "\x00"
	}
	eventually(t, fmt.Sprintf("%d processes with %q", n, s), func() bool { return len(pidsWith(s)) >= n })
}

// helperMain is a server stand-in: it starts a background job whose
// grandchildren carry the marker in HANDS_JOBS_HELPER, runs a command (so
// a warm shell waits), says "ready" and waits to be killed.
func helperMain() {
	mk := os.Getenv("HANDS_JOBS_HELPER")
	dir := os.Getenv("HANDS_JOBS_HELPER_DIR")
	m, err := NewManager(Config{TempDir: filepath.Join(dir, "tmp")}, dir, "")
	if err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	if _, err := m.Start("sleep "+mk+" & sleep "+mk+" & wait", 0); err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	if _, err := m.Start("sleep "+mk, 0); err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	// A command that ended leaves a warm shell waiting for the next.
	if _, err := m.Run(context.Background(), "true", time.Minute); err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	go func() {
		m.Run(context.Background(), "sleep "+mk+" & sleep "+mk, time.Hour)
	}()
	fmt.Println("ready")
	select {}
}
