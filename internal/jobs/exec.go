package jobs

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"time"
)

// ErrUnsupported means this OS cannot run a command in a process group of
// its own, so Exec cannot promise to kill everything the command started.
var ErrUnsupported = errors.New("running a command in its own process group is not supported on this OS")

// execWindow is how many bytes of each end of a stream Exec keeps.
const execWindow = 1 << 20

// Command is one command for Exec.
type Command struct {
	// Path is the program to run; Args its arguments, Args[0] its name.
	Path string
	Args []string
	// Dir is the directory it starts in; empty means the server's.
	Dir string
	// Env is its environment; nil means the server's.
	Env []string
	// Stdin is what it reads on stdin.
	Stdin []byte
	// Timeout bounds it; zero or less means only ctx does.
	Timeout time.Duration
	// Grace is how long its group has between SIGTERM and SIGKILL; zero
	// or less means DefaultGrace.
	Grace time.Duration
}

// Result is how a Command ended and what it wrote.
type Result struct {
	// Stdout and Stderr are what it wrote. A stream of more than 2 MiB
	// may lose its middle: its first MiB and at least its last MiB stay.
	Stdout, Stderr []byte
	// ExitCode is its exit status; when a signal ended it, 128 plus the
	// signal's number, as a shell reports it.
	ExitCode int
	// Signal names the signal that ended it ("SIGKILL"), if one did.
	Signal string
	// TimedOut and Canceled say it was killed for running out of time or
	// because ctx ended.
	TimedOut, Canceled bool
}

// Exec runs a command once, outside any Manager: in a session and process
// group of its own, its stdout and stderr captured. When the timeout passes
// or ctx ends, the whole group gets SIGTERM, then SIGKILL after the grace;
// when the command exits, whatever it left running in its group (`sleep
// 100 &`) is killed the same way, so nothing it started outlives the call.
// A non-zero exit is not an error; on cancellation the error is ctx's,
// next to the Result. An error with a nil Result means the command could
// not start (ErrUnsupported on an OS without process groups). On Linux the
// command also dies with the server; there is no watchdog, though, for
// what it started.
func Exec(ctx context.Context, c Command) (*Result, error) {
	if !GroupsSupported {
		return nil, ErrUnsupported
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if c.Grace <= 0 {
		c.Grace = DefaultGrace
	}
	buf := func() *buffer { return &buffer{window: execWindow} } // no spill: memory only
	s := &sink{merged: buf(), stdout: buf(), stderr: buf()}
	cmd := &exec.Cmd{Path: c.Path, Args: c.Args, Dir: c.Dir, Env: c.Env, Stdin: bytes.NewReader(c.Stdin)}
	if cmd.Path == "" && len(c.Args) > 0 {
		cmd.Path = c.Args[0]
	}
	if lp, err := exec.LookPath(cmd.Path); err == nil {
		cmd.Path = lp
	} else {
		return nil, err
	}
	var watch watchdog // never started: sends are no-ops
	p, err := startProc(cmd, s, false, &watch, nil, nil, false)
	if err != nil {
		return nil, err
	}
	var expired <-chan time.Time
	if c.Timeout > 0 {
		t := time.NewTimer(c.Timeout)
		defer t.Stop()
		expired = t.C
	}
	why := p.await(expired, ctx.Done(), c.Grace)
	res := &Result{TimedOut: why == endedTimeout, Canceled: why == endedCancel}
	res.ExitCode, res.Signal = p.exitStatus()
	s.mu.Lock()
	res.Stdout = s.stdout.read(0, s.stdout.size)
	res.Stderr = s.stderr.read(0, s.stderr.size)
	s.mu.Unlock()
	if res.Canceled {
		return res, ctx.Err()
	}
	return res, nil
}
