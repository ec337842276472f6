//go:build unix

package tools

import (
	"bufio"
	"fmt"
	"github.com/hands-dev/hands/internal/benchmem"
	"os"
	"syscall"
	"testing"
)

// needDisk skips the benchmark unless dir's file system has n bytes free.
func needDisk(b *testing.B, dir string, n int64) {
	var fs syscall.Statfs_t
	if err := syscall.Statfs(dir, &fs); err != nil {
		b.Skipf("cannot tell the free space of %s: %v", dir, err)
	}
	if free := int64(fs.Bavail) * int64(fs.Bsize); free < n {
		b.Skipf("%s has %d MiB free; this benchmark needs %d MiB", dir, free>>20, n>>20)
	}
}

// writeLines writes about size bytes of numbered text lines to path and
// returns the number of lines. A 1 MiB block of lines is built once and
// written repeatedly, with the block number in each line, so that a
// gigabyte takes about a second.
func writeLines(tb testing.TB, path string, size int64) int {
	tb.Helper()
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 4<<20)
	var block []byte
	perBlock := 0
	for len(block) < 1<<20 {
		block = fmt.Appendf(block, "BLOCK#### line %06d: the quick brown fox jumps over the lazy dog\n", perBlock)
		perBlock++
	}
	lines := 0
	for n := 0; int64(n)*int64(len(block)) < size; n++ {
		// Stamp the block number into every line of the block.
		stamp := fmt.Appendf(nil, "%04d", n%10000)
		for i := 0; i < len(block); {
			copy(block[i+5:i+9], stamp)
			j := i
			for block[j] != '\n' {
				j++
			}
			i = j + 1
		}
		if _, err := w.Write(block); err != nil {
			tb.Fatal(err)
		}
		lines += perBlock
	}
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
	return lines
}

// BenchmarkReadWindow1GB reads 2,000-line windows of a 1 GiB file through
// the read tool: one at the start and one at the end, which streams the
// whole gigabyte. peak-heap-MiB shows that memory follows the window, not
// the file.
func BenchmarkReadWindow1GB(b *testing.B) {
	const size = 1 << 30
	f := newFixture(b)
	needDisk(b, f.root, size+size/4)
	lines := writeLines(b, f.path("big.log"), size)
	for _, at := range []struct {
		name   string
		offset int
	}{{"start", 1}, {"end", lines - 1999}} {
		b.Run(at.name, func(b *testing.B) {
			in := map[string]any{"path": "big.log", "offset": at.offset, "limit": 2000}
			if at.name == "end" {
				b.SetBytes(size) // the whole file is scanned
			}
			b.ReportAllocs()
			stop := benchmem.Peak(b)
			for b.Loop() {
				res := f.ok("read", in)
				out := res.Structured.(*ReadOutput)
				if len(out.Lines) != 2000 || out.StartLine != at.offset {
					b.Fatalf("window of %d lines at %d", len(out.Lines), out.StartLine)
				}
			}
			stop()
		})
	}
}
