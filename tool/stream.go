package tool

import (
	"context"
	"sync"
)

// Stream accepts calls one at a time, as a model streams them, and runs each
// as soon as the concurrency rule allows: a safe call starts at once when no
// unsafe call is pending before it; an unsafe call starts when every call
// before it has finished. Results come back in submission order.
type Stream struct {
	e   *Executor
	ctx context.Context
	env *Env
	sem chan struct{}

	mu sync.Mutex
	// lastUnsafe is the latest unsafe call; safeSince the safe calls
	// submitted after it that may still be running.
	lastUnsafe *pending
	safeSince  []*pending
	entries    []*pending
	closed     bool
}

type pending struct {
	done chan struct{}
	res  Result
}

// Stream starts a stream of calls under ctx and env.
func (e *Executor) Stream(ctx context.Context, env *Env) *Stream {
	return &Stream{e: e, ctx: ctx, env: env, sem: make(chan struct{}, e.parallel())}
}

// Submit queues call and returns a function that waits for its result. Wait
// returns it too, in order.
func (s *Stream) Submit(call Call) func() Result {
	p := s.start(s.ctx, call, true)
	return p.wait
}

// Go queues call under its own context (a server's per-request context) and
// returns a function that waits for its result. Unlike Submit, the result is
// not kept for Wait, so a stream that lives as long as a server session does
// not grow.
func (s *Stream) Go(ctx context.Context, call Call) func() Result {
	return s.start(ctx, call, false).wait
}

// Run is Go and its wait in one, for a caller that waits at once (a
// server's request): the call is decoded, queued and executed on one of
// the process's kept workers (workers.go), so that the stack the call
// grows (schema validation, the tool) is a worker's grown once, not a
// fresh goroutine's grown again on every call.
func (s *Stream) Run(ctx context.Context, call Call) Result {
	var res Result
	done := make(chan struct{})
	runKept(func() {
		p, deps, safe, ctx := s.queue(ctx, call, false)
		s.execute(p, deps, safe, ctx, call)
		res = p.res
		close(done)
	})
	<-done
	return res
}

func (p *pending) wait() Result {
	<-p.done
	return p.res
}

func (s *Stream) start(ctx context.Context, call Call, keep bool) *pending {
	p, deps, safe, ctx := s.queue(ctx, call, keep)
	go s.execute(p, deps, safe, ctx, call)
	return p
}

// queue decides whether call is safe, decoding it, and queues it: it
// returns its pending entry, the calls it must wait for, and the context
// to execute it under (carrying the decoded input).
func (s *Stream) queue(ctx context.Context, call Call, keep bool) (p *pending, deps []*pending, safe bool, _ context.Context) {
	safe, d := s.e.concurrencySafe(call)
	if d != nil {
		ctx = context.WithValue(ctx, decodedKey{}, d)
	}
	p = &pending{done: make(chan struct{})}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		panic("tool: Submit on a stream after Wait")
	}
	if s.lastUnsafe != nil {
		deps = append(deps, s.lastUnsafe)
	}
	if safe {
		s.safeSince = append(pruned(s.safeSince), p)
	} else {
		deps = append(deps, s.safeSince...)
		s.lastUnsafe, s.safeSince = p, nil
	}
	if keep {
		s.entries = append(s.entries, p)
	}
	s.mu.Unlock()
	return p, deps, safe, ctx
}

// execute runs a queued call once the calls it waits for have finished
// and, when it is safe, a place among the parallel calls is free.
func (s *Stream) execute(p *pending, deps []*pending, safe bool, ctx context.Context, call Call) {
	defer close(p.done)
	for _, d := range deps {
		<-d.done
	}
	if safe {
		s.sem <- struct{}{}
		defer func() { <-s.sem }()
	}
	p.res = s.e.Execute(ctx, s.env, call)
}

// pruned drops the calls that have finished.
func pruned(ps []*pending) []*pending {
	out := ps[:0]
	for _, p := range ps {
		select {
		case <-p.done:
		default:
			out = append(out, p)
		}
	}
	return out
}

// Wait closes the stream to further calls and returns the results of every
// submitted call in submission order once all have finished.
func (s *Stream) Wait() []Result {
	s.mu.Lock()
	s.closed = true
	entries := s.entries
	s.mu.Unlock()
	out := make([]Result, len(entries))
	for i, p := range entries {
		out[i] = p.wait()
	}
	return out
}

// Batch runs calls as one batch: maximal runs of consecutive safe calls in
// parallel, each unsafe call alone, results in call order.
func (e *Executor) Batch(ctx context.Context, env *Env, calls []Call) []Result {
	s := e.Stream(ctx, env)
	for _, c := range calls {
		s.Submit(c)
	}
	return s.Wait()
}
