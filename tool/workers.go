package tool

import "time"

// kept hands work to a worker goroutine that is waiting for some. A
// worker lives on for workerIdle after its last work, so that the stack a
// call grows — schema validation and the tools take tens of kilobytes —
// is grown once per worker rather than once per call on a new goroutine:
// each growth copies the stack into new memory, and on a virtual machine
// the page faults of that memory cost more than the call's own work.
//
// Work that locks its goroutine to its OS thread (runtime.LockOSThread)
// must do so on a goroutine of its own, as the shell and the sandbox's
// spawners do: a kept worker would carry the lock, and whatever was done
// to the thread, into the next call.
var kept = make(chan func())

// workerIdle is how long a worker waits for more work before it ends.
const workerIdle = 30 * time.Second

// runKept runs f on a waiting worker, or on a new one when none waits.
func runKept(f func()) {
	select {
	case kept <- f:
	default:
		go worker(f)
	}
}

// worker runs f, then whatever work it is handed until it has waited
// workerIdle for some.
func worker(f func()) {
	idle := time.NewTimer(workerIdle)
	defer idle.Stop()
	for {
		f()
		f = nil
		idle.Reset(workerIdle)
		select {
		case f = <-kept:
		case <-idle.C:
			return
		}
	}
}
