package tool

// Env is what a call knows of where it runs. The executor gives each call its
// own copy with CallID set.
type Env struct {
	// CallID identifies the call, as the host or model named it.
	CallID string
	// Session is the host's per-session state, opaque to the executor. The
	// built-in tools keep their state (roots, working directory, read
	// ledger, jobs) here.
	Session any
	// Progress, when set, receives short progress messages.
	Progress func(message string)
}
