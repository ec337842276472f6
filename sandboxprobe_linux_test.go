//go:build linux

package hands

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hands-dev/hands/internal/sandbox/nsinit"
	"github.com/hands-dev/hands/internal/testproc"
	"github.com/hands-dev/hands/tool"
)

// The probe runs in the background: a session starts while it is still
// running, and a command that arrives meanwhile waits for its result.
// With --sandbox strict and namespaces missing (forced by a helper that
// does not exist), that command is refused and runs nowhere, and the
// report says what is missing, once. With the default, the same command
// waits and then runs with Landlock alone.
func TestSandboxProbeInBackground(t *testing.T) {
	for _, mode := range []string{SandboxStrict, SandboxAuto} {
		t.Run(mode, func(t *testing.T) {
			root := t.TempDir()
			rt, err := New(Options{Roots: []string{root}, Sandbox: mode, SandboxHelper: filepath.Join(root, "no-such-helper")})
			if err != nil {
				t.Fatal(err)
			}
			defer rt.Close()
			entered, release := make(chan struct{}), make(chan struct{})
			rt.sandbox.probing = func() { close(entered); <-release }
			reports := make(chan []string, 2)
			rt.ProbeSandbox(func(missing []string) { reports <- missing })
			<-entered // the probe runs, and is held

			s, err := rt.NewSession() // does not wait for the probe
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			answered := make(chan tool.Result, 1)
			go func() {
				in, _ := json.Marshal(map[string]any{"command": "echo ran > " + filepath.Join(root, "ran")})
				answered <- s.Call(context.Background(), tool.Call{Name: "bash", Input: in})
			}()
			select {
			case res := <-answered:
				t.Fatalf("the command was answered before the probe finished: %q", res.TextOf())
			case rep := <-reports:
				t.Fatalf("reported before the probe finished: %q", rep)
			default:
			}
			close(release)
			res := <-answered
			rep := <-reports
			if len(rep) == 0 || !strings.Contains(rep[0], "namespaces") {
				t.Errorf("the report does not say namespaces are missing: %q", rep)
			}
			_, statErr := os.Stat(filepath.Join(root, "ran"))
			if mode == SandboxStrict {
				if !res.IsError || !strings.Contains(res.TextOf(), "--sandbox strict") {
					t.Errorf("strict ran a command it could not confine: %q", res.TextOf())
				}
				if statErr == nil {
					t.Error("the command ran")
				}
			} else if res.IsError || statErr != nil {
				t.Errorf("the default did not run the command with Landlock alone: %q, %v", res.TextOf(), statErr)
			}
			if again := rt.SandboxWarnings(); !slices.Equal(again, rep) {
				t.Errorf("the warnings changed after the probe: %q, then %q", rep, again)
			}
			select {
			case rep := <-reports:
				t.Errorf("reported twice: %q", rep)
			default:
			}
		})
	}
}

// Close waits for a probe still running (its spawner uses the runtime's
// temporary directory).
func TestCloseWaitsForTheProbe(t *testing.T) {
	root := t.TempDir()
	rt, err := New(Options{Roots: []string{root}, SandboxHelper: filepath.Join(root, "no-such-helper")})
	if err != nil {
		t.Fatal(err)
	}
	entered, release := make(chan struct{}), make(chan struct{})
	rt.sandbox.probing = func() { close(entered); <-release }
	rt.ProbeSandbox(func([]string) {})
	<-entered
	closed := make(chan error, 1)
	go func() { closed <- rt.Close() }()
	select {
	case <-closed:
		t.Fatal("Close returned while the probe ran")
	default:
	}
	close(release)
	if err := <-closed; err != nil {
		t.Fatal(err)
	}
}

