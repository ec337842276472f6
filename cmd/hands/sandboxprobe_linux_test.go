//go:build linux

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// serve probes the sandbox after it starts serving, so that initialize is
// not held up by it, and still keeps both of the sandbox's start-up
// promises: the default says on stderr, once, what it could not enforce,
// and --sandbox strict refuses a command that arrives right after
// initialize (before the probe may have finished) rather than run it less
// confined. Namespaces are made unavailable as on a kernel without
// unprivileged user namespaces.
func TestServeProbesInTheBackground(t *testing.T) {
	for _, mode := range []string{"strict", "auto"} {
		t.Run(mode, func(t *testing.T) {
			root := t.TempDir()
			var stderr strings.Builder
			l := startLoopCmd(t, withoutUserNamespaces(t, binary, "serve", "--root", root, "--sandbox", mode), &stderr)
			marker := filepath.Join(root, "ran")
			l.call(1, "bash", map[string]any{"command": "echo ran > " + marker})
			text, isErr := callText(l.reply(1))
			_, statErr := os.Stat(marker)
			if mode == "strict" {
				if !isErr || !strings.Contains(text, "--sandbox strict: commands do not run") {
					t.Errorf("strict did not refuse the command: %v %q", isErr, text)
				}
				if statErr == nil {
					t.Error("strict ran the command")
				}
			} else if isErr || statErr != nil {
				t.Errorf("the default did not run the command with Landlock alone: %v %q", isErr, text)
			}
			// A clean stop: the warning is written by then.
			l.cmd.Process.Signal(syscall.SIGTERM)
			l.cmd.Wait()
			if n := strings.Count(stderr.String(), "hands: sandbox: not enforced: namespaces"); n != 1 {
				t.Errorf("the warning about namespaces appears %d times, want once:\n%s", n, stderr.String())
			}
		})
	}
}
