package mcpserver

import (
	"context"
	"sync"
	"time"

	"github.com/hands-dev/hands"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A client started with the server writes at once, and until it has its
// tools it waits: its initialize and first tools/list are answered while
// the server's own start-up work (for `hands serve`, the sandbox's probe,
// which starts a process) competes with them for the CPU. Measured on
// 2026-11-25 (2 cores, 15 starts each, medians), a client's tools/list
// was answered 104 ms after the server's start with the probe beside it,
// and 65 ms without. Options.Prepare is that work: deferred, when the
// client has written at start, until it has its tools.

// prepareMax is how long Prepare waits at most for the client to get its
// tools: a client that lists none (it only calls, or waits) gets it then.
const prepareMax = time.Second

// prepare is the state of Options.Prepare in one ServeIO.
type prepare struct {
	once    sync.Once
	started bool
	done    chan struct{}
	run     func(*hands.Session)
}

// startPrepare starts Options.Prepare at once, or when deferred once the
// client has its tools (prepareFor) or prepareMax has passed. The
// returned function cancels the work's context and waits for it to end.
func (s *Server) startPrepare(ctx context.Context, deferred bool) (wait func()) {
	ctx, cancel := context.WithCancel(ctx)
	p := &prepare{done: make(chan struct{})}
	p.run = func(hs *hands.Session) {
		p.once.Do(func() {
			s.prep.CompareAndSwap(p, nil) // the calls from now on find nothing to start
			p.started = true
			go func() {
				defer close(p.done)
				s.prepareFn(ctx, hs)
			}()
		})
	}
	if !deferred {
		p.run(nil)
		return func() { cancel(); <-p.done }
	}
	s.prep.Store(p)
	timer := time.AfterFunc(prepareMax, func() { p.run(s.onlySession()) })
	return func() {
		timer.Stop()
		cancel()
		p.once.Do(func() {}) // not started by now: not at all
		if p.started {
			<-p.done
		}
	}
}

// prepareFor starts the deferred Options.Prepare, if it waits still, for
// the Hands session of ss, whose client has its tools; every tools/list
// and tools/call asks, so that once it started the asking costs one load.
func (s *Server) prepareFor(ss *mcp.ServerSession) {
	p := s.prep.Load()
	if p == nil || ss == nil || s.isWarmUp(ss) {
		return
	}
	s.mu.Lock()
	var hs *hands.Session
	if sess := s.sessions[ss]; sess != nil {
		hs = sess.hs
	}
	s.mu.Unlock()
	p.run(hs)
}

// onlySession returns the Hands session when there is one only.
func (s *Server) onlySession() *hands.Session {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.sessions) != 1 {
		return nil
	}
	for _, sess := range s.sessions {
		return sess.hs
	}
	return nil
}
