//go:build linux && (amd64 || arm64 || riscv64 || loong64)

package confine

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// runConfined runs script with bash from a thread restricted by c, the way
// package jobs does, and returns its combined output and error.
func runConfined(t *testing.T, c *Confiner, script string) (string, error) {
	t.Helper()
	type result struct {
		out []byte
		err error
	}
	ch := make(chan result, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: the restricted thread ends with this goroutine
		if err := c.RestrictThread(); err != nil {
			ch <- result{nil, err}
			return
		}
		out, err := exec.Command("bash", "-c", script).CombinedOutput()
		ch <- result{out, err}
	}()
	r := <-ch
	return string(r.out), r.err
}

func enforced(t *testing.T, p Policy) *Confiner {
	t.Helper()
	c := New(p)
	if !c.Enforced() {
		t.Skipf("Landlock not enforced here: %s", c.Report().Reason)
	}
	return c
}

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestLandlockWrites(t *testing.T) {
	root, tmp, outside := t.TempDir(), t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(outside, "existing"), "readable\n")
	c := enforced(t, Policy{Roots: []string{root}, TempDir: tmp})

	ok := []string{
		"echo x > " + root + "/f && cat " + root + "/f",
		"mkdir -p " + root + "/d/e && mv " + root + "/f " + root + "/d/e/g && ln -s g " + root + "/d/e/l && rm -r " + root + "/d",
		"echo x > " + root + "/t && : > " + root + "/t && mv " + root + "/t " + tmp + "/t",
		"echo x > " + tmp + "/f && rm " + tmp + "/f",
		"echo x > /dev/null && head -c 4 /dev/urandom | wc -c && head -c 4 /dev/zero > /dev/null",
		"echo to-stderr > /dev/stderr && echo to-stdout > /dev/stdout",
		"cat " + outside + "/existing && ls / > /dev/null && cat /etc/passwd > /dev/null",
	}
	for _, s := range ok {
		if out, err := runConfined(t, c, s); err != nil {
			t.Errorf("confined %q failed: %v\n%s", s, err, out)
		}
	}
	denied := []string{
		"echo x > " + outside + "/new",
		"rm " + outside + "/existing",
		"mkdir " + outside + "/dir",
		"mv " + root + " " + outside + "/moved",
		": > " + outside + "/existing",
		"echo x > /tmp/hands-confine-test-" + filepath.Base(outside),
	}
	for _, s := range denied {
		out, err := runConfined(t, c, s)
		if err == nil || !strings.Contains(out, "denied") {
			t.Errorf("confined %q: err %v, output %q; want permission denied", s, err, out)
		}
	}
	if b, err := os.ReadFile(filepath.Join(outside, "existing")); err != nil || string(b) != "readable\n" {
		t.Errorf("file outside the roots changed: %q, %v", b, err)
	}

	// The test process itself, on any of its threads, is not confined.
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Go(func() {
			p := filepath.Join(outside, "after", strings.Repeat("x", i+1))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Error(err)
			}
			if err := os.WriteFile(p, []byte("ok"), 0o644); err != nil {
				t.Errorf("the test process cannot write outside the roots any more: %v", err)
			}
			if out, err := exec.Command("bash", "-c", "echo x > "+p+".sh").CombinedOutput(); err != nil {
				t.Errorf("an unconfined command cannot write outside the roots: %v %s", err, out)
			}
		})
	}
	wg.Wait()
}

func TestLandlockDenyRead(t *testing.T) {
	root, tmp, base := t.TempDir(), t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(base, "secret", "key"), "s3cr3t\n")
	writeFile(t, filepath.Join(base, "secret", "sub", "deeper"), "s3cr3t\n")
	writeFile(t, filepath.Join(base, "public", "file"), "public\n")
	writeFile(t, filepath.Join(base, "public", "token"), "s3cr3t\n")
	writeFile(t, filepath.Join(base, "top.txt"), "public\n")
	writeFile(t, filepath.Join(root, ".env"), "IN_ROOT=1\n")
	c := enforced(t, Policy{
		Roots:   []string{root},
		TempDir: tmp,
		DenyRead: []string{
			filepath.Join(base, "secret"),
			filepath.Join(base, "public", "tok*"),
			filepath.Join(base, "not-there-yet"),
			filepath.Join(root, ".env"),
			".env",
			"**/*.pem",
		},
	})
	r := c.Report()
	if len(r.DenyRead) != 3 {
		t.Errorf("DenyRead = %q, want the secret dir, the token and the missing path", r.DenyRead)
	}
	if len(r.NotEnforced) != 3 {
		t.Errorf("NotEnforced = %q, want the .env in the root and the two patterns", r.NotEnforced)
	}

	for _, s := range []string{
		"cat " + base + "/secret/key",
		"cat " + base + "/secret/sub/deeper",
		"cat " + base + "/public/token",
	} {
		out, err := runConfined(t, c, s)
		if err == nil || strings.Contains(out, "s3cr3t") {
			t.Errorf("confined %q read a denied file: %v %q", s, err, out)
		}
	}
	for _, s := range []string{
		"cat " + base + "/public/file " + base + "/top.txt",
		"ls " + base + "/secret", // listing stays allowed
		"cat " + root + "/.env",  // inside a root: reported, not enforced
		"echo new > " + root + "/new && cat " + root + "/new",
	} {
		if out, err := runConfined(t, c, s); err != nil {
			t.Errorf("confined %q failed: %v\n%s", s, err, out)
		}
	}
}

func TestDisabled(t *testing.T) {
	outside := t.TempDir()
	c := New(Policy{Disabled: true, Roots: []string{t.TempDir()}})
	r := c.Report()
	if r.Enforced || r.Enabled || !strings.Contains(r.String(), "off") {
		t.Fatalf("disabled policy reports %+v", r)
	}
	if out, err := runConfined(t, c, "echo x > "+outside+"/f"); err != nil {
		t.Fatalf("unconfined write failed: %v %s", err, out)
	}
}

func TestStatus(t *testing.T) {
	root := t.TempDir()
	r := Status(Policy{Roots: []string{root, filepath.Join(root, "missing")}, TempDir: t.TempDir(), DenyRead: []string{"/nonexistent/secret"}})
	if !r.Enforced {
		t.Skipf("Landlock not enforced here: %s", r.Reason)
	}
	if r.ABI < 1 || len(r.Write) != 2 || len(r.Devices) == 0 {
		t.Errorf("Status = %+v", r)
	}
	s := r.String()
	for _, want := range []string{"Landlock ABI", "write: " + r.Write[0], "except /nonexistent/secret", "skipped"} {
		if !strings.Contains(s, want) {
			t.Errorf("Status text lacks %q:\n%s", want, s)
		}
	}
}

// BenchmarkRuleset measures building the ruleset a command is confined
// with, which happens once per command: with no deny list (one read rule
// on /) and with the usual secrets under $HOME denied (carving).
func BenchmarkRuleset(b *testing.B) {
	home, _ := os.UserHomeDir()
	for _, tc := range []struct {
		name string
		deny []string
	}{{"plain", nil}, {"secrets", SecretPaths(home)}} {
		b.Run(tc.name, func(b *testing.B) {
			c := New(Policy{Roots: []string{b.TempDir()}, TempDir: b.TempDir(), DenyRead: tc.deny})
			if !c.Enforced() {
				b.Skip(c.Report().Reason)
			}
			for b.Loop() {
				if rs, ok := c.Ruleset(); !ok || len(rs.Rules) == 0 {
					b.Fatal("no ruleset")
				}
			}
		})
	}
}
