package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEditOf100MBPeakMemory reads and edits one line of a 100 MiB file
// through `hands run`, as a model would (the read-before-edit check on),
// and checks the process's peak resident memory stays under twice the
// file's size, for the native and the claude profiles. Before the edit
// streamed the file, it peaked at 4.4 times.
func TestEditOf100MBPeakMemory(t *testing.T) {
	const size = 100 << 20
	root, orig := bigText(t, size)
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
			stdout, peak := runForPeak(t, root, c.profile, c.calls+"\n")
			if !strings.Contains(stdout, "QUICK brown fox jumps") {
				t.Errorf("the result does not show the edited line:\n%.2000s", stdout)
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
