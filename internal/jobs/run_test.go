package jobs

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

func TestRunOutputAndExitCode(t *testing.T) {
	m := newManager(t, Config{})
	out := run(t, m, "echo out; echo err >&2; exit 3")
	if out.ExitCode != 3 || out.Signal != "" || out.TimedOut || out.Canceled {
		t.Errorf("status = %d %q timedOut=%v canceled=%v, want exit 3", out.ExitCode, out.Signal, out.TimedOut, out.Canceled)
	}
	if out.Stdout.Head != "out\n" || out.Stderr.Head != "err\n" {
		t.Errorf("stdout %q, stderr %q", out.Stdout.Head, out.Stderr.Head)
	}
	if m := out.Merged.Head; m != "out\nerr\n" && m != "err\nout\n" {
		t.Errorf("merged %q", m)
	}
	if out.PGID <= 0 || out.Cwd != m.Cwd() {
		t.Errorf("PGID %d, Cwd %q", out.PGID, out.Cwd)
	}
}

func TestRunMergedOrderIsExact(t *testing.T) {
	m := newManager(t, Config{MergeStreams: true})
	out := run(t, m, "for i in $(seq 200); do echo out$i; echo err$i >&2; done")
	var want strings.Builder
	for i := 1; i <= 200; i++ {
		fmt.Fprintf(&want, "out%d\nerr%d\n", i, i)
	}
	if out.Merged.Head != want.String() {
		t.Errorf("merged output out of order:\n%s", out.Merged.Head)
	}
	if out.Stdout.Size != 0 || out.Stderr.Size != 0 {
		t.Errorf("MergeStreams kept separate streams: %+v %+v", out.Stdout, out.Stderr)
	}
}

func TestRunSplitStreamsKeepOrderOfSeparateWrites(t *testing.T) {
	m := newManager(t, Config{})
	out := run(t, m, "echo a; sleep 0.05; echo b >&2; sleep 0.05; echo c; sleep 0.05; echo d >&2")
	if out.Merged.Head != "a\nb\nc\nd\n" || out.Stdout.Head != "a\nc\n" || out.Stderr.Head != "b\nd\n" {
		t.Errorf("merged %q stdout %q stderr %q", out.Merged.Head, out.Stdout.Head, out.Stderr.Head)
	}
}

func TestRunNonZeroAndMissingCommandAreNotErrors(t *testing.T) {
	m := newManager(t, Config{})
	out := run(t, m, "no-such-command-hands")
	if out.ExitCode != 127 || out.Stderr.Head != "bash: line 1: no-such-command-hands: command not found\n" {
		t.Errorf("exit %d, stderr %q", out.ExitCode, out.Stderr.Head)
	}
	out = run(t, m, "echo one\nfoo-hands")
	if out.ExitCode != 127 || out.Stderr.Head != "bash: line 2: foo-hands: command not found\n" {
		t.Errorf("line numbers are the command's own: %q", out.Stderr.Head)
	}
	out = run(t, m, "if then")
	if out.ExitCode != 2 || !strings.Contains(out.Stderr.Head, "syntax error") {
		t.Errorf("syntax error: exit %d, stderr %q", out.ExitCode, out.Stderr.Head)
	}
}

func TestRunStdinIsDevNull(t *testing.T) {
	m := newManager(t, Config{})
	out := run(t, m, `cat; read x; echo "read=$?"; [ -t 0 ] || echo notty; ls -l /proc/self/fd/0`)
	if !strings.HasPrefix(out.Stdout.Head, "read=1\nnotty\n") || !strings.Contains(out.Stdout.Head, "/dev/null") {
		t.Errorf("stdin is not /dev/null: %q", out.Stdout.Head)
	}
}

func TestRunNoControllingTerminal(t *testing.T) {
	m := newManager(t, Config{})
	out := run(t, m, `echo x > /dev/tty || echo no-tty; ps -o sid= -o pgid= -p $$`)
	if !strings.Contains(out.Merged.Head, "no-tty") {
		t.Errorf("the command has a terminal: %q", out.Merged.Head)
	}
	f := strings.Fields(out.Stdout.Head[strings.Index(out.Stdout.Head, "\n")+1:])
	if len(f) != 2 || f[0] != f[1] || f[1] != fmt.Sprint(out.PGID) {
		t.Errorf("session/group = %q, want both %d", f, out.PGID)
	}
}

