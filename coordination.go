package hands

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/hands-dev/hands/coord"
	"github.com/hands-dev/hands/internal/tools"
	"github.com/hands-dev/hands/tool"
)

// LoopType is a kind of loop and the tools it is given (seed 004's
// taskdaemon.yml: phase: {tools: [...]}).
type LoopType struct {
	// Tools names the tools, as the profile names them.
	Tools []string `json:"tools" yaml:"tools"`
}

// loopTools keeps the tools the chosen loop type names, in the profile's
// order; an unknown loop type or tool name is an error.
func loopTools(exposed []tool.Tool, loops map[string]LoopType, loop string) ([]tool.Tool, error) {
	names := make([]string, len(exposed))
	for i, t := range exposed {
		names[i] = tool.SketchOf(t).Name
	}
	types := make([]string, 0, len(loops))
	for name, lt := range loops {
		types = append(types, name)
		for _, t := range lt.Tools {
			if !slices.Contains(names, t) {
				return nil, fmt.Errorf("loop type %q names the tool %q, which this profile does not have (it has %s)", name, t, strings.Join(names, ", "))
			}
		}
	}
	slices.Sort(types)
	if loop == "" {
		return exposed, nil
	}
	lt, ok := loops[loop]
	if !ok {
		if len(types) == 0 {
			return nil, fmt.Errorf("loop type %q is not defined: define loop types under \"loops\" in --config or with --loops FILE", loop)
		}
		return nil, fmt.Errorf("loop type %q is not defined; the loop types are %s", loop, strings.Join(types, ", "))
	}
	var out []tool.Tool
	for _, t := range exposed {
		if slices.Contains(lt.Tools, tool.SketchOf(t).Name) {
			out = append(out, t)
		}
	}
	return out, nil
}

// CoordEvent is what reaches a session from other loops, or from its own
// complete_task: a query (answer it with Message.Reply, or let the model
// answer with reply_query), shared data, or the task's completion.
type CoordEvent struct {
	// Message is a query or shared data; nil for a completion.
	Message *coord.Message
	// Complete holds complete_task's summary.
	Complete *string
}

// nextExecID returns the execution id of a new session.
func (r *Runtime) nextExecID() string {
	r.nexec++
	base := r.opts.ExecID
	if base == "" {
		if r.genID == "" {
			b := make([]byte, 4)
			rand.Read(b)
			r.genID = "loop-" + hex.EncodeToString(b)
		}
		base = r.genID
	}
	if r.nexec == 1 {
		return base
	}
	return base + "-" + strconv.Itoa(r.nexec)
}

// joinLoop joins the session to the coordinator, if there is one, and
// starts passing what arrives to the session's events.
func (r *Runtime) joinLoop(s *Session) error {
	s.events = make(chan CoordEvent, 64)
	c := &tools.Coordination{OnComplete: func(summary string) {
		s.emit(CoordEvent{Complete: &summary})
	}}
	s.state.Coordination = c
	if r.opts.Coordinator == nil {
		return nil
	}
	m, err := r.opts.Coordinator.Join(context.Background(), s.execID)
	if err != nil {
		return fmt.Errorf("joining the coordinator as %s: %w", s.execID, err)
	}
	c.Member = m
	go func() {
		for msg := range m.Incoming() {
			c.Received(msg)
			s.emit(CoordEvent{Message: &msg})
		}
	}()
	return nil
}

// emit hands an event to whoever reads Coordination; it waits while the
// host's buffer is full (the sender then sees the loop as busy), and drops
// nothing.
func (s *Session) emit(e CoordEvent) {
	select {
	case s.events <- e:
	case <-s.closing:
	}
}

// ExecID returns the session's execution id: its loop's name among other
// loops.
func (s *Session) ExecID() string { return s.execID }

// Coordination gives the queries and shared data other loops send this
// session, and its complete_task, as they come. Read it: while it is not
// read, senders find this loop busy.
func (s *Session) Coordination() <-chan CoordEvent { return s.events }

// Completed reports whether the model has called complete_task, with its
// summary.
func (s *Session) Completed() (summary string, done bool) {
	return s.state.Coordination.Completed()
}

// NewIteration starts a new iteration of the session's loop: the record of
// what was read is cleared (seed 004), so an edit needs a fresh read.
func (s *Session) NewIteration() { s.state.Ledger.Clear() }
