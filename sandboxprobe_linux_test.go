//go:build linux

package hands

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

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
