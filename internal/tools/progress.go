package tools

import (
	"context"
	"fmt"
	"time"

	"github.com/hands-dev/hands/internal/search"
	"github.com/hands-dev/hands/tool"
)

// progressEvery is the shortest time between two progress reports of a
// call.
const progressEvery = 250 * time.Millisecond

// reporter sends a running call's progress to the call's Env.Progress:
// a sample every progressEvery once the call has run for after, and a
// last one, Done, when finish is called. When the call's context ends
// the reports stop at once: nothing is sent after it, not even the last.
type reporter struct {
	ctx    context.Context
	send   func(tool.Progress)
	after  time.Duration
	sample func(p *tool.Progress)
	start  time.Time
	quit   chan struct{}
	done   chan struct{}
}

// startProgress starts reporting a call's progress, sample filling in
// each report (Elapsed and Done are set). It returns nil, on which finish
// does nothing, when the call has nowhere to report to.
func startProgress(ctx context.Context, env *tool.Env, after time.Duration, sample func(p *tool.Progress)) *reporter {
	if env == nil || env.Progress == nil {
		return nil
	}
	r := &reporter{ctx: ctx, send: env.Progress, after: after, sample: sample, start: time.Now(),
		quit: make(chan struct{}), done: make(chan struct{})}
	go r.loop()
	return r
}

func (r *reporter) loop() {
	defer close(r.done)
	t := time.NewTimer(max(r.after, progressEvery))
	defer t.Stop()
	for {
		select {
		case <-r.ctx.Done():
			return
		case <-r.quit:
			return
		case <-t.C:
			r.emit(false)
			// The next report is progressEvery after this one was
			// delivered, however long delivering took.
			t.Reset(progressEvery)
		}
	}
}

func (r *reporter) emit(done bool) {
	r.emitWith(r.sample, done)
}

func (r *reporter) emitWith(sample func(p *tool.Progress), done bool) {
	p := tool.Progress{Elapsed: time.Since(r.start), Done: done}
	sample(&p)
	if r.ctx.Err() != nil {
		return
	}
	r.send(p)
}

// finish stops the reports and sends the last one, filled in by last,
// unless last is nil (the call failed before it ran), the call was
// cancelled, or it ended before after. Nothing is sent once it returns.
func (r *reporter) finish(last func(p *tool.Progress)) {
	if r == nil {
		return
	}
	close(r.quit)
	<-r.done
	if last != nil && r.ctx.Err() == nil && time.Since(r.start) >= r.after {
		r.emitWith(last, true)
	}
}

// seconds renders d as seconds with one decimal, "3.2s".
func seconds(d time.Duration) string {
	return fmt.Sprintf("%.1fs", d.Seconds())
}

// withLine appends the last line of output to a message, when there is one.
func withLine(msg, line string) string {
	if line == "" {
		return msg
	}
	return msg + ": " + line
}

// searchProgress fills in a report of a search from its counts: what
// (files, entries) were searched and how many matched.
func searchProgress(c *search.Counts, what string) func(p *tool.Progress) {
	return func(p *tool.Progress) {
		p.Files, p.Matches = c.Files.Load(), c.Matches.Load()
		if p.Done {
			p.Message = fmt.Sprintf("searched %d %s, %d matches in %s", p.Files, what, p.Matches, seconds(p.Elapsed))
			return
		}
		p.Message = fmt.Sprintf("searched %d %s so far, %d matches (%s)", p.Files, what, p.Matches, seconds(p.Elapsed))
	}
}
