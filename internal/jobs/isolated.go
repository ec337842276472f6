package jobs

import (
	"os/exec"
	"sync"
	"syscall"
)

// IsolatedStatus is what Config.Isolate returns for a command it rewrote
// to run under a wrapper (a sandbox helper that runs the shell as its
// child): called once the wrapper has been reaped, it gives the shell's own
// wait status, when the wrapper passed it on, and releases what the
// wrapper's rewriting opened for it. The shell's status replaces the
// wrapper's, so a command reads the same however it was confined: a shell
// the timeout's SIGTERM ended reads "killed by SIGTERM", not as the
// wrapper's exit code 143.
type IsolatedStatus func() (syscall.WaitStatus, bool)

// isolated holds the IsolatedStatus of each started command that has one,
// until its wrapper is reaped (or fails to start).
var isolated sync.Map // *exec.Cmd → IsolatedStatus

// takeIsolated calls and forgets cmd's IsolatedStatus, if it has one.
func takeIsolated(cmd *exec.Cmd) (syscall.WaitStatus, bool) {
	f, ok := isolated.LoadAndDelete(cmd)
	if !ok {
		return 0, false
	}
	return f.(IsolatedStatus)()
}
