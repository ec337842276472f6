package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestEditOf100MBPeakMemory reads and edits one line of a 100 MiB file
// through `hands run`, as a model would (the read-before-edit check on),
// and checks the process's peak resident memory stays under twice the
// file's size, for the native and the claude profiles. Before the edit
// streamed the file, it peaked at 4.4 times.
func TestEditOf100MBPeakMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 100 MiB file")
	}
	const size = 100 << 20
	root := workspace(t)
	var st syscall.Statfs_t
	if err := syscall.Statfs(root, &st); err != nil || st.Bavail*uint64(st.Bsize) < 4*size {
		t.Skipf("%s lacks the 400 MiB of free space this test needs", root)
	}
	var text bytes.Buffer
	text.Grow(size + 100)
	for i := 0; text.Len() < size; i++ {
		fmt.Fprintf(&text, "line %08d: the quick brown fox jumps over the lazy dog, some filler text here\n", i)
	}
	orig := text.Bytes()
	path := filepath.Join(root, "big.txt")
	const old, new = "line 00700000: the quick brown fox", "line 00700000: the QUICK brown fox"
	want := bytes.Replace(orig, []byte(old), []byte(new), 1)
	for _, c := range []struct{ profile, calls string }{
		{"native", fmt.Sprintf(`{"name":"view","input":{"path":"big.txt","limit":1}}
{"name":"str_replace","input":{"path":"big.txt","old_str":%q,"new_str":%q}}`, old, new)},
		{"claude", fmt.Sprintf(`{"name":"Read","input":{"file_path":%q,"limit":1}}
{"name":"Edit","input":{"file_path":%[1]q,"old_string":%q,"new_string":%q}}`, path, old, new)},
	} {
		t.Run(c.profile, func(t *testing.T) {
			if err := os.WriteFile(path, orig, 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(binary, "run", "--profile", c.profile, "--root", root, "--max-file-size", "256M")
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Wait()
			defer stdin.Close()
			if _, err := io.WriteString(stdin, c.calls+"\n"); err != nil {
				t.Fatal(err)
			}
			// Both results, then the peak while the process still lives
			// (the rusage of a child started by a large test process
			// counts the parent's memory it was forked from).
			var stdout strings.Builder
			rd := bufio.NewReader(out)
			for range 2 {
				l, err := rd.ReadString('\n')
				if err != nil {
					t.Fatalf("hands run: %v\n%s", err, stderr.String())
				}
				stdout.WriteString(l)
				var r struct {
					IsError bool `json:"is_error"`
				}
				if err := json.Unmarshal([]byte(l), &r); err != nil || r.IsError {
					t.Fatalf("call failed: %s", l)
				}
			}
			peak := int64(peakRSS(t, cmd.Process.Pid)) << 10
			if !strings.Contains(stdout.String(), "QUICK brown fox jumps") {
				t.Errorf("the result does not show the edited line:\n%.2000s", stdout.String())
			}
			got, err := os.ReadFile(path)
			if err != nil || !bytes.Equal(got, want) {
				t.Fatalf("the file after the edit is not the original with one line changed (%d bytes, %v)", len(got), err)
			}
			t.Logf("%s: peak RSS %d MiB for a read and an edit of a %d MiB file (%.2f×)", c.profile, peak>>20, size>>20, float64(peak)/size)
			if peak >= 2*size {
				t.Errorf("peak RSS %d MiB, not under twice the file's %d MiB", peak>>20, size>>20)
			}
		})
	}
}