func TestRunTimeoutKillsGroupAndKeepsOutput(t *testing.T) {
	m := newManager(t, Config{})
	mk := marker()
	start := time.Now()
	out, err := m.Run(context.Background(), "echo before; sleep "+mk+" & sleep "+mk+"; echo after", 300*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	if !out.TimedOut || out.Signal != "SIGTERM" || out.ExitCode != 143 {
		t.Errorf("timedOut=%v signal=%q exit=%d", out.TimedOut, out.Signal, out.ExitCode)
	}
	if out.Merged.Head != "before\n" {
		t.Errorf("output so far lost: %q", out.Merged.Head)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
	gone(t, mk)
}

func TestRunTimeoutIgnoringSIGTERMGetsSIGKILL(t *testing.T) {
	m := newManager(t, Config{Grace: 200 * time.Millisecond})
	mk := marker()
	out, err := m.Run(context.Background(), "trap '' TERM; echo armed; sleep "+mk+"; sleep "+mk, 300*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	if !out.TimedOut || out.Signal != "SIGKILL" || out.Merged.Head != "armed\n" {
		t.Errorf("timedOut=%v signal=%q output %q", out.TimedOut, out.Signal, out.Merged.Head)
	}
	gone(t, mk)
}

func TestRunCancel(t *testing.T) {
	m := newManager(t, Config{})
	mk := marker()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	var out *Output
	var err error
	go func() {
		defer close(done)
		out, err = m.Run(ctx, "echo go; sleep "+mk, time.Minute)
	}()
	running(t, "sleep "+mk, 1)
	cancel()
	<-done
	if !errors.Is(err, context.Canceled) || out == nil || !out.Canceled || out.Merged.Head != "go\n" {
		t.Fatalf("err %v, out %+v", err, out)
	}
	gone(t, mk)
}

// Regression: a foreground `cmd &` kept the output pipe open and the call
// hung until cmd ended; and cmd lived on after the call.
func TestRunBackgroundChildDoesNotHangOrSurvive(t *testing.T) {
	m := newManager(t, Config{})
	mk := marker()
	start := time.Now()
	out := run(t, m, "sleep "+mk+" & echo started")
	if out.Merged.Head != "started\n" || out.ExitCode != 0 {
		t.Errorf("output %q exit %d", out.Merged.Head, out.ExitCode)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("call took %v", d)
	}
	gone(t, mk)

	// The same with the output redirected away: nothing holds the pipes,
	// the child must still go.
	mk = marker()
	run(t, m, "nohup sleep "+mk+" >/dev/null 2>&1 &")
	gone(t, mk)
}

func TestRunWaitDoesNotWaitForTheWatcher(t *testing.T) {
	m := newManager(t, Config{})
	out, err := m.Run(context.Background(), "sleep 0.01 & wait; echo waited; jobs; echo \"[$!]\"", 5*time.Second)
	if err != nil || out.TimedOut || !strings.HasPrefix(out.Merged.Head, "waited\n") {
		t.Fatalf("err %v out %+v", err, out)
	}
}

func TestRunLongLine(t *testing.T) {
	m := newManager(t, Config{})
	out := run(t, m, "head -c 1000000 /dev/zero | tr '\\0' a; echo; echo end; echo err >&2")
	mt := out.Merged
	if mt.Size != 1000009 || !mt.Truncated() || mt.Path == "" {
		t.Fatalf("size %d truncated %v path %q", mt.Size, mt.Truncated(), mt.Path)
	}
	if len(mt.Head) != DefaultOutputLimit/2 || strings.Trim(mt.Head, "a") != "" {
		t.Errorf("head: %d bytes", len(mt.Head))
	}
	// Two pipes: stderr's line may come anywhere in the last of stdout's.
	if !strings.Contains(mt.Tail, "\nend\n") || len(mt.Tail) != DefaultOutputLimit/2 {
		t.Errorf("tail: %d bytes ending %q", len(mt.Tail), mt.Tail[max(0, len(mt.Tail)-20):])
	}
	if mt.Omitted != mt.Size-int64(len(mt.Head)+len(mt.Tail)) {
		t.Errorf("omitted %d", mt.Omitted)
	}
	b, err := os.ReadFile(mt.Path)
	if err != nil || len(b) != 1000009 || !strings.Contains(string(b), "\nend\n") || !strings.Contains(string(b), "err\n") {
		t.Errorf("full output file: %d bytes, %v", len(b), err)
	}
	if s := mt.String(); !strings.Contains(s, mt.Path) || !strings.Contains(s, "bytes of output omitted") {
		t.Errorf("note: %q", s[len(mt.Head):len(mt.Head)+200])
	}
	if !out.Stdout.Truncated() || out.Stdout.Path == "" || !strings.HasSuffix(out.Stdout.Tail, "a\nend\n") || out.Stderr.Head != "err\n" {
		t.Errorf("stdout %v %q, stderr %q", out.Stdout.Truncated(), out.Stdout.Path, out.Stderr.Head)
	}
}

func TestRunBinaryOutput(t *testing.T) {
	m := newManager(t, Config{})
	out := run(t, m, `printf 'ok\000\377\376\033[1mé\t\r\n'`)
	if want := "ok\\x00\\xff\\xfe\x1b[1mé\t\r\n"; out.Merged.Head != want {
		t.Errorf("got %q, want %q", out.Merged.Head, want)
	}
	out = run(t, m, `head -c 200000 /dev/urandom`)
	if out.Merged.Size != 200000 || !out.Merged.Truncated() {
		t.Fatalf("size %d", out.Merged.Size)
	}
	for _, s := range []string{out.Merged.Head, out.Merged.Tail} {
		if !isValidText(s) {
			t.Errorf("unsafe text in %q", s[:50])
		}
	}
	b, _ := os.ReadFile(out.Merged.Path)
	if len(b) != 200000 {
		t.Errorf("file holds %d bytes", len(b))
	}
}

func isValidText(s string) bool {
	for _, r := range s {
		if r == 0xfffd || r < 0x20 && r != '\t' && r != '\n' && r != '\r' && r != 0x1b || r == 0x7f {
			return false
		}
	}
	return true
}

func TestRunHugeOutputIsBounded(t *testing.T) {
	m := newManager(t, Config{FileLimit: 1 << 20})
	out := run(t, m, "seq 1 2000000")
	mt := out.Merged
	if mt.Size != 14888896 || !strings.HasPrefix(mt.Head, "1\n2\n3\n") || !strings.HasSuffix(mt.Tail, "1999999\n2000000\n") {
		t.Errorf("size %d head %q tail %q", mt.Size, mt.Head[:10], mt.Tail[len(mt.Tail)-16:])
	}
	fi, err := os.Stat(mt.Path)
	if err != nil || fi.Size() != 1<<20 {
		t.Errorf("spill file: %v %v", fi, err)
	}
}

func TestCwdCarriesOver(t *testing.T) {
	m := newManager(t, Config{})
	root := m.Cwd()
	for i := range 10 {
		if err := os.Mkdir(filepath.Join(root, fmt.Sprint("d", i)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name, cmd, want string
		exit            int
	}{
		{"plain", "cd d0", "d0", 0},
		{"trailing comment", "cd d1 # and a comment; cd ..", "d1", 0},
		{"heredoc", "cd d2\ncat <<EOF\n$(pwd)\nEOF", "d2", 0},
		{"quoted heredoc", "cd d2; cat <<'EOF'\ncd /\nEOF", "d2", 0},
		{"unterminated heredoc", "cd d3; cat <<EOF\nnever ends", "d3", 0},
		{"exit", "cd d4; exit 3", "d4", 3},
		{"exit in function", "f() { cd d5; exit 4; }; f", "d5", 4},
		{"subshell", "(cd d6)", "", 0},
		{"failing", "cd d7 && false", "d7", 1},
		{"set -e", "set -e; cd d8; false; cd ..", "d8", 1},
		{"cd fails", "cd no-such-dir", "", 1},
		{"own EXIT trap", "trap 'echo bye' EXIT; cd d9", "d9", 0},
		{"set -u", "set -u; cd d3", "d3", 0},
		{"set -u and exit", "set -u; cd d4; exit 2", "d4", 2},
		{"symlink resolved", "ln -s d0 link && cd link", "d0", 0},
		{"positional parameters are clear", `cd d1; [ $# -eq 0 ] || exit 9`, "d1", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := m.SetCwd(root); err != nil {
				t.Fatal(err)
			}
			out := run(t, m, tc.cmd)
			want := filepath.Join(root, tc.want)
			if out.Cwd != want || m.Cwd() != want || out.ExitCode != tc.exit {
				t.Errorf("cwd %q (manager %q), exit %d; want %q, exit %d\n%s", out.Cwd, m.Cwd(), out.ExitCode, want, tc.exit, out.Merged.Head)
			}
			if tc.name == "heredoc" && out.Merged.Head != filepath.Join(root, "d2")+"\n" {
				t.Errorf("heredoc output %q", out.Merged.Head)
			}
		})
	}
	// The next call starts where the last one ended.
	m.SetCwd(root)
	run(t, m, "cd d0")
	if out := run(t, m, "pwd"); out.Merged.Head != filepath.Join(root, "d0")+"\n" {
		t.Errorf("next call ran in %q", out.Merged.Head)
	}
}

func TestCwdVanished(t *testing.T) {
	m := newManager(t, Config{})
	root := m.Cwd()
	run(t, m, "mkdir gone && cd gone")
	if m.Cwd() != filepath.Join(root, "gone") {
		t.Fatalf("cwd %q", m.Cwd())
	}
	if err := os.Remove(filepath.Join(root, "gone")); err != nil {
		t.Fatal(err)
	}
	out := run(t, m, "pwd")
	if out.Merged.Head != root+"\n" || out.Cwd != root || !strings.Contains(out.CwdReset, "no longer exists") {
		t.Errorf("output %q cwd %q note %q", out.Merged.Head, out.Cwd, out.CwdReset)
	}
	// A command that removes its own directory.
	run(t, m, "mkdir gone2 && cd gone2")
	out = run(t, m, "rmdir ../gone2")
	if out.Cwd != root || out.CwdReset == "" {
		t.Errorf("cwd %q note %q", out.Cwd, out.CwdReset)
	}
	if out := run(t, m, "pwd"); out.CwdReset != "" {
		t.Errorf("note repeated: %q", out.CwdReset)
	}
}

func TestRunConcurrent(t *testing.T) {
	m := newManager(t, Config{})
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			out, err := m.Run(context.Background(), fmt.Sprintf("echo %d; sleep 0.1; echo %d >&2", i, i), 20*time.Second)
			if err != nil {
				t.Error(err)
				return
			}
			if out.Stdout.Head != fmt.Sprintf("%d\n", i) || out.Stderr.Head != fmt.Sprintf("%d\n", i) || out.ExitCode != 0 {
				t.Errorf("call %d: %+v", i, out)
			}
		})
	}
	wg.Wait()
}

func TestEnvIsScrubbed(t *testing.T) {
	t.Setenv("HANDS_SECRET_TOKEN", "hunter2")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "hunter3")
	t.Setenv("LC_HANDS_TEST", "kept")
	m := newManager(t, Config{})
	out := run(t, m, "env")
	env := out.Stdout.Head
	for _, bad := range []string{"HANDS_SECRET_TOKEN", "hunter2", "hunter3", "__hands"} {
		if strings.Contains(env, bad) {
			t.Errorf("environment holds %q:\n%s", bad, env)
		}
	}
	for _, good := range []string{"PATH=", "HOME=", "LC_HANDS_TEST=kept", "TMPDIR=" + m.TempDir() + "\n"} {
		if !strings.Contains(env, good) {
			t.Errorf("environment lacks %q:\n%s", good, env)
		}
	}

	m2 := newManager(t, Config{Env: BuildEnv(os.Environ(), "EXTRA=1", "HOME=/elsewhere")})
	env = run(t, m2, "env").Stdout.Head
	if !strings.Contains(env, "EXTRA=1\n") || !strings.Contains(env, "HOME=/elsewhere\n") || strings.Contains(env, "hunter2") {
		t.Errorf("explicit additions:\n%s", env)
	}
}

