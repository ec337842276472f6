package tools_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hands-dev/hands"
	"github.com/hands-dev/hands/internal/tools"
	"github.com/hands-dev/hands/tool"
)

func newSession(t testing.TB, opts hands.Options) (*hands.Runtime, *hands.Session, string) {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	opts.Roots = append([]string{root}, opts.Roots...)
	rt, err := hands.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close() })
	sess, err := rt.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	return rt, sess, root
}

func bash(t testing.TB, sess *hands.Session, input map[string]any) tool.Result {
	t.Helper()
	b, _ := json.Marshal(input)
	return sess.Call(context.Background(), tool.Call{Name: "bash", Input: b})
}

// processesWith lists the pids whose command line contains marker.
func processesWith(marker string) []string {
	var pids []string
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		cmdline := strings.ReplaceAll(string(b), "\x00", " ")
		if err == nil && strings.Contains(cmdline, marker) {
			pids = append(pids, e.Name())
		}
	}
	return pids
}

func waitGone(t *testing.T, marker string) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		if len(processesWith(marker)) == 0 {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Errorf("processes with %q still running: %v", marker, processesWith(marker))
}

// marker returns a sleep duration unique to this test run, so the test can
// find its processes in /proc by their command line.
func marker() string {
	n := time.Now().UnixNano()
	return fmt.Sprintf("%d.%06d", 5000+n%1000, n/1000%1000000)
}

func TestNoProcessOutlivesItsCallOrSession(t *testing.T) {
	_, sess, _ := newSession(t, hands.Options{})
	m := marker()
	// A foreground command that leaves a child behind: the child dies with the call.
	res := bash(t, sess, map[string]any{"command": "sleep " + m + " & echo left"})
	if res.IsError {
		t.Fatal(res.TextOf())
	}
	waitGone(t, "sleep "+m)
	// A timed-out command and its children die.
	res = bash(t, sess, map[string]any{"command": "sh -c 'sleep " + m + "' & sleep " + m, "timeout": 200})
	if !strings.Contains(res.TextOf(), "timed out") {
		t.Errorf("timeout: %s", res.TextOf())
	}
	waitGone(t, "sleep "+m)
	// A background job with a grandchild lives until the session closes.
	res = bash(t, sess, map[string]any{"command": "(sleep " + m + " &); sleep " + m, "run_in_background": true})
	if res.IsError {
		t.Fatal(res.TextOf())
	}
	deadline := time.Now().Add(30 * time.Second) // a loaded machine starts processes slowly
	for len(processesWith("sleep "+m)) < 2 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if len(processesWith("sleep "+m)) < 2 {
		t.Fatal("background job did not start")
	}
	if err := sess.Close(); err != nil {
		t.Fatal(err)
	}
	waitGone(t, "sleep "+m)
}

func TestBackgroundGrandchildDiesWithItsJob(t *testing.T) {
	_, sess, _ := newSession(t, hands.Options{})
	m := marker()
	res := bash(t, sess, map[string]any{"command": "sleep " + m + " & wait", "run_in_background": true})
	id := res.Structured.(*tools.BashOutput).TaskID
	for deadline := time.Now().Add(5 * time.Second); len(processesWith("sleep "+m)) == 0 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	kill := sess.Call(context.Background(), tool.Call{Name: "task_kill", Input: json.RawMessage(`{"task_id":"` + id + `"}`)})
	if kill.IsError {
		t.Fatal(kill.TextOf())
	}
	waitGone(t, "sleep "+m)
}

func TestBackgroundTaskLimit(t *testing.T) {
	_, sess, _ := newSession(t, hands.Options{})
	for i := range 10 {
		if res := bash(t, sess, map[string]any{"command": "sleep 1000", "run_in_background": true}); res.IsError {
			t.Fatalf("job %d: %s", i, res.TextOf())
		}
	}
	res := bash(t, sess, map[string]any{"command": "sleep 1000", "run_in_background": true})
	if res.Code != tool.BashTaskLimit {
		t.Fatalf("11th job: %s", res.TextOf())
	}
	// A finished job does not count.
	sess.Call(context.Background(), tool.Call{Name: "task_kill", Input: json.RawMessage(`{"task_id":"job-1"}`)})
	if res := bash(t, sess, map[string]any{"command": "true", "run_in_background": true}); res.IsError {
		t.Errorf("after a kill: %s", res.TextOf())
	}
}

