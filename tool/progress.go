package tool

import (
	"context"
	"time"
)

// Progress is one report of how far a running call has come. The built-in
// tools send one at most every 250 ms while they run (bash in the
// foreground, task_output while it waits, grep and glob once they have run
// for 500 ms) and a last one, Done, when the call ends; a cancelled call
// sends nothing more.
type Progress struct {
	// CallID and Tool name the call; the executor fills them in.
	CallID string
	Tool   string
	// Elapsed is how long the call has run.
	Elapsed time.Duration
	// Message is the report as one line for a person, e.g. "3.2s: make[1]:
	// building app" or "searched 1204 files, 37 matches (0.8s)".
	Message string
	// Line is the last line of the command's output so far (bash,
	// task_output), at most MaxProgressLine characters, with control
	// bytes escaped as in the result.
	Line string
	// Files and Matches count the files searched and the matches found so
	// far (grep, glob).
	Files, Matches int64
	// Done marks the last report of a call that finished.
	Done bool
}

// MaxProgressLine bounds Progress.Line, in characters.
const MaxProgressLine = 200

// progressKey carries a per-call progress callback in a context.
type progressKey struct{}

// WithProgress returns a context under which calls report their progress
// to f instead of Env.Progress: a host that serves several requests at
// once (an MCP server) gives each call its own destination this way.
func WithProgress(ctx context.Context, f func(Progress)) context.Context {
	return context.WithValue(ctx, progressKey{}, f)
}

// progressOf returns the callback a call's reports go to: the context's,
// else env's, naming the call.
func progressOf(ctx context.Context, env *Env, call Call) func(Progress) {
	f, _ := ctx.Value(progressKey{}).(func(Progress))
	if f == nil {
		f = env.Progress
	}
	if f == nil {
		return nil
	}
	return func(p Progress) {
		p.CallID, p.Tool = call.ID, call.Name
		f(p)
	}
}
