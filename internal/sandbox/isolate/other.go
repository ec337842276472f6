//go:build !linux

package isolate

import (
	"errors"
	"os/exec"
	"runtime"
	"syscall"

	"github.com/hands-dev/hands/internal/jobs"
)

var errUnsupported = errors.New("namespaces are Linux only; not on " + runtime.GOOS)

// Wrap fails: there are no namespaces on this OS.
func (i *Isolator) Wrap(*exec.Cmd) (*Status, error) { return nil, errUnsupported }

// Spawner starts nothing here.
type Spawner struct{}

// NewSpawner returns a Spawner that fails: there are no namespaces here.
func (i *Isolator) NewSpawner() *Spawner { return &Spawner{} }

// Spawn fails: there are no namespaces on this OS.
func (s *Spawner) Spawn(jobs.SpawnRequest) (jobs.Spawned, error) { return nil, errUnsupported }

// Close does nothing.
func (s *Spawner) Close() error { return nil }

// Status is what the helper of one command reports (Linux only).
type Status struct{}

// Ready is never closed: nothing runs.
func (s *Status) Ready() <-chan struct{} { return nil }

// PID knows nothing.
func (s *Status) PID() int { return 0 }

// Status knows nothing.
func (s *Status) Status() (ws syscall.WaitStatus, ok bool) { return ws, false }

// Report says what the sandbox enforces on this machine.
type Report struct {
	Namespaces, Network bool
	Reason              string
}

// Probe reports that namespaces are missing.
func (i *Isolator) Probe() Report { return Report{Reason: errUnsupported.Error()} }
