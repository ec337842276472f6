package isolate

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hands-dev/hands/internal/jobs"
	"github.com/hands-dev/hands/internal/sandbox/confine"
	"github.com/hands-dev/hands/internal/testproc"
)

// session returns a jobs.Manager whose commands run through a spawner of
// iso, closed with the test.
func session(t *testing.T, iso *Isolator, root, tmp string) (*jobs.Manager, *Spawner) {
	t.Helper()
	available(t, iso)
	sp := iso.NewSpawner()
	m, err := jobs.NewManager(jobs.Config{Spawner: sp, TempDir: tmp, Grace: time.Second}, root, root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m, sp
}

// configs are the sandboxes the spawner tests run in: with Landlock (and
// its signal scoping) and without, so that the spawner's own defences are
// tested, not only Landlock's.
func configs(t *testing.T) map[string]Config {
	root, tmp := t.TempDir(), t.TempDir()
	return map[string]Config{
		"landlock":    {Roots: []string{root}, TempDir: tmp, Landlock: &confine.Policy{Roots: []string{root}, TempDir: tmp, Scoped: true}},
		"no-landlock": {Roots: []string{root}, TempDir: tmp},
	}
}

func run(t *testing.T, m *jobs.Manager, command string) *jobs.Output {
	t.Helper()
	out, err := m.Run(context.Background(), command, 20*time.Second)
	if err != nil {
		t.Fatalf("%s: %v", command, err)
	}
	return out
}

// The status of the shell comes through the spawner unchanged: its exit
// code, or the signal that ended it; the shell leads its own process
// group, whose number is the one Output.PGID gives.
func TestSpawnerStatusPassesThrough(t *testing.T) {
	c := configs(t)["landlock"]
	m, _ := session(t, New(c), c.Roots[0], c.TempDir)
	for script, want := range map[string]string{
		"exit 3":        "3 ",
		"exit 143":      "143 ",
		"kill -TERM $$": "143 SIGTERM",
		"kill -KILL $$": "137 SIGKILL",
		"kill -SEGV $$": "139 SIGSEGV",
	} {
		out := run(t, m, script)
		if got := fmt.Sprintf("%d %s", out.ExitCode, out.Signal); got != want {
			t.Errorf("%s: %q, want %q", script, got, want)
		}
	}
	out := run(t, m, `read -r _ _ _ _ pgid _ < /proc/$$/stat; echo "$$ $pgid"`)
	f := strings.Fields(out.Merged.Head)
	if len(f) != 2 || f[0] != f[1] || f[0] != strconv.Itoa(out.PGID) {
		t.Errorf("the command's pid and process group (want both %d): %q", out.PGID, out.Merged.Head)
	}
}

// A timeout's SIGTERM reaches the command through the spawner, and the
// command's status says SIGTERM ended it; so does a kill sent at once
// after a background job's start (nothing of the spawner's can lose it).
func TestSpawnerForwardsSIGTERM(t *testing.T) {
	c := configs(t)["landlock"]
	m, _ := session(t, New(c), c.Roots[0], c.TempDir)
	out, err := m.Run(context.Background(), "echo ready; sleep 30", 500*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	if !out.TimedOut || out.Signal != "SIGTERM" || !strings.Contains(out.Merged.Head, "ready") {
		t.Errorf("timed out %v, signal %q, output %q; want a timeout ended by SIGTERM", out.TimedOut, out.Signal, out.Merged.Head)
	}
	// A loop of builtins: bash checks for a caught SIGTERM between them.
	// (`sleep 30` would test bash, not the spawner: a SIGTERM that bash
	// catches just before it forks sleep, once it has an EXIT trap, is
	// acted on only when sleep ends.)
	id, err := m.Start("while :; do :; done", 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Kill(id); err != nil {
		t.Fatal(err)
	}
	j, err := m.Output(context.Background(), id, true, 20*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if j.Status != jobs.Killed || j.Signal != "SIGTERM" {
		t.Errorf("a job killed at once: %s %q, want killed by SIGTERM", j.Status, j.Signal)
	}
}

// A setsid grandchild of one command dies when that command ends, while a
// background command of the same session, running at the same time in
// the same namespaces, runs on; it dies when the session closes.
func TestSpawnerEndsEachCommandAlone(t *testing.T) {
	c := configs(t)["landlock"]
	m, _ := session(t, New(c), c.Roots[0], c.TempDir)
	markA, markB := "8123.1101", "8123.1102"
	id, err := m.Start("setsid -f sleep "+markB+"; sleep "+markB, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := run(t, m, "setsid -f sleep "+markA+"; setsid sleep "+markA+" & until [ $(pgrep -fxc 'sleep "+markB+"') = 2 ]; do sleep 0.05; done; echo started")
	if !strings.Contains(out.Merged.Head, "started") {
		t.Fatalf("%q", out.Merged.Head)
	}
	if left := testproc.PIDsOf(markA); len(left) > 0 {
		t.Errorf("setsid processes outlived their command: %v", left)
	}
	if out := run(t, m, "pgrep -fxc 'sleep "+markB+"'"); out.Merged.Head != "2\n" {
		t.Errorf("the concurrent background command has %q sleeps left, want 2: one command's end killed another's", out.Merged.Head)
	}
	if j, err := m.Output(context.Background(), id, false, 0); err != nil || j.Status != jobs.Running {
		t.Errorf("the background job: %v %v", j, err)
	}
	m.Close()
	if left := testproc.PIDsOf(markB); len(left) > 0 {
		t.Errorf("a background job's setsid child outlived the session: %v", left)
	}
}

// A command can neither signal nor ptrace the spawner, nor read its
// environment, memory or descriptors, nor make a user namespace (whose
// capabilities would let it leave the namespace that tags its
// processes) — with Landlock's scoping and without it.
func TestSpawnerUntouchable(t *testing.T) {
	for name, c := range configs(t) {
		t.Run(name, func(t *testing.T) {
			m, sp := session(t, New(c), c.Roots[0], c.TempDir)
			run(t, m, "true")
			pid := sp.PID()
			for _, sig := range []string{"TERM", "INT", "HUP", "QUIT", "SEGV", "BUS", "ABRT", "USR1", "PIPE", "KILL", "STOP"} {
				run(t, m, "kill -"+sig+" 1")
			}
			tries := map[string]string{
				"cat /proc/1/environ":                         "Permission denied",
				"head -c 10 /proc/1/mem":                      "Permission denied",
				"ls -l /proc/1/fd/0":                          "Permission denied",
				"cat /proc/1/fd/3":                            "Permission denied",
				"unshare -U true":                             "No space left on device",
				"unshare -Ur true":                            "No space left on device",
				"unshare --uts hostname x":                    "Operation not permitted",
				"cat /proc/self/status":                       "CapEff:\t0000000000000000",
				"hostname x":                                  "must be root",
				"echo 1 > /proc/sys/user/max_user_namespaces": "Read-only file system",
			}
			if _, err := exec.LookPath("python3"); err == nil {
				tries[`python3 -c 'import ctypes, os; l = ctypes.CDLL(None, use_errno=True); r = l.ptrace(16, 1, 0, 0); print("ptrace", r, os.strerror(ctypes.get_errno()))'`] = "ptrace -1 Operation not permitted"
			}
			for cmd, want := range tries {
				if out := run(t, m, cmd+" 2>&1"); !strings.Contains(out.Merged.Head, want) {
					t.Errorf("%s: %q, want %q", cmd, out.Merged.Head, want)
				}
			}
			if out := run(t, m, "echo alive"); out.Merged.Head != "alive\n" || sp.PID() != pid {
				t.Errorf("the spawner did not survive (pid %d, now %d): %q", pid, sp.PID(), out.Merged.Head)
			}
			var st syscall.Stat_t
			if err := syscall.Stat(fmt.Sprintf("/proc/%d/task", pid), &st); err != nil {
				t.Errorf("the spawner %d is gone: %v", pid, err)
			}
			if b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); strings.Contains(string(b), ") T ") {
				t.Errorf("the spawner is stopped: %s", b)
			}
		})
	}
}

// When the spawner dies (here killed from outside), the commands it ran
// end as killed, and the next command starts a new one.
func TestSpawnerRestartsAfterItDied(t *testing.T) {
	c := configs(t)["landlock"]
	m, sp := session(t, New(c), c.Roots[0], c.TempDir)
	id, err := m.Start("sleep 8123.1201", 0)
	if err != nil {
		t.Fatal(err)
	}
	first := sp.PID()
	syscall.Kill(first, syscall.SIGKILL)
	j, err := m.Output(context.Background(), id, true, 20*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if j.Status == jobs.Running || j.Signal != "SIGKILL" {
		t.Errorf("the job after its spawner died: %s %q, want ended by SIGKILL", j.Status, j.Signal)
	}
	if left := testproc.PIDsOf("8123.1201"); len(left) > 0 {
		t.Errorf("a command outlived its spawner: %v", left)
	}
	out := run(t, m, "echo again")
	if out.Merged.Head != "again\n" || sp.PID() == first || sp.PID() == 0 {
		t.Errorf("after the spawner died: %q, spawner %d (was %d)", out.Merged.Head, sp.PID(), first)
	}
}

// serverEnv makes the test binary a small server for
// TestSpawnerDiesWithTheServer.
const serverEnv = "HANDS_SPAWNER_TEST_SERVER"

// The spawner dies with the server, however the server dies: SIGKILL the
// server, and nothing of the session is left, setsid processes included.
func TestSpawnerDiesWithTheServer(t *testing.T) {
	mark := "8123.1301"
	if v := os.Getenv(serverEnv); v != "" {
		root, tmp, _ := strings.Cut(v, "|")
		m, sp := session(t, New(Config{Roots: []string{root}, TempDir: tmp}), root, tmp)
		if _, err := m.Start("setsid -f sleep "+mark+"; sleep "+mark, 0); err != nil {
			t.Fatal(err)
		}
		run(t, m, "until [ $(pgrep -fxc 'sleep "+mark+"') = 2 ]; do sleep 0.05; done")
		fmt.Printf("spawner %d\n", sp.PID())
		select {} // until killed
	}
	c := configs(t)["no-landlock"]
	available(t, New(c))
	cmd := exec.Command(os.Args[0], "-test.run=^TestSpawnerDiesWithTheServer$")
	cmd.Env = append(os.Environ(), serverEnv+"="+c.Roots[0]+"|"+c.TempDir)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	line, _ := bufio.NewReader(stdout).ReadString('\n')
	var pid int
	if _, err := fmt.Sscanf(line, "spawner %d", &pid); err != nil {
		t.Fatalf("the server said %q", line)
	}
	if n := len(testproc.PIDsOf(mark)); n < 2 {
		t.Fatalf("%d processes of the session running, want the job and its setsid child", n)
	}
	pidfd, _, e := syscall.Syscall(434, uintptr(pid), 0, 0) // pidfd_open
	if e != 0 {
		t.Fatalf("pidfd_open: %v", e)
	}
	defer syscall.Close(int(pidfd))
	cmd.Process.Kill()
	cmd.Wait()
	// The spawner's end (its pidfd turns readable) comes after the
	// kernel has killed and reaped everything in its PID namespace.
	var set syscall.FdSet
	set.Bits[pidfd/64] |= 1 << (pidfd % 64)
	tv := syscall.Timeval{Sec: 30}
	if n, err := syscall.Select(int(pidfd)+1, &set, nil, nil, &tv); n != 1 {
		t.Fatalf("the spawner outlived the server: %v", err)
	}
	if left := testproc.PIDsOf(mark); len(left) > 0 {
		t.Errorf("processes of the session outlived the server: %v", left)
	}
}

// A file a deny pattern matches is masked from the first command that
// starts after it appears, once however many commands start, and again
// when the server removed it and it came back (which detached its mask).
func TestSpawnerMasksWhatAppears(t *testing.T) {
	root, tmp := t.TempDir(), t.TempDir()
	secret := filepath.Join(root, ".env")
	iso := New(Config{Roots: []string{root}, TempDir: tmp, MaskMatches: func() []string { return []string{secret} }})
	m, _ := session(t, iso, root, tmp)
	run(t, m, "true")
	read := "cat .env; echo; grep -c ' " + secret + " ' /proc/self/mountinfo"
	for i, content := range []string{"s3cr3t-1", "s3cr3t-1", "s3cr3t-2"} {
		if i == 2 {
			os.Remove(secret)
		}
		if err := os.WriteFile(secret, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		if out := run(t, m, read); out.Merged.Head != "\n1\n" {
			t.Errorf("round %d: %q, want the file empty and masked once", i, out.Merged.Head)
		}
	}
}

// A spawner that cannot start makes the command fail, saying why; nothing
// runs unconfined. A command inherits no descriptor of the spawner's, nor,
// in a warm shell (the second command), the ones it was given its command
// through.
func TestSpawnerFailsClearly(t *testing.T) {
	c := configs(t)["landlock"]
	m, _ := session(t, New(c), c.Roots[0], c.TempDir)
	for range 2 {
		if out := run(t, m, "ls -l /proc/$$/fd/ | grep -cE 'socket:|uts:|anon_inode:|tmpfs|memfd:'"); out.Merged.Head != "0\n" {
			t.Errorf("the shell inherited descriptors of the spawner's (its socket, a tag, a mask) or its command's memfd: %q", out.Merged.Head)
		}
	}
	c.Helper = "/bin/true" // exits at once, never ready
	bad := New(c).NewSpawner()
	defer bad.Close()
	m2, err := jobs.NewManager(jobs.Config{Spawner: bad, TempDir: c.TempDir, Grace: time.Second}, c.Roots[0], c.Roots[0])
	if err != nil {
		t.Fatal(err)
	}
	defer m2.Close()
	out, err := m2.Run(context.Background(), "echo ran > "+c.Roots[0]+"/ran", 10*time.Second)
	if err == nil || out != nil || !strings.Contains(err.Error(), "spawner ended (exit status 0)") {
		t.Errorf("Run: %v, %v; want an error saying the spawner ended", out, err)
	}
	if _, err := os.Stat(filepath.Join(c.Roots[0], "ran")); err == nil {
		t.Error("the command ran")
	}
}

// A job killed right after it starts dies of the SIGTERM, whatever it is
// doing then (starting, running a builtin loop, waiting for a child),
// and never waits out the grace to be SIGKILLed: no process the command
// starts while the signal is on its way escapes it. This is also the
// early SIGTERM: sent before the shell has run anything.
func TestSpawnerKillAtOnce(t *testing.T) {
	c := configs(t)["landlock"]
	m, _ := session(t, New(c), c.Roots[0], c.TempDir)
	for i := range 40 {
		cmd := []string{"sleep 8123.1401", "while :; do :; done", "sleep 8123.1401; echo", "sh -c 'sleep 8123.1401'"}[i%4]
		id, err := m.Start(cmd, 0)
		if err != nil {
			t.Fatal(err)
		}
		if err := m.Kill(id); err != nil {
			t.Fatal(err)
		}
		j, err := m.Output(context.Background(), id, true, 60*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		if j.Status != jobs.Killed || j.Signal != "SIGTERM" {
			t.Errorf("try %d, %q killed at once: %s %q, want killed by SIGTERM", i, cmd, j.Status, j.Signal)
		}
	}
	if left := testproc.PIDsOf("8123.1401"); len(left) > 0 {
		t.Errorf("processes outlived their jobs: %v", left)
	}
}
