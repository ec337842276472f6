//go:build linux

package hands_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hands-dev/hands"
	"github.com/hands-dev/hands/internal/claudedirs"
	"github.com/hands-dev/hands/tool"
)

func TestMain(m *testing.M) {
	if root := os.Getenv("HANDS_KILL_HELPER_ROOT"); root != "" {
		killHelper(root)
		return
	}
	cleanup := claudedirs.Isolate()
	code := m.Run()
	cleanup()
	os.Exit(code)
}

// stressCount is how many rounds a stress test runs: short by default,
// HANDS_STRESS=1000 for the full count.
func stressCount(t *testing.T, short int) int { return envCount(t, "HANDS_STRESS", short) }

const bigSize = 8 << 20

// bigContent is one of the two versions the helper writes: a header line,
// then bigSize bytes of lines (the same in both, so the tools' diffs are
// quick and the time goes to writing).
func bigContent(v byte) []byte {
	return append([]byte("HEADER-"+string(v)+"\n"), bytes.Repeat([]byte("0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcde\n"), bigSize/64)...)
}

// killHelper is the server the kill test kills: it writes and edits the
// large file in root in a loop, alternating its two versions.
func killHelper(root string) {
	rt, err := hands.New(hands.Options{Roots: []string{root}, Profile: "gemini"})
	if err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	sess, err := rt.NewSession()
	if err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	path := filepath.Join(root, "big.txt")
	a := string(bigContent('A'))
	in := func(v any) json.RawMessage { j, _ := json.Marshal(v); return j }
	fmt.Println("ready")
	for i := 0; ; i++ {
		// Mostly edits, which spend their time writing; now and then a
		// whole write (whose input takes long to decode and check).
		c := tool.Call{Name: "replace", Input: in(map[string]any{"file_path": path, "old_string": "HEADER-A", "new_string": "HEADER-B"})}
		if i%2 == 1 {
			c.Input = in(map[string]any{"file_path": path, "old_string": "HEADER-B", "new_string": "HEADER-A"})
		}
		if i%8 == 7 {
			c = tool.Call{Name: "write_file", Input: in(map[string]any{"file_path": path, "content": a})}
		}
		if res := sess.Call(context.Background(), c); res.IsError && !strings.Contains(res.TextOf(), "not found") && !strings.Contains(res.TextOf(), "0 occurrences") {
			fmt.Fprintln(os.Stderr, res.TextOf())
		}
	}
}

