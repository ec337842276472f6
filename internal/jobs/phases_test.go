//go:build linux

package jobs

import (
	"context"
	"io"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// BenchmarkBashPhases is where the time of a `true` command goes, step by
// step from a bare `bash -c true` to Manager.Run (unconfined; the root
// package's BenchmarkCallBashTrue adds Landlock and the tool pipeline).
// Each iteration runs every step once, in turn, so that a busy machine's
// load falls on all alike; it reports each step's median wall time
// (ms-STEP) and mean CPU of the process and its children (cpu-ms-STEP);
// Run's includes the watchdog's, also reported alone (cpu-ms-watchdog).
//
//	go test -run X -bench BashPhases -benchtime 200x ./internal/jobs
func BenchmarkBashPhases(b *testing.B) {
	m := newManager(b, Config{})
	wrapper := wrapperScript("bash")
	spawn := func(cmd *exec.Cmd, fd9 bool, lock bool) {
		run := func() {
			var r, w *os.File
			if fd9 {
				var err error
				if r, w, err = os.Pipe(); err != nil {
					b.Fatal(err)
				}
				cmd.ExtraFiles = make([]*os.File, cwdFD-2)
				cmd.ExtraFiles[cwdFD-3] = w
			}
			if err := cmd.Start(); err != nil {
				b.Fatal(err)
			}
			if fd9 {
				w.Close()
				io.Copy(io.Discard, r)
				r.Close()
			}
			cmd.Wait()
		}
		if !lock {
			run()
			return
		}
		done := make(chan struct{})
		go func() {
			runtime.LockOSThread() // never unlocked: the thread ends with the goroutine, as a confined one does
			run()
			close(done)
		}()
		<-done
	}
	shell := func(script string, args ...string) *exec.Cmd {
		return &exec.Cmd{Path: m.shell, Args: append([]string{"bash", "-c", script}, args...), Dir: m.cwd, Env: m.env}
	}
	steps := []struct {
		name string
		run  func()
	}{
		{"bare", func() { exec.Command("bash", "-c", "true").Run() }},
		{"env", func() { spawn(shell("true"), false, false) }},
		{"wrapper", func() { spawn(shell(wrapper, "bash", "true"), true, false) }},
		{"group", func() {
			c := shell(wrapper, "bash", "true")
			c.SysProcAttr = sysProcAttr()
			spawn(c, true, false)
		}},
		{"thread", func() {
			c := shell(wrapper, "bash", "true")
			c.SysProcAttr = sysProcAttr()
			spawn(c, true, true)
		}},
		{"run", func() {
			if _, err := m.Run(context.Background(), "true", 10*time.Second); err != nil {
				b.Fatal(err)
			}
		}},
	}
	walls := make([][]time.Duration, len(steps))
	cpus := make([]time.Duration, len(steps))
	// The watchdog is reaped only at Close, so the children's usage
	// misses it: its CPU comes from /proc, and is added to Run's.
	var watchdogCPU time.Duration
	for b.Loop() {
		for i, s := range steps {
			w0 := m.watch.cpu()
			c0, t0 := cpuNow(), time.Now()
			s.run()
			walls[i] = append(walls[i], time.Since(t0))
			cpus[i] += cpuNow() - c0
			if s.name == "run" {
				d := m.watch.cpu() - w0
				cpus[i] += d
				watchdogCPU += d
			}
		}
	}
	b.ReportMetric(float64(watchdogCPU)/float64(b.N)/1e6, "cpu-ms-watchdog")
	for i, s := range steps {
		slices.Sort(walls[i])
		b.ReportMetric(float64(walls[i][len(walls[i])/2])/1e6, "ms-"+s.name)
		b.ReportMetric(float64(cpus[i])/float64(len(walls[i]))/1e6, "cpu-ms-"+s.name)
	}
	b.ReportMetric(0, "ns/op")
}

// cpu is the CPU time the watchdog has used so far, from
// /proc/PID/schedstat; 0 when it is not running.
func (d *watchdog) cpu() time.Duration {
	if d.cmd == nil || d.cmd.Process == nil {
		return 0
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(d.cmd.Process.Pid) + "/schedstat")
	if err != nil {
		return 0
	}
	ns, _ := strconv.ParseInt(strings.Fields(string(b))[0], 10, 64)
	return time.Duration(ns)
}

// cpuNow is the CPU time of the process and its reaped children.
func cpuNow() time.Duration {
	var self, kids syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &kids)
	return time.Duration(self.Utime.Nano() + self.Stime.Nano() + kids.Utime.Nano() + kids.Stime.Nano())
}
