package main

import (
	"fmt"
	"io"
	"slices"
	"sync"

	"github.com/hands-dev/hands"
)

// warnSandbox says on stderr, once as a command that runs tools starts,
// what the sandbox could not enforce on this machine (nothing when
// everything is, or when --no-sandbox switched it off on purpose), so a
// user who did not ask for less learns that commands run less confined.
// `hands doctor` gives the details.
func warnSandbox(rt *hands.Runtime, stderr io.Writer) {
	printSandboxWarnings(stderr, rt.SandboxWarnings())
}

func printSandboxWarnings(stderr io.Writer, missing []string) {
	for _, w := range missing {
		fmt.Fprintf(stderr, "hands: sandbox: not enforced: %s (see hands doctor)\n", w)
	}
}

// lockedWriter serializes writes to w: serve's log and the sandbox's
// warnings share stderr.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// fileTools are the core tools that never start a command.
var fileTools = []string{"read", "write", "edit", "multi_edit", "list", "notebook_edit", "glob", "grep"}

// runsCommands reports whether the tool named name may start a command,
// so that the sandbox's warnings concern it: `hands call` of a file tool
// says nothing of them, and so does not probe the sandbox, which starts a
// process (about a tenth of such a call's CPU).
func runsCommands(rt *hands.Runtime, name string) bool {
	core, ok := rt.CoreTool(name)
	return !ok || !slices.Contains(fileTools, core)
}
