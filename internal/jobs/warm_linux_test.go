package jobs

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// warmPID waits until m's warm shell has started and returns its PID, or 0
// when m has none.
func warmPID(m *Manager) int {
	m.mu.Lock()
	w := m.warm
	m.mu.Unlock()
	if w == nil {
		return 0
	}
	<-w.ready
	if w.err != nil {
		return 0
	}
	return w.p.pgid
}

// alive reports whether pid is a process that has not been reaped.
func alive(pid int) bool { return syscall.Kill(pid, 0) == nil }

// What a command sees in a warm shell is what it sees in a new one: the
// same output, status and directory for every probe of the shell's state
// (its name and arguments, $_ and $?, options, traps, variables,
// descriptors, process group and session, the parser's messages), with
// the warm shell really used.
func TestWarmShellIsAFreshShell(t *testing.T) {
	commands := []string{
		`echo "$0|$#|$_|$?|$-|${SECONDS}"`,
		`compgen -v | tr '\n' ' '`,
		`trap -p; set -o | tr -s ' \t' ' ' | tr '\n' ,; echo; shopt | tr -s ' \t' ' ' | tr '\n' ,`,
		`ls /proc/self/fd | sort -n | tr '\n' ' '; [ -e /dev/fd/7 ] && echo seven; [ -e /dev/fd/8 ] && echo eight`,
		`ps -o pid=,pgid=,sid= -p $$ | awk '{print ($1==$2) ($1==$3)}'`,
		"  lead and trail\t \n\n",
		`printf '%s|' "a\\b" 'it''s' $'\xff\xfe' "\$HOME"; echo`,
		"if then fi",
		"echo 'unterminated",
		"cat <<EOF\nx $((1+2))\nEOF\necho two # comment",
		"exit 7",
		"set -e; false; echo not here",
		`echo "${OLDPWD-unset}|${OLDPWD+set}"; umask; ulimit -n`,
		"kill -TERM $$",
		"{ echo out; echo err >&2; } 2>&1 # one pipe: the order is fixed",
		"mkdir -p sub && cd sub && pwd",
		"pwd; cd ..",
		"trap 'echo bye' EXIT; echo hi",
		"exec 9>&-; echo closed the cwd pipe",
		"",
	}
	type result struct {
		text, cwd string
		code      int
		signal    string
	}
	runAll := func(cfg Config) ([]result, []bool) {
		m := newManager(t, cfg)
		dir := m.Cwd()
		var got []result
		var warmUsed []bool
		for _, c := range commands {
			pid := warmPID(m)
			out, err := m.Run(context.Background(), c, 20*time.Second)
			if err != nil {
				t.Fatalf("Run(%q): %v", c, err)
			}
			text := strings.ReplaceAll(out.Merged.Head, dir, "DIR")
			got = append(got, result{text, strings.ReplaceAll(out.Cwd, dir, "DIR"), out.ExitCode, out.Signal})
			warmUsed = append(warmUsed, pid != 0 && out.PGID == pid)
		}
		return got, warmUsed
	}
	fresh, freshWarm := runAll(Config{NoWarm: true})
	warm, warmUsed := runAll(Config{})
	for i, c := range commands {
		if freshWarm[i] {
			t.Errorf("%q ran in a warm shell with NoWarm", c)
		}
		if i > 0 && !warmUsed[i] {
			t.Errorf("%q did not run in the warm shell", c)
		}
		if fresh[i] != warm[i] {
			t.Errorf("%q:\nnew shell:  %+v\nwarm shell: %+v", c, fresh[i], warm[i])
		}
	}
}

// The warm shell waits in the directory the next command starts in: a
// `cd`, SetCwd or a directory replaced under the same name gets the
// command a new shell there, and the warm one is ended.
func TestWarmShellFollowsTheDirectory(t *testing.T) {
	m := newManager(t, Config{})
	dir := m.Cwd()
	other := filepath.Join(dir, "other")
	os.Mkdir(other, 0o755)
	run(t, m, "true")
	old := warmPID(m)
	if old == 0 {
		t.Fatal("no warm shell after a command")
	}
	if err := m.SetCwd(other); err != nil {
		t.Fatal(err)
	}
	if out := run(t, m, "pwd"); out.Merged.Head != other+"\n" || out.PGID == old {
		t.Errorf("after SetCwd: %q in group %d (the warm shell was %d)", out.Merged.Head, out.PGID, old)
	}
	eventually(t, "the warm shell of the old directory ended", func() bool { return !alive(old) })

	// Replaced: the warm shell's directory is deleted, a new one made.
	run(t, m, "true")
	old = warmPID(m)
	if err := os.RemoveAll(other); err != nil {
		t.Fatal(err)
	}
	os.Mkdir(other, 0o755)
	os.WriteFile(filepath.Join(other, "new-file"), nil, 0o644)
	if out := run(t, m, "ls; pwd"); out.Merged.Head != "new-file\n"+other+"\n" || out.PGID == old {
		t.Errorf("in the replaced directory: %q in group %d (the warm shell was %d)", out.Merged.Head, out.PGID, old)
	}
	eventually(t, "the warm shell of the deleted directory ended", func() bool { return !alive(old) })

	// A command that moves takes the warm shell made where it ended.
	run(t, m, "cd ..")
	pid := warmPID(m)
	if out := run(t, m, "pwd"); out.Merged.Head != dir+"\n" || out.PGID != pid {
		t.Errorf("after cd: %q in group %d, the warm shell was %d", out.Merged.Head, out.PGID, pid)
	}
}

