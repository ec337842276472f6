package testproc

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Children lists, in order, the PIDs of this process's children (on
// Linux, where /proc is) that have not exited and for which keep, given
// the child's name (comm) and its first argument, returns true.
func Children(keep func(comm, arg0 string) bool) []int {
	me := strconv.Itoa(os.Getpid())
	entries, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid …: comm may hold spaces and parentheses.
		open, end := bytes.IndexByte(stat, '('), bytes.LastIndexByte(stat, ')')
		if open < 0 || end < open {
			continue
		}
		f := strings.Fields(string(stat[end+1:]))
		if len(f) < 2 || f[1] != me || f[0] == "Z" {
			continue
		}
		cmdline, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		arg0, _, _ := bytes.Cut(cmdline, []byte{0})
		if keep(string(stat[open+1:end]), string(arg0)) {
			out = append(out, pid)
		}
	}
	slices.Sort(out)
	return out
}
