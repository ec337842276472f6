//go:build !linux

package isolate

import (
	"errors"
	"runtime"

	"github.com/hands-dev/hands/internal/jobs"
)

var errUnsupported = errors.New("namespaces are Linux only; not on " + runtime.GOOS)

// Spawner starts nothing here.
type Spawner struct{}

// NewSpawner returns a Spawner that fails: there are no namespaces here.
func (i *Isolator) NewSpawner() *Spawner { return &Spawner{} }

// Spawn fails: there are no namespaces on this OS.
func (s *Spawner) Spawn(jobs.SpawnRequest) (jobs.Spawned, error) { return nil, errUnsupported }

// Close does nothing.
func (s *Spawner) Close() error { return nil }

// Report says what the sandbox enforces on this machine.
type Report struct {
	Namespaces, Network bool
	Reason              string
}

// Probe reports that namespaces are missing.
func (s *Spawner) Probe() Report { return Report{Reason: errUnsupported.Error()} }
