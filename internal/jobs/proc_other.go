//go:build !unix

package jobs

import (
	"os"
	"syscall"
)

// Elsewhere than Unix the package runs commands with fewer guarantees: no
// process group, so signals go to the shell alone, and no parent-death
// signal. Exec, which promises a group, is not supported.

// GroupsSupported reports whether commands run in a process group of their
// own that signals reach as a whole; Exec needs it.
const GroupsSupported = false

func sysProcAttr() *syscall.SysProcAttr { return nil }

// waitLeader blocks until the shell has exited, and reaps it.
func (p *proc) waitLeader() { p.cmd.Wait() }

func (p *proc) reap() {}

func (p *proc) kill(sig syscall.Signal) {
	if p.sp != nil {
		p.sp.Signal(sig)
		return
	}
	if sig == syscall.SIGKILL {
		p.cmd.Process.Kill()
		return
	}
	p.cmd.Process.Signal(sig)
}

var signalNames = map[syscall.Signal]string{
	syscall.SIGKILL: "SIGKILL", syscall.SIGTERM: "SIGTERM", syscall.SIGINT: "SIGINT",
}

// outputPipe makes a pipe for a command's output.
func outputPipe() (r, w *os.File, err error) { return os.Pipe() }