// The probe's spawner is not thrown away: it is set up for the directory
// of the next session, which takes it, so that the first command of that
// session runs in it and no second spawner starts. A second session, whose
// temporary directory differs, gets a spawner of its own. Counted through
// /proc: the spawners alive, children of this process.
func TestProbeSpawnerServesTheFirstSession(t *testing.T) {
	root := t.TempDir()
	rt, err := New(Options{Roots: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	rt.ProbeSandbox(func([]string) {})
	rt.sandbox.background.Wait()
	if probe, _ := rt.sandboxState(); !probe.Namespaces {
		t.Skipf("namespaces not available here: %s", probe.Reason)
	}
	rt.mu.Lock()
	probed := rt.sandbox.spawner.PID()
	rt.mu.Unlock()
	if got := spawnersAlive(t); !slices.Equal(got, []int{probed}) {
		t.Fatalf("after the probe, spawners %v; want only the probe's, %d", got, probed)
	}

	bash := func(s *Session, command string) string {
		in, _ := json.Marshal(map[string]any{"command": command})
		res := s.Call(context.Background(), tool.Call{Name: "bash", Input: in})
		if res.IsError {
			t.Fatalf("bash %q: %s", command, res.TextOf())
		}
		return res.TextOf()
	}
	first, err := rt.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := filepath.Dir(first.TempDir()), filepath.Dir(rt.sandbox.spawnerTmp); got != want {
		t.Fatalf("the first session's directory is %s, not the one the probe made, %s", got, want)
	}
	// The command writes the session's temporary directory, which only
	// that session's spawner has writable (the second's is refused below).
	bash(first, "echo first > $TMPDIR/f && cat $TMPDIR/f")
	if got := spawnersAlive(t); !slices.Equal(got, []int{probed}) {
		t.Errorf("after the first session's command, spawners %v; want only the probe's, %d", got, probed)
	}

	second, err := rt.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	if out := bash(second, "echo x > "+filepath.Join(first.TempDir(), "g")+" 2>&1; echo end"); !strings.Contains(out, "Read-only file system") {
		t.Errorf("the second session's write to the first one's temporary directory was not refused as read-only: %q", out)
	}
	if _, err := os.Stat(filepath.Join(first.TempDir(), "g")); err == nil {
		t.Error("the second session wrote the first one's temporary directory")
	}
	if got := spawnersAlive(t); len(got) != 2 || !slices.Contains(got, probed) {
		t.Errorf("with two sessions that ran commands, spawners %v; want the probe's, %d, and one more", got, probed)
	}
	second.Close()
	first.Close()
	if got := spawnersAlive(t); len(got) != 0 {
		t.Errorf("spawners %v outlived their sessions", got)
	}
}

// spawnersAlive lists the PIDs of this process's children that are
// sandbox spawners, in order.
func spawnersAlive(t *testing.T) []int {
	t.Helper()
	return testproc.Children(func(_, arg0 string) bool { return arg0 == nsinit.SpawnerArg0 })
}

// Without a probe in the background, the first session's first command
// probes: the probe's spawner is that session's, and no directory or
// spawner is left waiting for a next session.
func TestProbeOnFirstCommandIsTheSessions(t *testing.T) {
	rt, s := runtimeWithSession(t)
	writeTempDir(t, s)
	if probe, _ := rt.sandboxState(); !probe.Namespaces {
		t.Skipf("namespaces not available here: %s", probe.Reason)
	}
	if got := spawnersAlive(t); len(got) != 1 {
		t.Errorf("after the first command, spawners %v; want one, the session's", got)
	}
	rt.mu.Lock()
	spareDir, spare := rt.sandbox.spareDir, rt.sandbox.spawner
	rt.mu.Unlock()
	if spareDir != "" || spare != nil {
		t.Errorf("the probe left a directory %q or a spawner (%v) for a next session", spareDir, spare != nil)
	}
}

// PrepareSandbox probes for a session started before any probe: the
// probe's spawner is that session's, its first command runs in it, no
// directory or spawner is made ahead for a next session, and WaitProbe
// waits for it. A session closing waits for its probe; one already closed
// is not probed for.
func TestPrepareSandboxIsTheSessions(t *testing.T) {
	rt, s := runtimeWithSession(t)
	reports := make(chan []string, 1)
	s.PrepareSandbox(func(missing []string) { reports <- missing })
	rt.WaitProbe()
	if probe, _ := rt.sandboxState(); !probe.Namespaces {
		t.Skipf("namespaces not available here: %s", probe.Reason)
	}
	rt.mu.Lock()
	spare, tmp, probed := rt.sandbox.spareDir, rt.sandbox.spawnerTmp, rt.sandbox.spawner.PID()
	rt.mu.Unlock()
	if spare != "" || tmp != s.TempDir() {
		t.Fatalf("the probe made a directory ahead (%q) or a spawner for %q, not for the session's %q", spare, tmp, s.TempDir())
	}
	writeTempDir(t, s)
	if got := spawnersAlive(t); !slices.Equal(got, []int{probed}) {
		t.Errorf("after the session's first command, spawners %v; want only the probe's, %d", got, probed)
	}
	select {
	case rep := <-reports:
		t.Errorf("reported %q though the sandbox is whole", rep)
	default:
	}

	// Closing a session waits for its probe.
	rt2, err := New(Options{Roots: []string{t.TempDir()}})
	if err != nil {
		t.Fatal(err)
	}
	defer rt2.Close()
	entered, release := make(chan struct{}), make(chan struct{})
	rt2.sandbox.probing = func() { close(entered); <-release }
	var once sync.Once
	let := func() { once.Do(func() { close(release) }) }
	defer let() // before rt2.Close, which waits for the probe
	s2, err := rt2.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	s2.PrepareSandbox(func([]string) {})
	<-entered
	closed := make(chan error, 1)
	go func() { closed <- s2.Close() }()
	select {
	case <-closed:
		t.Fatal("the session's Close returned while its probe ran")
	case <-time.After(200 * time.Millisecond): // still waiting, as it should
	}
	let()
	if err := <-closed; err != nil {
		t.Fatal(err)
	}
	s2.PrepareSandbox(func([]string) { t.Error("a closed session's probe reported") })
	rt2.WaitProbe()
}

// runtimeWithSession returns a runtime over a temporary root and a session
// of it, both closed at the test's end.
func runtimeWithSession(t *testing.T) (*Runtime, *Session) {
	t.Helper()
	rt, err := New(Options{Roots: []string{t.TempDir()}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close() })
	s, err := rt.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return rt, s
}

// writeTempDir runs a bash command of s that writes its temporary
// directory, which only the session's own spawner has writable.
func writeTempDir(t *testing.T, s *Session) {
	t.Helper()
	in, _ := json.Marshal(map[string]any{"command": "echo ok > $TMPDIR/f && cat $TMPDIR/f"})
	if res := s.Call(context.Background(), tool.Call{Name: "bash", Input: in}); res.IsError || !strings.Contains(res.TextOf(), "ok") {
		t.Fatalf("bash writing the session's temporary directory: %s", res.TextOf())
	}
}