func TestWriteOutsideTheRootsFailsUnderLandlock(t *testing.T) {
	rt, sess, root := newSession(t, hands.Options{})
	if !strings.Contains(rt.Confinement(), ", enforced\n") {
		t.Skipf("Landlock is not enforced here: %s", rt.Confinement())
	}
	outside := t.TempDir()
	res := bash(t, sess, map[string]any{"command": "echo x > " + outside + "/escape.txt; echo status=$?; echo y > inside.txt && echo inside-ok; echo z > \"$TMPDIR/tmp.txt\" && echo tmp-ok"})
	text := res.TextOf()
	// Landlock says EACCES; the namespaces' read-only system, on by
	// default where the kernel allows, says EROFS first.
	if !strings.Contains(text, "Permission denied") && !strings.Contains(text, "Read-only file system") || !strings.Contains(text, "status=1") {
		t.Errorf("a write outside the roots was not refused: %s", text)
	}
	if _, err := os.Stat(filepath.Join(outside, "escape.txt")); err == nil {
		t.Error("the file outside the roots was written")
	}
	if !strings.Contains(text, "inside-ok") || !strings.Contains(text, "tmp-ok") {
		t.Errorf("writes inside the roots and temp must work: %s", text)
	}
	if _, err := os.Stat(filepath.Join(root, "inside.txt")); err != nil {
		t.Error(err)
	}
	// The test process itself is not confined.
	if err := os.WriteFile(filepath.Join(outside, "me.txt"), nil, 0o644); err != nil {
		t.Errorf("the server was confined too: %v", err)
	}
}

func TestNoSandboxAndAllowedUnsandboxed(t *testing.T) {
	outside := t.TempDir()
	_, sess, _ := newSession(t, hands.Options{AllowUnsandboxed: true})
	res := bash(t, sess, map[string]any{"command": "echo x > " + outside + "/a.txt && echo ok", "dangerously_disable_sandbox": true})
	if !strings.Contains(res.TextOf(), "ok") {
		t.Errorf("allowed unsandboxed call: %s", res.TextOf())
	}
	_, sess, _ = newSession(t, hands.Options{NoSandbox: true})
	res = bash(t, sess, map[string]any{"command": "echo x > " + outside + "/b.txt && echo ok"})
	if !strings.Contains(res.TextOf(), "ok") {
		t.Errorf("--no-sandbox: %s", res.TextOf())
	}
}

func TestSecretsDoNotReachCommands(t *testing.T) {
	t.Setenv("HANDS_SECRET_TOKEN", "tok-123")
	t.Setenv("GITHUB_TOKEN", "ghp-456")
	_, sess, _ := newSession(t, hands.Options{Env: map[string]string{"MY_SETTING": "on"}})
	text := bash(t, sess, map[string]any{"command": "env"}).TextOf()
	if strings.Contains(text, "tok-123") || strings.Contains(text, "ghp-456") {
		t.Errorf("a secret reached the command:\n%s", text)
	}
	if !strings.Contains(text, "MY_SETTING=on") || !strings.Contains(text, "PATH=") {
		t.Errorf("allowed and added variables are missing:\n%s", text)
	}
}

