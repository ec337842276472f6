package gcpace

import (
	"runtime"
	"runtime/metrics"
	"testing"
)

// TestPercentFor: a small live heap gets the GOGC that puts the next
// collection at minGoal; from minGoal/2 up it is 100, as without pacing.
func TestPercentFor(t *testing.T) {
	for _, c := range []struct {
		live uint64
		want int64
	}{
		{0, maxPercent},
		{1, maxPercent},
		{1 << 20, maxPercent}, // the runtime's least goal, 4 MiB × maxPercent/100, is minGoal
		{minGoal * 100 / (100 + maxPercent), maxPercent}, // (1 + maxPercent/100) × live is minGoal
		{minGoal * 2 / 5, 150},                           // 2.5 × live is minGoal
		{minGoal/2 - 1<<10, 100},                         // just under minGoal/2: twice live is about minGoal
		{minGoal / 2, 100},                               // twice live is minGoal
		{100 << 20, 100},                                 // a large file: as GOGC=100
		{1 << 40, 100},
	} {
		got := percentFor(c.live)
		if got != c.want {
			t.Errorf("percentFor(%d) = %d, want %d", c.live, got, c.want)
		}
		goal := max(uint64(runtimeMin)*uint64(got)/100, c.live+c.live*uint64(got)/100)
		if c.live > 0 && (goal < min(2*c.live, minGoal) || goal > max(2*c.live, minGoal)+minGoal/100) {
			t.Errorf("live %d: GOGC %d gives a goal of %d, want about max(2×live, %d)", c.live, got, goal, minGoal)
		}
	}
}

// gogc returns the GOGC the runtime runs with.
func gogc() uint64 {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// TestStartPaces: after Start and a collection, with this test's small
// live heap, the runtime runs at maxPercent; with a large heap kept live
// it goes back to 100 after the next collection. Start leaves a GOGC set
// in the environment alone (TestStartLeavesGOGC).
func TestStartPaces(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates 64 MiB")
	}
	t.Setenv("GOGC", "")
	Start()
	runtime.GC()
	waitFor(t, maxPercent)
	big := make([]*[1 << 20]byte, 64) // 64 MiB live, with pointers to scan
	for i := range big {
		big[i] = new([1 << 20]byte)
	}
	runtime.GC()
	waitFor(t, 100)
	runtime.KeepAlive(big)
	big = nil
	runtime.GC()
	waitFor(t, maxPercent)
}

// waitFor runs collections until the runtime runs at GOGC want: pace runs
// after a collection, not during it.
func waitFor(t *testing.T, want uint64) {
	t.Helper()
	for range 1000 {
		if gogc() == want {
			return
		}
		runtime.Gosched()
		runtime.GC()
	}
	t.Fatalf("GOGC is %d after 1000 collections, want %d", gogc(), want)
}
