package isolate

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hands-dev/hands/internal/sandbox/confine"
)

// runIn runs script with bash through iso, as package jobs would, and
// returns its combined output and exit code.
func runIn(t *testing.T, iso *Isolator, dir, script string) (string, int) {
	t.Helper()
	out, ws := runStatus(t, iso, dir, script)
	if ws.Signaled() {
		return out, 128 + int(ws.Signal())
	}
	return out, ws.ExitStatus()
}

// runStatus runs script with bash through iso, as package jobs would, and
// returns its combined output and the wait status of bash itself, which
// the helper passes on.
func runStatus(t *testing.T, iso *Isolator, dir, script string) (string, syscall.WaitStatus) {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	cmd := exec.Command(bash, "-c", script)
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGKILL}
	status, err := iso.Wrap(cmd)
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.CombinedOutput()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatal(err)
	}
	ws, ok := status.Status()
	if !ok {
		t.Fatalf("the helper passed on no status (its own: %v); output:\n%s", cmd.ProcessState, out)
	}
	return string(out), ws
}

// The status of the command itself comes through the helper unchanged:
// its exit code, or the signal that ended it, which the helper's own exit
// code (128 plus the number, as PID 1 cannot die of it) would not tell
// apart from an exit with that code. The command leads its own process
// group, as it does outside.
func TestIsolateStatusPassesThrough(t *testing.T) {
	root, tmp := t.TempDir(), t.TempDir()
	iso := New(Config{Roots: []string{root}, TempDir: tmp, Grace: time.Second})
	available(t, iso)
	for script, want := range map[string]string{
		"exit 3":        "exit status 3",
		"exit 143":      "exit status 143",
		"kill -TERM $$": "signal: terminated",
		"kill -KILL $$": "signal: killed",
		"kill -SEGV $$": "signal: segmentation fault",
	} {
		_, ws := runStatus(t, iso, root, script)
		var got string
		if ws.Signaled() {
			got = "signal: " + ws.Signal().String()
		} else {
			got = fmt.Sprintf("exit status %d", ws.ExitStatus())
		}
		if got != want {
			t.Errorf("%s: %s, want %s", script, got, want)
		}
	}
	out, ws := runStatus(t, iso, root, `read -r _ _ _ _ pgid _ < /proc/$$/stat; echo "$$ $pgid"`)
	f := strings.Fields(out)
	if len(f) != 2 || f[0] != f[1] || ws.ExitStatus() != 0 {
		t.Errorf("the command's pid and process group (want equal): %q, %v", out, ws)
	}
}

func available(t *testing.T, iso *Isolator) {
	t.Helper()
	if r := iso.Probe(); !r.Namespaces {
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
		Landlock: &confine.Policy{Roots: []string{root}, TempDir: tmp, Scoped: true}, Grace: time.Second})
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

// SIGTERM sent to the helper's process group from outside, as package jobs
// ends a command on its timeout, reaches the command through the helper,
// and the command's status says SIGTERM ended it.
func TestIsolateForwardsSIGTERM(t *testing.T) {
	root, tmp := t.TempDir(), t.TempDir()
	iso := New(Config{Roots: []string{root}, TempDir: tmp, Grace: time.Second})
	available(t, iso)
	cmd := exec.Command("/bin/sh", "-c", "echo ready; sleep 30")
	cmd.Dir = root
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGKILL}
	status, err := iso.Wrap(cmd)
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if line != "ready\n" {
		t.Fatalf("read %q, %v", line, err)
	}
	<-status.Ready()
	syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
	cmd.Wait()
	ws, ok := status.Status()
	if !ok || !ws.Signaled() || ws.Signal() != syscall.SIGTERM {
		t.Errorf("status %v (passed on: %v), want ended by SIGTERM; the helper's own: %v", ws, ok, cmd.ProcessState)
	}
}

// A SIGTERM sent as soon as the helper is ready, before the command has
// started, is not lost: the command starts and dies of it, as a shell
// signalled right after its start would.
func TestIsolateEarlySIGTERM(t *testing.T) {
	root, tmp := t.TempDir(), t.TempDir()
	iso := New(Config{Roots: []string{root}, TempDir: tmp, Grace: time.Second})
	available(t, iso)
	cmd := exec.Command("/bin/sh", "-c", "sleep 30")
	cmd.Dir = root
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGKILL}
	status, err := iso.Wrap(cmd)
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	<-status.Ready()
	syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
	cmd.Wait()
	ws, ok := status.Status()
	if !ok || !ws.Signaled() || ws.Signal() != syscall.SIGTERM {
		t.Errorf("status %v (passed on: %v), want ended by SIGTERM; the helper's own: %v", ws, ok, cmd.ProcessState)
	}
}
