package search

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hands-dev/hands/internal/match"
)

// longLineMB is the size of the long line: 64 MB by default, so CI stays
// fast; HANDS_LONG_LINE_MB=256 for the figure.
func longLineMB(t *testing.T) int {
	if s := os.Getenv("HANDS_LONG_LINE_MB"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	return 64
}

// writeLongLine writes a file of one line of mb megabytes with NEEDLE in
// its middle, then a short matching line.
func writeLongLine(t *testing.T, path string, mb int) {
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	block := bytes.Repeat([]byte("abcdefgh"), 1<<17) // 1 MiB
	for i := range mb {
		if i == mb/2 {
			w.WriteString("NEEDLE")
		}
		w.Write(block)
	}
	w.WriteString("\nNEEDLE short\n")
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

// peakHeap samples the live heap until stop is called and returns the
// largest value seen above the heap at the start.
func peakHeap() (stop func() uint64) {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	var peak atomic.Uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			if ms.HeapAlloc > base && ms.HeapAlloc-base > peak.Load() {
				peak.Store(ms.HeapAlloc - base)
			}
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	})
	return func() uint64 { close(done); wg.Wait(); return peak.Load() }
}

// A file with one line of hundreds of megabytes peaked at three times its
// size (the buffer doubled to hold it). A line over MaxLineLen is now read
// past in the same buffer and reported as skipped with its length; the
// lines after it are searched.
func TestLongLineSearchedInBoundedMemory(t *testing.T) {
	mb := longLineMB(t)
	dir := t.TempDir()
	writeLongLine(t, filepath.Join(dir, "long.txt"), mb)
	os.WriteFile(filepath.Join(dir, "medium.txt"), append(bytes.Repeat([]byte("x"), 1<<20), "NEEDLE medium\n"...), 0o644)
	m := match.MustCompile("NEEDLE", match.Options{})
	for _, mode := range []Mode{Content, Count, FilesWithMatches} {
		stop := peakHeap()
		res, err := Grep(context.Background(), Options{Paths: []string{dir}, Matcher: m, Mode: mode, Before: 1, After: 1})
		peak := stop()
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d MB line: peak heap %.1f MiB", mode, mb, float64(peak)/(1<<20))
		if limit := uint64(3*DefaultMaxLineLen + 8<<20); peak > limit {
			t.Errorf("%s: peak heap %d MiB, over %d MiB", mode, peak>>20, limit>>20)
		}
		if len(res.Files) != 2 {
			t.Fatalf("%s: files %+v", mode, res.Files)
		}
		if mode == FilesWithMatches {
			continue // the search of long.txt may stop at the short line
		}
		if res.Stats.Skipped != 1 || len(res.Skipped) != 1 {
			t.Fatalf("%s: skipped %+v", mode, res.Skipped)
		}
		sk := res.Skipped[0]
		if want := int64(mb)<<20 + 6; sk.Line != 1 || sk.Length != want || filepath.Base(sk.Path) != "long.txt" {
			t.Errorf("%s: skipped %+v, want line 1 of %d bytes", mode, sk, want)
		}
		for _, f := range res.Files {
			if filepath.Base(f.Path) == "long.txt" && mode == Content {
				if len(f.Lines) != 1 || f.Lines[0].Number != 2 || f.Lines[0].Text != "NEEDLE short" {
					t.Errorf("lines after the long one: %+v", f.Lines)
				}
			}
		}
	}
}

// A line under the bound but longer than the read buffer is still
// searched whole, and the buffer grown for it is not kept.
func TestLineLongerThanBufferStillSearched(t *testing.T) {
	dir := t.TempDir()
	line := append(bytes.Repeat([]byte("y"), 3*chunkSize), "NEEDLE"...)
	os.WriteFile(filepath.Join(dir, "a.txt"), append(line, '\n'), 0o644)
	res, err := Grep(context.Background(), Options{Paths: []string{dir}, Matcher: match.MustCompile("NEEDLE", match.Options{}), Mode: Count, MaxLineLen: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Files) != 1 || res.Files[0].Count != 1 || len(res.Skipped) != 0 {
		t.Errorf("files %+v skipped %+v", res.Files, res.Skipped)
	}
	// Over a bound smaller than the line: skipped.
	res, _ = Grep(context.Background(), Options{Paths: []string{dir}, Matcher: match.MustCompile("NEEDLE", match.Options{}), Mode: Count, MaxLineLen: 100 << 10})
	if len(res.Files) != 0 || len(res.Skipped) != 1 || res.Skipped[0].Length != int64(len(line)) {
		t.Errorf("files %+v skipped %+v", res.Files, res.Skipped)
	}
}
