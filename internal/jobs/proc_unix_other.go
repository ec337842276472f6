//go:build unix && !linux

package jobs

import (
	"os"
	"syscall"
)

// On Unix systems other than Linux the shell gets a session and process
// group of its own, but no parent-death signal (nor the watchdog), and the
// shell is reaped as soon as it exits: a signal to what is left of its
// group then relies on the group id not having been reused, which holds
// while any member lives.

func sysProcAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }

// waitLeader blocks until the shell has exited, and reaps it.
func (p *proc) waitLeader() { p.cmd.Wait() }

func (p *proc) reap() {}

// outputPipe makes a pipe for a command's output.
func outputPipe() (r, w *os.File, err error) { return os.Pipe() }
