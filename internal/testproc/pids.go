// Package testproc finds a test's processes by their command line.
package testproc

import (
	"os"
	"path/filepath"
	"strings"
)

// PIDsOf lists the processes (on Linux, where /proc is) whose command
// line holds s, sandbox helpers aside: a command's own $$ is its PID
// namespace's, not one a test could look for.
func PIDsOf(s string) []string {
	var out []string
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && strings.Contains(string(b), s) && !strings.Contains(string(b), "hands-sandbox-helper") {
			out = append(out, e.Name())
		}
	}
	return out
}