// A server killed with SIGKILL during writes and edits of a large file
// leaves the old or the new bytes, never a mix, and nothing else: no
// temporary file beside the target once the next server has started, no
// private directory in TMPDIR once a server has started and closed.
func TestKillDuringWritesLeavesNoStrayFile(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	n := stressCount(t, 8)
	root, _ := filepath.EvalSymlinks(t.TempDir())
	tmp := t.TempDir()
	want := map[string]bool{}
	for _, v := range []byte{'A', 'B'} {
		want[string(bigContent(v))] = true
	}
	os.WriteFile(filepath.Join(root, "big.txt"), bigContent('A'), 0o644)
	straysAfterKill := 0
	for i := range n {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "HANDS_KILL_HELPER_ROOT="+root, "TMPDIR="+tmp)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		line, _ := bufio.NewReader(out).ReadString('\n')
		if line != "ready\n" {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("helper said %q", line)
		}
		// The moment of the kill is what varies: anywhere in a few writes.
		time.Sleep(time.Duration(rand.IntN(400)) * time.Millisecond)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		b, err := os.ReadFile(filepath.Join(root, "big.txt"))
		if err != nil || !want[string(b)] {
			t.Fatalf("kill %d: the file holds %d bytes starting %q (%v): neither the old nor the new content", i, len(b), b[:min(len(b), 12)], err)
		}
		ents, _ := os.ReadDir(root)
		if len(ents) != 1 {
			straysAfterKill++
			t.Logf("kill %d left %v (removed when the next server starts)", i, names(ents))
		}
	}
	// The next server removes what dead ones left.
	t.Setenv("TMPDIR", tmp)
	rt, err := hands.New(hands.Options{Roots: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	if ents, _ := os.ReadDir(root); len(ents) != 1 {
		t.Errorf("after %d kills and a new start the root holds %v", n, names(ents))
	}
	rt.Close()
	if ents, _ := os.ReadDir(tmp); len(ents) != 0 {
		t.Errorf("after %d kills and a clean start and close TMPDIR holds %v", n, names(ents))
	}
	t.Logf("%d kills during writes: every file old or new; %d left a temporary file until the next start", n, straysAfterKill)
}

func names(ents []os.DirEntry) []string {
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	return out
}

// procsWith lists the processes whose command line contains s.
func procsWith(s string) []int {
	var pids []int
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if bytes.Contains(b, []byte(s)) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// Bash calls that time out, are cancelled, are killed as jobs or are cut
// off by their session closing leave no process and no temporary file.
func TestBashCallsLeaveNothingBehind(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	n := stressCount(t, 40)
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	root, _ := filepath.EvalSymlinks(t.TempDir())
	mk := fmt.Sprintf("%d.%d", 3000+os.Getpid()%1000, time.Now().UnixNano()%1000000)
	rt, err := hands.New(hands.Options{Roots: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	var sess *hands.Session
	bash := func(ctx context.Context, input map[string]any) tool.Result {
		j, _ := json.Marshal(input)
		return sess.Call(ctx, tool.Call{Name: "bash", Input: j})
	}
	sessions := 0
	for i := range n {
		if sess == nil || i%10 == 0 {
			if sess != nil {
				sess.Close()
			}
			if sess, err = rt.NewSession(); err != nil {
				t.Fatal(err)
			}
			sessions++
		}
		files := "mktemp >/dev/null; mktemp -d >/dev/null; echo x > $TMPDIR/f" + strconv.Itoa(i)
		switch i % 6 {
		case 0: // plain
			bash(context.Background(), map[string]any{"command": files + "; seq 1000"})
		case 1: // timeout, with children in and out of the group
			bash(context.Background(), map[string]any{"command": files + "; sleep " + mk + " & sh -c 'sleep " + mk + "'", "timeout": 50})
		case 2: // cancelled
			ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
			bash(ctx, map[string]any{"command": files + "; sleep " + mk})
			cancel()
		case 3: // a job, killed
			res := bash(context.Background(), map[string]any{"command": files + "; sleep " + mk, "run_in_background": true})
			if id := taskID(res.TextOf()); id != "" {
				if r := sess.Call(context.Background(), tool.Call{Name: "task_kill", Input: json.RawMessage(`{"task_id":"` + id + `"}`)}); r.IsError {
					t.Errorf("task_kill %s: %s", id, r.TextOf())
				}
			} else {
				t.Errorf("no job id in %q", res.TextOf())
			}
		case 4: // a job left running: the session's close kills it
			bash(context.Background(), map[string]any{"command": files + "; (sleep " + mk + " &); sleep " + mk, "run_in_background": true})
		case 5: // unwritable leftovers
			bash(context.Background(), map[string]any{"command": files + "; mkdir -p $TMPDIR/ro/x && chmod 000 $TMPDIR/ro/x && chmod 500 $TMPDIR/ro"})
		}
	}
	sess.Close()
	if err := rt.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	// Processes get SIGKILL by Close; their last moments are the kernel's.
	deadline := time.Now().Add(10 * time.Second)
	for len(procsWith("sleep\x00"+mk)) > 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if p := procsWith("sleep\x00" + mk); len(p) > 0 {
		t.Errorf("processes left after %d calls: %v", n, p)
	}
	if ents, _ := os.ReadDir(tmp); len(ents) != 0 {
		t.Errorf("left in TMPDIR after %d calls in %d sessions: %v", n, sessions, names(ents))
	}
	t.Logf("%d bash calls in %d sessions: no process, no temporary file left", n, sessions)
}

// taskID finds a background job's id in a bash result.
func taskID(text string) string {
	i := strings.Index(text, "job-")
	if i < 0 {
		return ""
	}
	j := i + 4
	for j < len(text) && text[j] >= '0' && text[j] <= '9' {
		j++
	}
	return text[i:j]
}
