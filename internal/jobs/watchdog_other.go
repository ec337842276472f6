//go:build !linux

package jobs

// watchdog does nothing here: without a parent-death signal to pair with,
// commands outlive a server that dies without closing its Managers.
type watchdog struct{}

func (*watchdog) start(string) {}
func (*watchdog) add(int) int  { return -1 }
func (*watchdog) remove(int)   {}
func (*watchdog) stop()        {}
