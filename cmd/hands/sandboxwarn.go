package main

import (
	"fmt"
	"io"

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
