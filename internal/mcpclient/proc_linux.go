package mcpclient

import (
	"context"
	"os/exec"
	"runtime"
	"syscall"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// dieWithParent has the kernel kill a stdio server when Hands dies, even
// by SIGKILL, so that no server outlives it. The signal fires when the OS
// thread that started the server exits, and Go ends threads (one a
// confined shell command was started from does), so servers are started
// from a thread of their own (see spawner).
func dieWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}

// spawner runs functions on one locked OS thread that lives as long as the
// manager: stdio servers are started there, so that their parent-death
// signal fires when Hands ends, not when some thread does. Stopping it
// ends the thread, which kills any server still running.
type spawner struct {
	run  chan func()
	done chan struct{}
}

func newSpawner() *spawner {
	s := &spawner{run: make(chan func()), done: make(chan struct{})}
	go func() {
		runtime.LockOSThread() // never unlocked: the thread ends with the goroutine
		for {
			select {
			case f := <-s.run:
				f()
			case <-s.done:
				return
			}
		}
	}()
	return s
}

func (s *spawner) stop() { close(s.done) }

// spawnTransport starts its command on the spawner's thread.
type spawnTransport struct {
	inner mcp.Transport
	sp    *spawner
}

func (t spawnTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	var (
		conn mcp.Connection
		err  error
	)
	finished := make(chan struct{})
	select {
	case t.sp.run <- func() { conn, err = t.inner.Connect(ctx); close(finished) }:
	case <-t.sp.done:
		return nil, errClosed
	}
	<-finished
	return conn, err
}

// onSpawner wraps a stdio transport so that its process starts on sp.
func onSpawner(t mcp.Transport, sp *spawner) mcp.Transport { return spawnTransport{t, sp} }
