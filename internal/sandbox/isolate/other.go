//go:build !linux

package isolate

import (
	"errors"
	"os/exec"
	"runtime"
	"syscall"
)

var errUnsupported = errors.New("namespaces are Linux only; not on " + runtime.GOOS)

// Wrap fails: there are no namespaces on this OS.
func (i *Isolator) Wrap(*exec.Cmd) (func() (syscall.WaitStatus, bool), error) {
	return nil, errUnsupported
}

// Report says what the sandbox enforces on this machine.
type Report struct {
	Namespaces, Network bool
	Reason              string
}

// Probe reports that namespaces are missing.
func (i *Isolator) Probe() Report { return Report{Reason: errUnsupported.Error()} }
