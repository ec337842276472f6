// Package gcpace paces the garbage collector of a long-running Hands
// process (hands serve, hands run) whose live heap is small.
//
// The collector starts a cycle when the heap reaches a goal: twice what
// was live after the last cycle (GOGC=100), but never less than 4 MiB.
// Hands keeps 1.5 to 2 MiB live (its tools, schemas and the packages'
// tables), so each call's garbage — the SDK alone decodes a request into
// several 32 KiB buffers, and a read's reply is encoded three times over
// — fills the 2 MiB left in a few calls, and each cycle marks the whole
// live heap again: a profile of 3,000 reads of a 32 KiB file spent as much
// CPU in collections as in reading the files and writing the replies
// (gctrace: 109 cycles of ~3 ms against the reply floor's 56 of ~0.5 ms).
//
// While the live heap is small, Start raises GOGC so that the goal is
// minGoal (8 MiB) instead of 4 MiB; as soon as the live heap reaches
// minGoal/2 the goal is twice the live heap again, as with GOGC=100, so
// large files (an edit of 100 MiB) are collected as before. A GOGC set
// in the environment is left as it is. The cost is memory: the process
// keeps up to 8 MiB of heap instead of 4, and faults that much in over
// its first calls (16 MiB saved no more CPU on this machine and held 21
// MiB more).
package gcpace

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"sync/atomic"
)

const (
	// minGoal is the least heap a cycle starts at while the live heap is
	// small.
	minGoal = 8 << 20
	// runtimeMin is the runtime's own least goal at GOGC=100; it scales
	// with GOGC.
	runtimeMin = 4 << 20
	// maxPercent is the GOGC at which runtimeMin scales to minGoal.
	maxPercent = 100 * minGoal / runtimeMin
)

var once sync.Once

// percent is the GOGC Pace last set.
var percent atomic.Int64

// Start paces the collector from now on, unless GOGC is set in the
// environment. It may be called more than once.
func Start() {
	once.Do(func() {
		if os.Getenv("GOGC") != "" {
			return
		}
		percent.Store(100)
		pace()
		arm()
	})
}

// sentinel is an object of nothing that is garbage at once, so that its
// cleanup runs after each collection. It holds a pointer so that it is
// not put in a tiny block beside other objects (whose cleanups may never
// run).
type sentinel struct{ _ *byte }

// arm sets pace to run after the next collection, and again after each
// one.
func arm() {
	runtime.AddCleanup(new(sentinel), func(struct{}) {
		pace()
		arm()
	}, struct{}{})
}

// pace sets GOGC for the heap live after the last collection.
func pace() {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return
	}
	if p := percentFor(s[0].Value.Uint64()); p != percent.Load() {
		percent.Store(p)
		debug.SetGCPercent(int(p))
	}
}

// percentFor returns the GOGC that makes the goal of a heap with live
// bytes live minGoal, or twice live when that is more: at least 100 and
// at most maxPercent (at which the runtime's own least goal is minGoal).
func percentFor(live uint64) int64 {
	if live == 0 || live >= minGoal/2 {
		if live == 0 {
			return maxPercent
		}
		return 100
	}
	return min(max(int64((minGoal-live)*100/live), 100), maxPercent)
}
