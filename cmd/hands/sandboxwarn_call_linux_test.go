package main

import (
	"strings"
	"testing"
)

// A call of a file tool starts no command, so it says nothing of what the
// sandbox could not enforce (and does not probe for it); a call of bash
// still does (TestStartupWarningWithoutNamespaces), and so does a profile's
// name for it.
func TestCallOfAFileToolSaysNothingOfTheSandbox(t *testing.T) {
	root := t.TempDir()
	for _, c := range []struct {
		args []string
		warn bool
	}{
		{[]string{"glob", `{"pattern":"*"}`}, false},
		{[]string{"--profile", "claude", "Glob", `{"pattern":"*"}`}, false},
		{[]string{"--profile", "claude", "Bash", `{"command":"true"}`}, true},
	} {
		argv := append([]string{binary, "call", "--root", root}, c.args...)
		cmd := withoutUserNamespaces(t, argv...)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("%v: %v\n%s", c.args, err, stderr.String())
		}
		if got := strings.Contains(stderr.String(), "hands: sandbox: not enforced"); got != c.warn {
			t.Errorf("%v: warned %v, want %v:\n%s", c.args, got, c.warn, stderr.String())
		}
	}
}
