// Package benchmem measures the memory a benchmark uses: the peak of the
// live heap, sampled while it runs, and the process's peak resident set
// size. It is for benchmarks only.
package benchmem

import (
	"runtime"
	"runtime/metrics"
	"sync"
	"testing"
	"time"
)

// Peak starts sampling the live heap and returns a function that stops and
// reports the largest value seen as peak-heap-MiB, and the process's peak
// resident set size as maxrss-MiB where the platform tells it.
func Peak(b *testing.B) (stop func()) {
	runtime.GC()
	done := make(chan struct{})
	var wg sync.WaitGroup
	var peak uint64
	wg.Go(func() {
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		t := time.NewTicker(200 * time.Microsecond)
		defer t.Stop()
		for {
			metrics.Read(s)
			peak = max(peak, s[0].Value.Uint64())
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	})
	return func() {
		close(done)
		wg.Wait()
		b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
		if rss := MaxRSS(); rss > 0 {
			b.ReportMetric(float64(rss)/(1<<20), "maxrss-MiB")
		}
	}
}
