//go:build unix

package tools

import (
	"github.com/hands-dev/hands/internal/benchmem"
	"testing"
)

// BenchmarkEdit100MB edits one line in the middle of a 100 MiB file through
// the edit tool (read-before-edit check, decode, replace, encode, atomic
// write with fsync, ledger, diff), with MaxFileSize raised to 256 MiB. Each
// iteration flips the line back and forth, so the file stays the same size.
func BenchmarkEdit100MB(b *testing.B) {
	const size = 100 << 20
	f := newFixture(b)
	f.st.Limits.MaxFileSize = 256 << 20
	needDisk(b, f.root, 3*size)
	lines := writeLines(b, f.path("big.txt"), size)
	// A unique line in the middle: block 50, line 10 of the block.
	const target = "BLOCK0050 line 000010: the quick brown fox jumps over the lazy dog"
	f.ok("read", map[string]any{"path": "big.txt", "limit": 1})
	edits := []map[string]any{
		{"path": "big.txt", "old_str": target, "new_str": target + " (edited)"},
		{"path": "big.txt", "old_str": target + " (edited)", "new_str": target},
	}
	b.SetBytes(size)
	b.ReportAllocs()
	stop := benchmem.Peak(b)
	i := 0
	for b.Loop() {
		res := f.ok("edit", edits[i%2])
		if out := res.Structured.(*EditOutput); out.Replacements != 1 || out.LinesAdded != 1 || out.LinesRemoved != 1 {
			b.Fatalf("output %+v", out)
		}
		i++
	}
	stop()
	b.ReportMetric(float64(lines), "lines")
}
