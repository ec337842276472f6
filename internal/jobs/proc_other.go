//go:build !linux

package jobs

import (
	"syscall"
)

// Elsewhere than Linux the package runs commands with fewer guarantees:
// no parent-death signal and signals go to the shell alone, not its group.

func sysProcAttr() *syscall.SysProcAttr { return nil }

// waitLeader blocks until the shell has exited, and reaps it.
func (p *proc) waitLeader() { p.cmd.Wait() }

func (p *proc) reap() {}

func (p *proc) kill(sig syscall.Signal) {
	if sig == syscall.SIGKILL {
		p.cmd.Process.Kill()
		return
	}
	p.cmd.Process.Signal(sig)
}

var signalNames = map[syscall.Signal]string{
	syscall.SIGKILL: "SIGKILL", syscall.SIGTERM: "SIGTERM", syscall.SIGINT: "SIGINT",
}

// watchdog does nothing here: without a process group of their own,
// commands share the server's, which it must not kill.
type watchdog struct{}

func (*watchdog) start(string)   {}
func (*watchdog) send(byte, int) {}
func (*watchdog) stop()          {}
