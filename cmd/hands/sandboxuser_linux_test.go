//go:build linux

package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// asOrdinaryUser returns a command running argv[0] (a copy of the hands
// binary any user may run) as nobody when the tests run as root, and as
// the tests' own user otherwise: most servers are run by an ordinary user,
// for whom an exec in a new user namespace keeps no capability.
func asOrdinaryUser(t *testing.T, argv ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	if os.Getuid() != 0 {
		return cmd
	}
	dir, err := os.MkdirTemp("", "hands-user-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	os.Chmod(dir, 0o755)
	copied := filepath.Join(dir, "hands")
	raw, err := os.ReadFile(argv[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(copied, raw, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd.Path, cmd.Args[0] = copied, copied
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	cmd.Env = append(os.Environ(), "HOME="+dir)
	return cmd
}

// The namespaces work for a server run by an ordinary user, not only for
// root: a file outside the roots that user may write stays unchanged
// (the system is read-only), the command sees its own /proc, and it has
// no capability left.
func TestNamespacesForAnOrdinaryUser(t *testing.T) {
	if err := exec.Command("unshare", "-U", "true").Run(); err != nil {
		t.Skipf("this kernel gives no user namespaces here (unshare -U: %v)", err)
	}
	root, err := os.MkdirTemp("", "hands-user-root-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(root)
	os.Chmod(root, 0o777)
	other, err := os.MkdirTemp("", "hands-user-outside-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(other)
	os.Chmod(other, 0o777)
	outside := filepath.Join(other, "outside.txt")
	if err := os.WriteFile(outside, []byte("kept\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	os.Chmod(outside, 0o666)
	script := "echo changed > " + outside + "; grep -E '^Cap(Eff|Prm|Bnd|Amb)' /proc/self/status; tr '\\0' ' ' < /proc/1/cmdline; echo; unshare -Ur true; echo unshare:$?; cat /proc/1/environ; echo environ:$?"
	args, _ := json.Marshal(map[string]string{"command": script})
	cmd := asOrdinaryUser(t, binary, "call", "--root", root, "bash", string(args))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	text := string(out)
	if strings.Contains(text, "not enforced: namespaces") {
		t.Fatalf("namespaces not enforced for an ordinary user:\n%s", text)
	}
	if !strings.Contains(text, "Read-only file system") {
		t.Errorf("the write outside the roots was not refused as read-only:\n%s", text)
	}
	if got, _ := os.ReadFile(outside); string(got) != "kept\n" {
		t.Errorf("the file outside the roots changed: %q", got)
	}
	for _, c := range []string{"CapEff", "CapPrm", "CapBnd", "CapAmb"} {
		if !strings.Contains(text, c+":\t0000000000000000") {
			t.Errorf("the command kept capabilities (%s):\n%s", c, text)
		}
	}
	if !strings.Contains(text, "hands-sandbox-spawner") {
		t.Errorf("the command's /proc is not its session's own (PID 1 is not the spawner):\n%s", text)
	}
	// Nested user namespaces are off (the spawner's own limit), and the
	// spawner's environment is not readable.
	for _, w := range []string{"No space left on device", "unshare:1", "environ:1"} {
		if !strings.Contains(text, w) {
			t.Errorf("the output lacks %q:\n%s", w, text)
		}
	}
}
