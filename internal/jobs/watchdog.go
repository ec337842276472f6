//go:build linux

package jobs

import (
	"fmt"
	"os"
	"os/exec"
	"sync"
	"syscall"
)

// watchdogScript keeps the set of live process groups the server tells it
// about on stdin ("+PGID", "-PGID") and, at end of file, which comes when
// the server exits however it exits (SIGKILL included), kills every group
// still in the set. It is POSIX sh, so /bin/sh can run it.
const watchdogScript = `trap '' INT HUP QUIT
l=' '
while read -r op id; do
  case $op in
    +) l="$l$id " ;;
    -) case $l in *" $id "*) l="${l%% $id *} ${l#* $id }" ;; esac ;;
  esac
done
for id in $l; do kill -s KILL -- "-$id" 2>/dev/null; done`

// watchdog is one long-lived shell per Manager that kills the Manager's
// process groups if the server dies without closing it. A parent-death
// signal reaches only the shell, not what the shell started, so without
// it a `sleep 1000 &` would outlive a server killed with SIGKILL. One
// process per session, so that a command costs a line written to a pipe
// rather than a fork.
//
// A group is announced after it starts and withdrawn before its leader is
// reaped, so the watchdog never holds a group id the kernel could have
// given to someone else.
type watchdog struct {
	mu  sync.Mutex
	cmd *exec.Cmd
	w   *os.File // the watchdog's stdin; nil when it is not running
	err error    // why it is not running
}

// start starts the watchdog shell, unconfined, in its own session so a
// terminal's signals do not reach it, without the parent-death signal it
// must outlive the server to do its job.
func (d *watchdog) start(shell string) {
	r, w, err := os.Pipe()
	if err != nil {
		d.err = err
		return
	}
	d.cmd = &exec.Cmd{
		Path:        shell,
		Args:        []string{"hands-watchdog", "-c", watchdogScript},
		Dir:         "/",
		Env:         []string{"PATH=" + defaultPath},
		Stdin:       r,
		SysProcAttr: &syscall.SysProcAttr{Setsid: true},
	}
	if err := d.cmd.Start(); err != nil {
		r.Close()
		w.Close()
		d.err = err
		return
	}
	r.Close()
	d.w = w
}

// send writes a line to the watchdog; once that fails, groups are no
// longer watched and Close is the only guard.
func (d *watchdog) send(op byte, pgid int) {
	if d == nil {
		return // a spawner's command: the spawner's death ends it
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.w == nil {
		return
	}
	if _, err := fmt.Fprintf(d.w, "%c %d\n", op, pgid); err != nil {
		d.err = err
		d.w.Close()
		d.w = nil
	}
}

// stop closes the watchdog's stdin, which it takes as the server's end,
// and waits for it. The caller has killed and withdrawn every group.
func (d *watchdog) stop() {
	d.mu.Lock()
	w := d.w
	d.w = nil
	d.mu.Unlock()
	if w != nil {
		w.Close()
		d.cmd.Wait()
	}
}
