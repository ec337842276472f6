package main

import (
	"fmt"
	"io"
	"slices"

	"github.com/hands-dev/hands"
)

// warnSandbox says on stderr, once as a command that runs tools starts,
// what the sandbox could not enforce on this machine (nothing when
// everything is, or when --no-sandbox switched it off on purpose), so a
// user who did not ask for less learns that commands run less confined.
// `hands doctor` gives the details.
func warnSandbox(rt *hands.Runtime, stderr io.Writer) {
	for _, w := range rt.SandboxWarnings() {
		fmt.Fprintf(stderr, "hands: sandbox: not enforced: %s (see hands doctor)\n", w)
	}
}

// fileTools are the core tools that never start a command.
var fileTools = []string{"read", "write", "edit", "multi_edit", "list", "notebook_edit", "glob", "grep"}

// runsCommands reports whether the tool named name may start a command,
// so that the sandbox's warnings concern it: `hands call` of a file tool
// says nothing of them, and so does not probe the sandbox, which starts a
// process (about a tenth of such a call's CPU).
func runsCommands(rt *hands.Runtime, name string) bool {
	for _, i := range rt.Tools() {
		if i.Name == name {
			core := i.Core
			if core == "" {
				core = i.Name
			}
			return !slices.Contains(fileTools, core)
		}
	}
	return true
}
