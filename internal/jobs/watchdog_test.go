//go:build linux

package jobs

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// At the server's end the watchdog kills the groups listed, and only
// those: a group withdrawn before its leader was reaped stays alone, and
// its slot goes to the next group.
func TestWatchdogKillsListedGroupsOnly(t *testing.T) {
	var d watchdog
	d.start("/bin/sh")
	if d.err != nil {
		t.Fatal(d.err)
	}
	mk := marker()
	start := func() *exec.Cmd {
		c := exec.Command("sleep", mk)
		c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Process.Kill(); c.Wait() })
		return c
	}
	a, b := start(), start()
	sa, sb := d.add(a.Process.Pid), d.add(b.Process.Pid)
	if sa != 0 || sb != 1 {
		t.Fatalf("slots %d and %d, want 0 and 1", sa, sb)
	}
	d.remove(sb)
	c := start()
	if sc := d.add(c.Process.Pid); sc != sb {
		t.Errorf("slot %d, want the freed %d", sc, sb)
	}
	list := make([]byte, 64)
	n, _ := d.list.ReadAt(list, 0)
	if got, want := strings.Fields(string(list[:n])), []string{strconv.Itoa(a.Process.Pid), strconv.Itoa(c.Process.Pid)}; strings.Join(got, " ") != strings.Join(want, " ") || n != 2*slotSize {
		t.Errorf("list %q, want the groups %v in %d bytes", list[:n], want, 2*slotSize)
	}
	d.stop()
	for _, k := range []*exec.Cmd{a, c} {
		if err := k.Wait(); err == nil || !strings.Contains(err.Error(), "killed") {
			t.Errorf("listed group %d: %v, want killed", k.Process.Pid, err)
		}
	}
	if err := b.Process.Signal(syscall.Signal(0)); err != nil {
		t.Errorf("withdrawn group %d was killed: %v", b.Process.Pid, err)
	}
	if d.add(1) != -1 {
		t.Error("a stopped watchdog took a group")
	}
}

// A watchdog that could not start lists nothing and does not fail sends.
func TestWatchdogNotStarted(t *testing.T) {
	var d watchdog
	d.start(os.DevNull)
	if d.err == nil {
		t.Fatal("started /dev/null as a shell")
	}
	if s := d.add(os.Getpid()); s != -1 {
		t.Errorf("slot %d, want -1", s)
	}
	d.remove(-1)
	d.stop()
}
