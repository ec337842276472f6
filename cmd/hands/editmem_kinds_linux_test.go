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
	"unicode/utf16"
)

// TestEditKindsOf100MBPeakMemory is TestEditOf100MBPeakMemory for the
// edits that once built the whole text more than once: a multi-edit of
// three lines far apart (7.3× before), a replace_all of 128 matches spread
// through the file (7.0×) and an edit of a UTF-16 file (2.6×). Each reads
// the file (limit 1) and edits it through `hands run`; the peak resident
// memory must stay under twice the file's size and the file must be the
// original with exactly those lines changed.
func TestEditKindsOf100MBPeakMemory(t *testing.T) {
	const size = 100 << 20
	root, orig := bigText(t, size)
	quick := func(n string) string { return "line " + n + ": the quick" }
	upper := func(s string) string { return strings.Replace(s, "quick", "QUICK", 1) }
	utf16le := func(s []byte) []byte {
		u := utf16.Encode([]rune(string(s)))
		out := make([]byte, 2, 2+2*len(u))
		out[0], out[1] = 0xFF, 0xFE
		for _, c := range u {
			out = append(out, byte(c), byte(c>>8))
		}
		return out
	}
	half := orig[:bytes.IndexByte(orig[size/2:], '\n')+size/2+1] // UTF-16 doubles it
	for _, c := range []struct {
		name, edit string
		content    []byte
		want       func([]byte) []byte
	}{
		{"multi_edit", fmt.Sprintf(`{"name":"multi_edit","input":{"path":"big.txt","edits":[{"old_str":%q,"new_str":%q},{"old_str":%q,"new_str":%q},{"old_str":%q,"new_str":%q}]}}`,
			quick("00000100"), upper(quick("00000100")), quick("00700000"), upper(quick("00700000")), quick("01270000"), upper(quick("01270000"))),
			orig, func(b []byte) []byte {
				for _, n := range []string{"00000100", "00700000", "01270000"} {
					b = bytes.Replace(b, []byte(quick(n)), []byte(upper(quick(n))), 1)
				}
				return b
			}},
		{"replace_all", `{"name":"str_replace","input":{"path":"big.txt","old_str":"0000: the quick","new_str":"0000: the QUICK","replace_all":true}}`,
			orig, func(b []byte) []byte {
				return bytes.ReplaceAll(b, []byte("0000: the quick"), []byte("0000: the QUICK"))
			}},
		{"utf16", fmt.Sprintf(`{"name":"str_replace","input":{"path":"big.txt","old_str":%q,"new_str":%q}}`, quick("00300000"), upper(quick("00300000"))),
			utf16le(half), func([]byte) []byte {
				return utf16le(bytes.Replace(half, []byte(quick("00300000")), []byte(upper(quick("00300000"))), 1))
			}},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(root, "big.txt")
			if err := os.WriteFile(path, c.content, 0o644); err != nil {
				t.Fatal(err)
			}
			want := c.want(bytes.Clone(c.content))
			calls := `{"name":"view","input":{"path":"big.txt","limit":1}}` + "\n" + c.edit + "\n"
			_, peak := runForPeak(t, root, "native", calls)
			got, err := os.ReadFile(path)
			if err != nil || !bytes.Equal(got, want) {
				t.Fatalf("the file after the edit is not the original with those lines changed (%d bytes, want %d, %v)", len(got), len(want), err)
			}
			t.Logf("%s: peak RSS %d MiB for a read and an edit of a %d MiB file (%.2f×)", c.name, peak>>20, len(c.content)>>20, float64(peak)/float64(len(c.content)))
			if peak >= 2*int64(len(c.content)) {
				t.Errorf("peak RSS %d MiB, not under twice the file's %d MiB", peak>>20, len(c.content)>>20)
			}
		})
	}
}

// bigText returns a workspace and the text of a file of about size bytes
// of numbered lines, skipping the test in -short mode or without room for
// four such files.
func bigText(t *testing.T, size int) (string, []byte) {
	t.Helper()
	if testing.Short() {
		t.Skip("writes a 100 MiB file")
	}
	root := workspace(t)
	var st syscall.Statfs_t
	if err := syscall.Statfs(root, &st); err != nil || st.Bavail*uint64(st.Bsize) < 4*uint64(size) {
		t.Skipf("%s lacks the %d MiB of free space this test needs", root, 4*size>>20)
	}
	var text bytes.Buffer
	text.Grow(size + 100)
	for i := 0; text.Len() < size; i++ {
		fmt.Fprintf(&text, "line %08d: the quick brown fox jumps over the lazy dog, some filler text here\n", i)
	}
	return root, text.Bytes()
}

// runForPeak runs the calls, one a line, through `hands run --profile
// profile` in root, checks each succeeded, and returns the results and
// the process's peak resident memory in bytes, read while it still lives
// (the rusage of a child started by a large test process counts the
// parent's memory it was forked from).
func runForPeak(t *testing.T, root, profile, calls string) (string, int64) {
	t.Helper()
	cmd := exec.Command(binary, "run", "--profile", profile, "--root", root, "--max-file-size", "256M")
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
	if _, err := io.WriteString(stdin, calls); err != nil {
		t.Fatal(err)
	}
	var stdout strings.Builder
	rd := bufio.NewReader(out)
	for range strings.Count(calls, "\n") {
		l, err := rd.ReadString('\n')
		if err != nil {
			t.Fatalf("hands run: %v\n%s", err, stderr.String())
		}
		stdout.WriteString(l)
		var r struct {
			IsError bool `json:"is_error"`
		}
		if err := json.Unmarshal([]byte(l), &r); err != nil || r.IsError {
			t.Fatalf("call failed: %.2000s", l)
		}
	}
	return stdout.String(), int64(peakRSS(t, cmd.Process.Pid)) << 10
}
