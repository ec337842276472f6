//go:build linux

package jobs

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// watchdogScript waits, without waking, for end of file on its stdin, a
// pipe from the server that nothing is ever written to: it comes when the
// server exits however it exits (SIGKILL included). It then kills every
// process group listed in the slots of the file on descriptor 3 (see
// watchdog). It is POSIX sh, so /bin/sh can run it.
const watchdogScript = `trap '' INT HUP QUIT
while read -r _; do :; done
while read -r id; do [ -n "$id" ] && kill -s KILL -- "-$id" 2>/dev/null; done <&3`

// slotSize is the width of one slot of the watchdog's file: a process
// group id, padded with spaces, and a newline. 4096 is a multiple of it,
// so no slot straddles a page and one write fills one slot whole.
const slotSize = 16

// watchdog is one long-lived shell per Manager that kills the Manager's
// process groups if the server dies without closing it. A parent-death
// signal reaches only the shell, not what the shell started, so without
// it a `sleep 1000 &` would outlive a server killed with SIGKILL.
//
// The server lists the live groups in a file only it and the watchdog
// hold (a memfd, or an unlinked file where there is none), one slot per
// group, written with one pwrite when a group starts and blanked with
// another before its leader is reaped, so the watchdog never holds a
// group id the kernel could have given to someone else. The watchdog
// reads the file only once the server is gone, so a command costs the
// server two writes and the watchdog nothing: it never wakes until then.
type watchdog struct {
	mu    sync.Mutex
	cmd   *exec.Cmd
	w     *os.File // the watchdog's stdin; nil when it is not running
	list  *os.File // the slots
	free  []int    // slots blanked, to be reused
	slots int      // slots ever used
	err   error    // why it is not running
}

// start starts the watchdog shell, unconfined, in its own session so a
// terminal's signals do not reach it, without the parent-death signal it
// must outlive the server to do its job.
func (d *watchdog) start(shell string) {
	list, err := listFile()
	if err != nil {
		d.err = err
		return
	}
	r, w, err := os.Pipe()
	if err != nil {
		list.Close()
		d.err = err
		return
	}
	d.cmd = &exec.Cmd{
		Path:        shell,
		Args:        []string{"hands-watchdog", "-c", watchdogScript},
		Dir:         "/",
		Env:         []string{"PATH=" + defaultPath},
		Stdin:       r,
		ExtraFiles:  []*os.File{list},
		SysProcAttr: &syscall.SysProcAttr{Setsid: true},
	}
	if err := d.cmd.Start(); err != nil {
		r.Close()
		w.Close()
		list.Close()
		d.err = err
		return
	}
	r.Close()
	d.w, d.list = w, list
}

// listFile makes the file of slots: a memfd, or else an unlinked file in
// the system's temporary directory.
func listFile() (*os.File, error) {
	fd, err := unix.MemfdCreate("hands-watchdog", unix.MFD_CLOEXEC)
	if err == nil {
		return os.NewFile(uintptr(fd), "hands-watchdog"), nil
	}
	f, err := os.CreateTemp("", "hands-watchdog-")
	if err != nil {
		return nil, fmt.Errorf("making the watchdog's list: %w", err)
	}
	os.Remove(f.Name())
	return f, nil
}

// add lists pgid and returns its slot, or -1 when the watchdog is not
// running (then Close is the only guard).
func (d *watchdog) add(pgid int) int {
	if d == nil {
		return -1 // a spawner's command: the spawner's death ends it
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.w == nil {
		return -1
	}
	var slot int
	if n := len(d.free); n > 0 {
		slot, d.free = d.free[n-1], d.free[:n-1]
	} else {
		slot = d.slots
		d.slots++
	}
	var b [slotSize]byte
	fillSlot(&b, pgid)
	if _, err := d.list.WriteAt(b[:], int64(slot)*slotSize); err != nil {
		d.err = err
		return -1
	}
	return slot
}

// remove blanks slot, which add returned.
func (d *watchdog) remove(slot int) {
	if d == nil || slot < 0 {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.list == nil {
		return
	}
	var b [slotSize]byte
	fillSlot(&b, 0)
	if _, err := d.list.WriteAt(b[:], int64(slot)*slotSize); err != nil {
		d.err = err
		return // the slot keeps its id: better a kill too many at the end than reuse
	}
	d.free = append(d.free, slot)
}

// fillSlot writes pgid (none when 0), padded with spaces, and a newline.
func fillSlot(b *[slotSize]byte, pgid int) {
	for i := range b {
		b[i] = ' '
	}
	b[slotSize-1] = '\n'
	if pgid > 0 {
		var digits [20]byte
		d := strconv.AppendInt(digits[:0], int64(pgid), 10)
		copy(b[:slotSize-1], d)
	}
}

// stop closes the watchdog's stdin, which it takes as the server's end,
// and waits for it. The caller has killed and withdrawn every group.
func (d *watchdog) stop() {
	d.mu.Lock()
	w, list := d.w, d.list
	d.w, d.list = nil, nil
	d.mu.Unlock()
	if w != nil {
		w.Close()
		d.cmd.Wait()
		list.Close()
	}
}
