package glob

import (
	"fmt"
	"sync"
	"testing"
)

// TestCached gives the same Glob for the same pattern and options, a
// different one for other options, errors uncached, and stays bounded.
func TestCached(t *testing.T) {
	a, err := Cached("**/*.go", Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Cached("**/*.go", Options{})
	if a != b {
		t.Error("the same pattern compiled twice")
	}
	c, _ := Cached("**/*.go", Options{FoldCase: true})
	if c == a || !c.Match("X.GO") || a.Match("X.GO") {
		t.Error("options not part of the key")
	}
	for range 2 {
		if _, err := Cached("a[", Options{}); err == nil {
			t.Error("an invalid pattern compiled")
		}
	}
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() {
			for j := range 3 * maxCached {
				p := fmt.Sprintf("%d/*.%d", i, j)
				g, err := Cached(p, Options{})
				if err != nil || !g.Match(fmt.Sprintf("%d/x.%d", i, j)) {
					t.Errorf("%s: %v", p, err)
					return
				}
			}
		})
	}
	wg.Wait()
	compiled.mu.Lock()
	n := len(compiled.m)
	compiled.mu.Unlock()
	if n > maxCached {
		t.Errorf("%d patterns kept, over %d", n, maxCached)
	}
}
