package jobs

import (
	"os"
	"syscall"
)

// A Spawner starts a Manager's commands inside a sandbox that outlives
// each of them, such as the per-session spawner of package isolate (a
// process that starts commands in the session's namespaces, so a command
// costs no sandbox set-up of its own). The Manager closes it when it
// closes, after its commands have ended.
type Spawner interface {
	// Spawn starts the shell. An error means it did not run (and never
	// that it ran less confined).
	Spawn(SpawnRequest) (Spawned, error)
	// Close ends the sandbox and everything still in it.
	Close() error
}

// SpawnRequest is one command for a Spawner.
type SpawnRequest struct {
	Path      string
	Args, Env []string
	Dir       string
	// Files are the command's descriptors by number; a nil one is
	// closed, and standard input (0) is /dev/null when not given.
	Files []*os.File
	// Gate, if not 0, makes the shell a warm one: the spawner gives it,
	// as descriptor Gate, the read end of a pipe whose write end it
	// keeps, and the Spawned is Gated. What the sandbox must bring up to
	// date as a command starts waits until its Open.
	Gate int
}

// A Gated is a Spawned started with a SpawnRequest.Gate.
type Gated interface {
	// Open brings the sandbox up to date for the command and lets the
	// shell go on, without waiting for either.
	Open() error
	// OpenErr, once the shell has exited, says why Open could not let it
	// go on (the shell then ran nothing), if it could not.
	OpenErr() error
}

// Spawned is one command a Spawner started.
type Spawned interface {
	// PID is the shell's PID as the command sees it, which leads its
	// process group.
	PID() int
	// Signal sends sig to every process of the command, whatever its
	// process group or session, until Release.
	Signal(sig syscall.Signal)
	// Exited is closed once the shell has exited (or the sandbox died).
	Exited() <-chan struct{}
	// Status, once Exited is closed, is the shell's wait status, when
	// known (not when the sandbox died under it).
	Status() (syscall.WaitStatus, bool)
	// Release kills what is left of the command and waits until nothing
	// is; the command is forgotten.
	Release()
}
