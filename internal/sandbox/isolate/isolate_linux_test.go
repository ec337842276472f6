package isolate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hands-dev/hands/internal/sandbox/confine"
)

// runIn runs script with bash through a spawner of iso, in a session of
// its own started in dir, and returns its combined output and exit code.
func runIn(t *testing.T, iso *Isolator, dir, script string) (string, int) {
	t.Helper()
	m, _ := session(t, iso, dir, iso.cfg.TempDir)
	out := run(t, m, script+" 2>&1")
	return out.Merged.Head, out.ExitCode
}

func available(t *testing.T, iso *Isolator) {
	t.Helper()
	sp := iso.NewSpawner()
	defer sp.Close()
	if r := sp.Probe(); !r.Namespaces {
		t.Skipf("namespaces not available here: %s", r.Reason)
	}
}

// A command in the namespaces writes the roots, reads masked secrets as
// empty, sees only its own processes and cannot change anything outside.
func TestIsolateBasics(t *testing.T) {
	root, tmp, home := t.TempDir(), t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(root, "a"), []byte("in root\n"), 0o644)
	os.MkdirAll(filepath.Join(home, ".ssh"), 0o700)
	os.WriteFile(filepath.Join(home, ".ssh", "id"), []byte("KEY\n"), 0o600)
	os.WriteFile(filepath.Join(home, ".netrc"), []byte("PASS\n"), 0o600)
	os.WriteFile(filepath.Join(home, "plain"), []byte("plain\n"), 0o644)
	before, _ := os.Stat(filepath.Join(home, "plain"))
	iso := New(Config{Roots: []string{root}, TempDir: tmp, Mask: []string{filepath.Join(home, ".ssh"), filepath.Join(home, ".netrc")},
		Landlock: &confine.Policy{Roots: []string{root}, TempDir: tmp, Scoped: true}})
	available(t, iso)
	out, code := runIn(t, iso, root, "cat a; echo x > b; cat b; echo ssh:$(ls -A "+home+"/.ssh | wc -l); cat "+home+"/.netrc; echo pids:$(ls /proc | grep -c '^[0-9]'); cat "+home+"/plain; echo x > "+tmp+"/t; touch "+home+"/plain; chmod 600 "+home+"/plain")
	want := []string{"in root\nx\nssh:0\n", "plain\n", "Read-only file system"}
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
	if strings.Contains(out, "KEY") || strings.Contains(out, "PASS") {
		t.Errorf("a masked secret was read:\n%s", out)
	}
	if code == 0 {
		t.Errorf("chmod outside succeeded")
	}
	after, _ := os.Stat(filepath.Join(home, "plain"))
	if after.Mode() != before.Mode() || !after.ModTime().Equal(before.ModTime()) {
		t.Errorf("a file outside changed: %v %v -> %v %v", before.Mode(), before.ModTime(), after.Mode(), after.ModTime())
	}
	if b, err := os.ReadFile(filepath.Join(root, "b")); err != nil || string(b) != "x\n" {
		t.Errorf("write in the root: %q %v", b, err)
	}
	if b, err := os.ReadFile(filepath.Join(tmp, "t")); err != nil || string(b) != "x\n" {
		t.Errorf("write in the temp dir: %q %v", b, err)
	}
}

func TestParseNetwork(t *testing.T) {
	for _, ok := range []string{"", "on", "off", "allow=example.com", "allow=*.golang.org, github.com"} {
		if _, err := ParseNetwork(ok); err != nil {
			t.Errorf("ParseNetwork(%q): %v", ok, err)
		}
	}
	for _, bad := range []string{"maybe", "allow=", "allow=,", "allow=http://x.com", "allow=*", "allow=a.com:443", "allow=.com"} {
		if _, err := ParseNetwork(bad); err == nil {
			t.Errorf("ParseNetwork(%q) accepted", bad)
		}
	}
	allow := []string{"example.com", "*.golang.org"}
	for host, want := range map[string]bool{"example.com": true, "EXAMPLE.com.": true, "a.example.com": false, "go.golang.org": true, "golang.org": false, "evil-golang.org": false} {
		if Allowed(allow, host) != want {
			t.Errorf("Allowed(%q) = %v", host, !want)
		}
	}
}
