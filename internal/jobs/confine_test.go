package jobs

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hands-dev/hands/internal/sandbox/confine"
)

// confined returns a Manager whose commands run under Landlock, writable
// only in its working directory and its temp dir, and that directory.
func confined(tb testing.TB, cfg Config) (*Manager, string) {
	tb.Helper()
	root, tmp := tb.TempDir(), tb.TempDir()
	c := confine.New(confine.Policy{Roots: []string{root}, TempDir: tmp})
	if !c.Enforced() {
		tb.Skipf("Landlock not enforced: %s", c.Report().Reason)
	}
	cfg.TempDir, cfg.Confine = tmp, c.RestrictThread
	m, err := NewManager(cfg, root, "")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { m.Close() })
	return m, root
}

func TestConfinedCommands(t *testing.T) {
	m, root := confined(t, Config{})
	outside := t.TempDir()

	out := run(t, m, "echo x > "+outside+"/f")
	if out.ExitCode == 0 || !strings.Contains(out.Stderr.Head, "Permission denied") {
		t.Errorf("write outside the roots: exit %d, %q", out.ExitCode, out.Stderr.Head)
	}
	if _, err := os.Stat(filepath.Join(outside, "f")); !os.IsNotExist(err) {
		t.Errorf("the file outside exists: %v", err)
	}
	out = run(t, m, "mkdir sub && echo inside > sub/f && cd sub && cat f && echo t > $TMPDIR/t && cat $TMPDIR/t && echo > /dev/null")
	if out.ExitCode != 0 || out.Merged.Head != "inside\nt\n" || out.Cwd != filepath.Join(root, "sub") {
		t.Errorf("inside: exit %d, %q, cwd %q", out.ExitCode, out.Merged.Head, out.Cwd)
	}
	id, err := m.Start("echo x > "+outside+"/g", 0)
	if err != nil {
		t.Fatal(err)
	}
	if jo, _ := m.Output(context.Background(), id, true, 0); jo.ExitCode == 0 {
		t.Errorf("background write outside: %+v", jo)
	}

	// The server is not confined, on any thread.
	for i := range 8 {
		p := filepath.Join(outside, "server", string(rune('a'+i)))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("ok"), 0o644); err != nil {
			t.Fatalf("the test process lost its rights: %v", err)
		}
		if b, err := exec.Command("bash", "-c", "echo x > "+p+".sh").CombinedOutput(); err != nil {
			t.Fatalf("an unconfined command lost its rights: %v %s", err, b)
		}
	}
}

// BenchmarkRunOverhead compares Run("true") with a bare exec of bash -c
// true, interleaved so both see the same machine; ratio is Run's time over
// the bare exec's.
func BenchmarkRunOverhead(b *testing.B) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		b.Skip("no bash")
	}
	for _, name := range []string{"unconfined", "confined"} {
		b.Run(name, func(b *testing.B) {
			var m *Manager
			if name == "confined" {
				m, _ = confined(b, Config{})
			} else {
				m = newManager(b, Config{})
			}
			var bare, ours time.Duration
			n := 0
			for b.Loop() {
				t0 := time.Now()
				if err := exec.Command(bash, "-c", "true").Run(); err != nil {
					b.Fatal(err)
				}
				t1 := time.Now()
				if out, err := m.Run(context.Background(), "true", 0); err != nil || out.ExitCode != 0 {
					b.Fatal(out, err)
				}
				ours += time.Since(t1)
				bare += t1.Sub(t0)
				n++
			}
			b.ReportMetric(float64(ours)/float64(bare), "ratio")
			b.ReportMetric(float64(bare.Microseconds())/float64(n), "bare-µs/op")
			b.ReportMetric(float64(ours.Microseconds())/float64(n), "run-µs/op")
		})
	}
}
