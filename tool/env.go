package tool

// Env is what a call knows of where it runs. The executor gives each call its
// own copy with CallID set.
type Env struct {
	// CallID identifies the call, as the host or model named it.
	CallID string
	// SessionID identifies the host's session, for hooks and logs.
	SessionID string
	// Cwd returns the session's working directory, for hooks; nil when the
	// host has none.
	Cwd func() string
	// Session is the host's per-session state, opaque to the executor. The
	// built-in tools keep their state (roots, working directory, read
	// ledger, jobs) here.
	Session any
	// Ask, when set, asks the session's user (plan approval, questions);
	// nil means no user can be asked.
	Ask AskFunc
	// Progress, when set, receives the reports of a long call (see
	// Progress); a context made by WithProgress overrides it. Tools send
	// nothing when it is nil. It is called from the call's goroutines, one
	// report at a time, and should return quickly.
	Progress func(Progress)
}
