package jobs

import (
	"os/exec"
	"sync"
	"syscall"
	"time"
)

// Isolated is what Config.Isolate returns for a command it rewrote to run
// under a wrapper (a sandbox helper that runs the shell as its child), so
// that the command reads the same however it was confined: a shell the
// timeout's SIGTERM ended reads "killed by SIGTERM", not as the wrapper's
// exit code 143.
type Isolated interface {
	// Ready is closed once the wrapper passes signals on and is about to
	// start the shell: a signal sent before may be lost, so the group's
	// SIGTERM waits for it (at most the grace), and the command's timeout
	// starts then.
	Ready() <-chan struct{}
	// Status, called once the wrapper has been reaped (or failed to
	// start), gives the shell's own wait status, when the wrapper passed
	// it on, and releases what the rewriting opened.
	Status() (syscall.WaitStatus, bool)
	// PID, called after Status, is the shell's PID as the wrapper saw it
	// (in its own PID namespace), which leads the shell's process group
	// there; 0 when unknown.
	PID() int
}

// isolated holds the Isolated of each started command that has one,
// until its wrapper is reaped (or fails to start).
var isolated sync.Map // *exec.Cmd → Isolated

// takeIsolated calls and forgets cmd's Isolated status and the shell's
// PID inside the wrapper, if it has them.
func takeIsolated(cmd *exec.Cmd) (ws syscall.WaitStatus, ok bool, pid int) {
	v, found := isolated.LoadAndDelete(cmd)
	if !found {
		return ws, false, 0
	}
	ws, ok = v.(Isolated).Status()
	return ws, ok, v.(Isolated).PID()
}

// awaitWrapper waits until p's wrapper (if it has one) is about to start
// the shell, p's shell has exited, done or stop is closed, or bound has
// passed, whichever comes first (a nil channel never is). A timeout
// starts after it, so the sandbox's set-up does not eat a command's time,
// and a SIGTERM waits for it, so that it is not lost.
func (p *proc) awaitWrapper(bound time.Duration, done, stop <-chan struct{}) {
	v, ok := isolated.Load(p.cmd)
	if !ok {
		return
	}
	t := time.NewTimer(bound)
	defer t.Stop()
	select {
	case <-v.(Isolated).Ready():
	case <-p.exited:
	case <-done:
	case <-stop:
	case <-t.C:
	}
}