func TestBuildEnv(t *testing.T) {
	env := BuildEnv([]string{"A=1", "PATH=/p", "GOPATH=/g", "LC_ALL=C", "GITHUB_TOKEN=x", "bad"}, "B=2", "A=3", "nonsense")
	want := []string{"PATH=/p", "GOPATH=/g", "LC_ALL=C", "B=2", "A=3"}
	if strings.Join(env, " ") != strings.Join(want, " ") {
		t.Errorf("BuildEnv = %q, want %q", env, want)
	}
	if env := BuildEnv(nil); len(env) != 1 || env[0] != "PATH="+defaultPath {
		t.Errorf("BuildEnv(nil) = %q", env)
	}
}

func TestCloseKillsForegroundAndRemovesFiles(t *testing.T) {
	tmp := filepath.Join(t.TempDir(), "session")
	m, err := NewManager(Config{TempDir: tmp, Grace: 200 * time.Millisecond}, t.TempDir(), "")
	if err != nil {
		t.Fatal(err)
	}
	mk := marker()
	done := make(chan *Output)
	go func() {
		out, _ := m.Run(context.Background(), "sleep "+mk+" & sleep "+mk, time.Minute)
		done <- out
	}()
	if _, err := m.Start("seq 100000; sleep "+mk, 0); err != nil {
		t.Fatal(err)
	}
	running(t, "sleep "+mk, 3)
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	out := <-done
	if out == nil || out.Signal == "" {
		t.Errorf("foreground run not killed: %+v", out)
	}
	gone(t, mk)
	if entries, _ := os.ReadDir(tmp); len(entries) != 0 {
		t.Errorf("files left in the temp dir: %v", entries)
	}
	if _, err := m.Run(context.Background(), "true", 0); !errors.Is(err, ErrClosed) {
		t.Errorf("Run after Close: %v", err)
	}
	if _, err := m.Start("true", 0); !errors.Is(err, ErrClosed) {
		t.Errorf("Start after Close: %v", err)
	}
	if err := m.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func TestOwnTempDirRemoved(t *testing.T) {
	m, err := NewManager(Config{}, t.TempDir(), "")
	if err != nil {
		t.Fatal(err)
	}
	run(t, m, "seq 100000 > /dev/null; echo x > $TMPDIR/f")
	tmp := m.TempDir()
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(tmp); !os.IsNotExist(err) {
		t.Errorf("temp dir %s left: %v", tmp, err)
	}
}

// The server dying by SIGKILL must take its commands with it: the jobs,
// their grandchildren, and the foreground command.
func TestServerDeathKillsCommands(t *testing.T) {
	mk := marker()
	helper := exec.Command(os.Args[0], "-test.run=^$")
	helper.Env = append(os.Environ(), "HANDS_JOBS_HELPER="+mk, "HANDS_JOBS_HELPER_DIR="+t.TempDir())
	stdout, err := helper.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := helper.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || line != "ready\n" {
		helper.Process.Kill()
		helper.Wait()
		t.Fatalf("helper said %q, %v", line, err)
	}
	running(t, "sleep "+mk, 5)
	helper.Process.Kill()
	helper.Wait()
	gone(t, mk)
}

// A process that left the group (setsid) and holds the output pipe cannot
// be killed with the group, but must not hang the call either.
func TestRunEscapedProcessDoesNotHang(t *testing.T) {
	m := newManager(t, Config{Grace: 100 * time.Millisecond})
	mk := marker()
	start := time.Now()
	out := run(t, m, "setsid sleep "+mk+" & echo back")
	if out.Merged.Head != "back\n" {
		t.Errorf("output %q", out.Merged.Head)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("call took %v", d)
	}
	for _, pid := range pidsWith("sleep\x00" + mk + "\x00") {
		if p, err := os.FindProcess(pid); err == nil {
			p.Kill()
		}
	}
	gone(t, mk)
}

// The final directory used to come back through a file in the session's
// temporary directory, which commands can write: a FIFO planted there hung
// the next call past its timeout, a link to /dev/zero made the server read
// until it ran out of memory. It now comes over a pipe; planting files
// under the old names, flooding the pipe or closing it changes nothing
// but the command's own directory.
func TestCwdPlantsAreHarmless(t *testing.T) {
	m := newManager(t, Config{})
	tmp := m.TempDir()
	root := t.TempDir()
	for i := 1; i <= 20; i++ {
		name := filepath.Join(tmp, ".bash-"+strconv.Itoa(i)+".cwd")
		if i%2 == 0 {
			if err := syscall.Mkfifo(name, 0o600); err != nil {
				t.Fatal(err)
			}
		} else if err := os.Symlink("/dev/zero", name); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct{ cmd, want string }{
		{"cd " + root, root},
		{"mkfifo $TMPDIR/fifo; cd /", "/"},
		{"cd " + root + "; head -c 20000000 /dev/zero >&9", root},
		{"cd /; exec 9>&-", root}, // the pipe closed: the directory stays
		{"cd /tmp; echo /etc >&9", "/tmp"},
		{"cd " + root + "; exec 9>$TMPDIR/lock", "/tmp"}, // 9 reused: not carried
	}
	for _, c := range cases {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		out, err := m.Run(ctx, c.cmd, 10*time.Second)
		cancel()
		if err != nil {
			t.Fatalf("%q: %v", c.cmd, err)
		}
		if out.TimedOut {
			t.Errorf("%q timed out", c.cmd)
		}
		want, _ := filepath.EvalSymlinks(c.want)
		if out.Cwd != want {
			t.Errorf("%q: cwd %q, want %q", c.cmd, out.Cwd, want)
		}
	}
	if b, err := os.ReadFile(filepath.Join(tmp, "lock")); err != nil || len(b) != 0 {
		t.Errorf("the command's own descriptor 9 got %q (%v), want nothing written to it", b, err)
	}
}