// Commands a warm shell must not take get a new shell, and the warm one
// waits on for the next command; an environment the shell reads at its
// start gets no warm shells at all.
func TestWarmShellIsLeftForItsKind(t *testing.T) {
	m := newManager(t, Config{})
	run(t, m, "true")
	pid := warmPID(m)
	long := "echo " + strings.Repeat("x", warmMaxCommand) + " | wc -c"
	for name, o := range map[string]Options{"unconfined": {Unconfined: true}, "another directory": {Dir: t.TempDir()}} {
		out, err := m.RunWith(context.Background(), "echo $$", 20*time.Second, o)
		if err != nil || out.PGID == pid {
			t.Errorf("%s: %v, in group %d, the warm shell's", name, err, out.PGID)
		}
	}
	if out := run(t, m, long); out.Merged.Head != strconv.Itoa(warmMaxCommand+1)+"\n" || out.PGID == pid {
		t.Errorf("a long command: %q in group %d, the warm shell's", out.Merged.Head, out.PGID)
	}
	if out := run(t, m, "echo $$"); out.PGID != pid {
		t.Errorf("the warm shell %d was not kept for the next command (group %d)", pid, out.PGID)
	}

	env := t.TempDir() + "/env.sh"
	os.WriteFile(env, []byte("echo sourced\n"), 0o644)
	for _, kv := range []string{"BASH_ENV=" + env, "ENV=" + env, "SECONDS=100"} {
		m := newManager(t, Config{Env: BuildEnv(os.Environ(), kv)})
		run(t, m, "true")
		if pid := warmPID(m); pid != 0 {
			t.Errorf("with %s a warm shell was started", kv)
		}
	}
}

// Close ends the warm shell with everything else, and a warm shell that
// exits by itself before it is used costs the command nothing.
func TestCloseEndsTheWarmShell(t *testing.T) {
	m, err := NewManager(Config{TempDir: t.TempDir()}, t.TempDir(), "")
	if err != nil {
		t.Fatal(err)
	}
	run(t, m, "true")
	pid := warmPID(m)
	if pid == 0 || !alive(pid) {
		t.Fatal("no warm shell running after a command")
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	if alive(pid) {
		t.Errorf("the warm shell %d outlived Close", pid)
	}

	m = newManager(t, Config{})
	run(t, m, "true")
	pid = warmPID(m)
	syscall.Kill(pid, syscall.SIGKILL)
	eventually(t, "the warm shell killed", func() bool {
		b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		return bytes.Contains(b, []byte(") Z "))
	})
	if out := run(t, m, "echo ran"); out.Merged.Head != "ran\n" || out.ExitCode != 0 || out.PGID == pid {
		t.Errorf("after the warm shell died: %+v", out)
	}
}

// pidsWithEnv returns the processes whose environment holds the entry kv.
func pidsWithEnv(kv string) []int {
	return pidsWhose("environ", func(b []byte) bool {
		return bytes.Contains(append([]byte{0}, b...), []byte("\x00"+kv+"\x00"))
	})
}

// When the server dies, its warm shell, which waits for a command that
// will never come, ends too.
func TestServerDeathEndsTheWarmShell(t *testing.T) {
	dir := t.TempDir()
	helper := exec.Command(os.Args[0], "-test.run=^$")
	helper.Env = append(os.Environ(), "HANDS_JOBS_HELPER="+marker(), "HANDS_JOBS_HELPER_DIR="+dir)
	stdout, err := helper.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := helper.Start(); err != nil {
		t.Fatal(err)
	}
	if line, err := bufio.NewReader(stdout).ReadString('\n'); err != nil || line != "ready\n" {
		helper.Process.Kill()
		helper.Wait()
		t.Fatalf("helper said %q, %v", line, err)
	}
	tmp := "TMPDIR=" + filepath.Join(dir, "tmp")
	eventually(t, "the helper's warm shell", func() bool {
		for _, pid := range pidsWithEnv(tmp) {
			if b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline"); bytes.Contains(b, []byte("__hands_go")) {
				return true
			}
		}
		return false
	})
	helper.Process.Kill()
	helper.Wait()
	eventually(t, "no process of the helper's session left", func() bool { return len(pidsWithEnv(tmp)) == 0 })
}

// While a warm shell waits, no thread of the server sits in waitid for
// it: the wait goes through the runtime's poller (a pidfd), so the Go
// runtime's monitor is not kept waking by a thread in a system call.
func TestWarmShellWaitsWithoutASystemCall(t *testing.T) {
	m := newManager(t, Config{})
	run(t, m, "true")
	if warmPID(m) == 0 {
		t.Fatal("no warm shell")
	}
	waitid := strconv.Itoa(syscall.SYS_WAITID) + " "
	eventually(t, "no thread in waitid", func() bool {
		tasks, _ := os.ReadDir("/proc/self/task")
		for _, task := range tasks {
			b, _ := os.ReadFile("/proc/self/task/" + task.Name() + "/syscall")
			if strings.HasPrefix(string(b), waitid) {
				return false
			}
		}
		return true
	})
}
