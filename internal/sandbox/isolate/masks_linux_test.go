package isolate

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/hands-dev/hands/internal/sandbox/confine"
)

// A secret that does not exist when the session starts is masked from the
// first command after it appears, with the network on and no deny
// pattern (nothing but the configured masks), once however many commands
// start.
func TestSpawnerMasksSecretsThatAppear(t *testing.T) {
	root, tmp, home := t.TempDir(), t.TempDir(), t.TempDir()
	aws := filepath.Join(home, ".aws")
	iso := New(Config{Roots: []string{root}, TempDir: tmp, Mask: confine.SecretPaths(home)})
	m, _ := session(t, iso, root, tmp)
	read := "{ cat " + aws + "/credentials; echo; grep -c ' " + aws + " ' /proc/self/mountinfo; } 2>/dev/null"
	if out := run(t, m, read); out.Merged.Head != "\n0\n" {
		t.Fatalf("before: %q", out.Merged.Head)
	}
	os.Mkdir(aws, 0o700)
	if err := os.WriteFile(filepath.Join(aws, "credentials"), []byte("KEY"), 0o600); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if out := run(t, m, read); out.Merged.Head != "\n1\n" {
			t.Errorf("command %d after it appeared: %q, want nothing read and one mask", i, out.Merged.Head)
		}
	}
}

// BenchmarkMaskStep is what the mask step costs each command: the server's
// list (masks) and the spawner's pass over it when nothing new is to be
// masked (a stat each), with the default secrets, network on and off.
func BenchmarkMaskStep(b *testing.B) {
	home, _ := os.UserHomeDir()
	root, tmp := b.TempDir(), b.TempDir()
	for _, mode := range []string{"on", "off"} {
		iso := New(Config{Roots: []string{root}, TempDir: tmp, Mask: confine.SecretPaths(home), Network: Network{Mode: mode}})
		writable := iso.spec().Writable
		b.Run("list/network-"+mode, func(b *testing.B) {
			n := 0
			for b.Loop() {
				n = len(iso.masks(writable, mode != "on"))
			}
			b.ReportMetric(float64(n), "masks")
		})
		list := iso.masks(writable, mode != "on")
		b.Run("spawner-pass/network-"+mode, func(b *testing.B) {
			for b.Loop() {
				for _, p := range list {
					var st syscall.Stat_t
					syscall.Stat(p, &st)
				}
			}
		})
	}
}
