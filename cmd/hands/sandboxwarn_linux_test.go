//go:build linux

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// withoutUserNamespaces returns argv prefixed so that the program runs
// where no user namespace can be created (a user namespace of its own
// whose user.max_user_namespaces is 0), as on a kernel without
// unprivileged user namespaces; it skips where unshare cannot make that.
func withoutUserNamespaces(t *testing.T, argv ...string) *exec.Cmd {
	t.Helper()
	const script = `echo 0 > /proc/sys/user/max_user_namespaces && exec "$0" "$@"`
	if err := exec.Command("unshare", "-Ur", "sh", "-c", script, "true").Run(); err != nil {
		t.Skipf("cannot run a program without user namespaces here (unshare -Ur: %v)", err)
	}
	return exec.Command("unshare", append([]string{"-Ur", "sh", "-c", script}, argv...)...)
}

// Where user namespaces are unavailable, the default sandbox says so once
// on stderr as call starts, and runs the command with Landlock alone.
func TestStartupWarningWithoutNamespaces(t *testing.T) {
	root := t.TempDir()
	cmd := withoutUserNamespaces(t, binary, "call", "--root", root, "bash", `{"command":"echo ran"}`)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v\n%s%s", err, stdout.String(), stderr.String())
	}
	if !strings.Contains(stdout.String(), "ran") {
		t.Errorf("the command did not run: %q", stdout.String())
	}
	if n := strings.Count(stderr.String(), "hands: sandbox: not enforced: namespaces"); n != 1 {
		t.Errorf("the warning about namespaces appears %d times, want once:\n%s", n, stderr.String())
	}

	// Where they work (unshare just made one), nothing is said of them.
	var quiet strings.Builder
	c2 := exec.Command(binary, "call", "--root", root, "bash", `{"command":"echo ran"}`)
	c2.Stderr = &quiet
	if err := c2.Run(); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(quiet.String(), "not enforced: namespaces") {
		t.Errorf("a warning about namespaces where they work:\n%s", quiet.String())
	}
}

// A loop served without namespaces warns once on stderr and still finds
// and answers the other loops over NATS: the probe behind the warning runs
// beside the server, not in its way.
func TestStartupWarningKeepsLoopsReachable(t *testing.T) {
	url := startNATS(t)
	rootA, rootB := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(rootB, "a.txt"), []byte("one\n"), 0o644)
	var stderrA strings.Builder
	a := startLoopCmd(t, withoutUserNamespaces(t, binary, "serve", "--root", rootA, "--profile", "taskdaemon", "--coordinator", url, "--exec-id", "alpha"), &stderrA)
	b := startLoop(t, "--root", rootB, "--profile", "taskdaemon", "--coordinator", url, "--exec-id", "beta")
	for _, l := range []*loopServer{a, b} {
		l.call(100, "list_directory", map[string]any{})
		l.reply(100)
	}
	a.call(1, "query_loop", map[string]any{"target_exec_id": "beta", "question": "which port?"})
	n := b.note()
	p, _ := n["params"].(map[string]any)
	if p["question"] != "which port?" {
		t.Fatalf("query notification %v", n)
	}
	b.call(2, "reply_query", map[string]any{"query_id": p["id"], "reply": "8080"})
	b.reply(2)
	if text, isErr := callText(a.reply(1)); isErr || text != "8080" {
		t.Fatalf("query_loop from the loop without namespaces: %q %v", text, isErr)
	}
	a.call(3, "run_command", map[string]any{"command": "echo ran-without-namespaces"})
	if text, _ := callText(a.reply(3)); !strings.Contains(text, "ran-without-namespaces") {
		t.Errorf("the command did not run with Landlock alone: %q", text)
	}
	a.cmd.Process.Signal(syscall.SIGTERM) // a clean stop: the warning is written by then
	a.cmd.Wait()
	if n := strings.Count(stderrA.String(), "hands: sandbox: not enforced: namespaces"); n != 1 {
		t.Errorf("the warning about namespaces appears %d times, want once:\n%s", n, stderrA.String())
	}
}