func TestHugeSingleLineAndBinaryOutput(t *testing.T) {
	_, sess, _ := newSession(t, hands.Options{})
	res := bash(t, sess, map[string]any{"command": "head -c 1000000 /dev/zero | tr '\\0' a"})
	out := res.Structured.(*tools.BashOutput)
	if !out.Truncated || out.FullOutputPath == "" || len(res.TextOf()) > 40000 {
		t.Fatalf("1 MB line: truncated=%v path=%q len=%d", out.Truncated, out.FullOutputPath, len(res.TextOf()))
	}
	if !strings.Contains(res.TextOf(), out.FullOutputPath) {
		t.Error("the note does not name the file holding the whole output")
	}
	if fi, err := os.Stat(out.FullOutputPath); err != nil || fi.Size() != 1000000 {
		t.Errorf("full output file: %v %v", fi, err)
	}
	res = bash(t, sess, map[string]any{"command": "printf 'ok\\000\\377\\376end\\n'"})
	if text := res.TextOf(); !strings.Contains(text, `ok\x00\xff\xfeend`) {
		t.Errorf("binary output not shown safely: %q", text)
	}
}

func TestBashConcurrencySafety(t *testing.T) {
	bt := tools.Bash(tools.Limits{}.WithDefaults())
	for cmd, safe := range map[string]bool{
		"ls -la":              true,
		"git status":          true,
		"cat a | grep x":      true,
		"rm -rf x":            false,
		"ls > out.txt":        false,
		"cat $(echo a)":       false,
		"cd sub":              false,
		"git push":            false,
		"echo hi | tee f.txt": false,
	} {
		in, err := bt.Decode(json.RawMessage(fmt.Sprintf(`{"command":%q}`, cmd)))
		if err != nil {
			t.Fatal(err)
		}
		if got := bt.ConcurrencySafe(in); got != safe {
			t.Errorf("%q: safe=%v, want %v", cmd, got, safe)
		}
	}
	in, _ := bt.Decode(json.RawMessage(`{"command":"ls","run_in_background":true}`))
	if bt.ConcurrencySafe(in) {
		t.Error("a background command must not count as safe")
	}
}

func TestReadAfterWriteInABatchNeverOvertakesIt(t *testing.T) {
	_, sess, _ := newSession(t, hands.Options{})
	calls := []tool.Call{
		{ID: "1", Name: "bash", Input: json.RawMessage(`{"command":"ls"}`)},
		{ID: "2", Name: "bash", Input: json.RawMessage(`{"command":"echo hi > new.txt"}`)},
		{ID: "3", Name: "bash", Input: json.RawMessage(`{"command":"cat new.txt"}`)},
	}
	res := sess.Batch(context.Background(), calls)
	if !strings.HasPrefix(res[2].TextOf(), "hi") {
		t.Errorf("a read after a write overtook it: %q", res[2].TextOf())
	}
}

func TestMissingShellIsRefusedAtStart(t *testing.T) {
	_, err := hands.New(hands.Options{Roots: []string{t.TempDir()}, Shell: "/nonexistent/shell"})
	if err == nil {
		t.Fatal("a runtime with a missing shell started")
	}
	if !strings.Contains(err.Error(), "/nonexistent/shell") {
		t.Errorf("error does not name the shell: %v", err)
	}
}

// BenchmarkBashTrue compares a bash call through the executor with a bare
// `bash -c true`; the ratio is the per-call overhead.
func BenchmarkBashTrue(b *testing.B) {
	_, sess, _ := newSession(b, hands.Options{})
	input := json.RawMessage(`{"command":"true"}`)
	var ours, bare time.Duration
	for b.Loop() {
		start := time.Now()
		if res := sess.Call(context.Background(), tool.Call{Name: "bash", Input: input}); res.IsError {
			b.Fatal(res.TextOf())
		}
		ours += time.Since(start)
		start = time.Now()
		if err := exec.Command("bash", "-c", "true").Run(); err != nil {
			b.Fatal(err)
		}
		bare += time.Since(start)
	}
	b.ReportMetric(float64(ours.Microseconds())/float64(b.N), "hands-µs/call")
	b.ReportMetric(float64(bare.Microseconds())/float64(b.N), "bare-µs/call")
	b.ReportMetric(float64(ours)/float64(bare), "ratio")
}
