package benchmem

import "testing"

func TestMaxRSS(t *testing.T) {
	if MaxRSS() <= 0 {
		t.Skip("the platform does not report the peak resident set size")
	}
}

func BenchmarkPeak(b *testing.B) {
	stop := Peak(b)
	var keep [][]byte
	for b.Loop() {
		keep = append(keep, make([]byte, 1<<20))
	}
	stop()
	_ = keep
}
