//go:build unix

package jobs

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestWrapperReportsOnce: the wrapper writes the final directory once,
// whether the command ends, exits, fails under set -e or replaces the
// EXIT trap, in every shell it is written for.
func TestWrapperReportsOnce(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, shell := range []string{"bash", "sh", "dash", "zsh"} {
		path, err := exec.LookPath(shell)
		if err != nil {
			continue
		}
		for _, cmd := range []string{"cd " + dir, "cd " + dir + "; exit 3", "set -eu; cd " + dir + "; false", "trap 'echo bye' EXIT; cd " + dir} {
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			c := exec.Command(path, "-c", wrapperScript(shell), shell, cmd)
			c.ExtraFiles = make([]*os.File, cwdFD-2)
			c.ExtraFiles[cwdFD-3] = w
			if err := c.Start(); err != nil {
				t.Fatal(err)
			}
			w.Close()
			got, _ := io.ReadAll(r)
			r.Close()
			c.Wait()
			if want := "\n" + dir + "\n"; string(got) != want {
				t.Errorf("%s -c %q: reported %q, want %q once", shell, cmd, got, want)
			}
		}
	}
}
