package main

import (
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// settleQuiet is how long a started server, with its children, must use
// almost no CPU (under settleCPU) to count as settled; settleBound is how
// long it is waited for at most.
const (
	settleQuiet = 150 * time.Millisecond
	settleCPU   = 500 * time.Microsecond
	settleBound = 5 * time.Second
)

// startRun is what one start of a server measured.
type startRun struct {
	// cold: from the start of the process to the initialize result, and
	// the CPU of the process and its reaped children, to its exit at end
	// of input.
	coldWall, coldCPU time.Duration
	// settled: initialize sent once the process had started and settled;
	// the wall time to its result and the server's CPU meanwhile.
	initWall, initCPU time.Duration
	// For Hands: a bash `true` right after a cold initialize (in a start
	// of its own), and one right after the settled initialize (the first
	// of its session each).
	bashNow, bashSettled time.Duration
	// listSettled: the first tools/list, right after the settled
	// initialize.
	listSettled time.Duration
	// settledCPU is the CPU of the settled run's process, children
	// included, to its exit: a session with one bash call.
	settledCPU time.Duration
}

// timeStartup starts each server n times, interleaved, and prints
// medians: the cold start (process start to initialize result, CPU to
// exit), initialize answered by a process already started and settled
// (its CPU no longer moving, the sandbox's background probe included),
// and, for Hands, the first bash call's wall time in both.
func timeStartup(ctx context.Context, n int, cmds map[string]*exec.Cmd) {
	names := slices.Sorted(maps.Keys(cmds))
	runs := map[string][]startRun{}
	for i := -1; i < n; i++ {
		for _, name := range names {
			bash := strings.HasPrefix(name, "hands")
			r := startRun{}
			r.coldWall, r.coldCPU, _ = coldStart(ctx, name, cmds[name], false)
			if bash {
				_, _, r.bashNow = coldStart(ctx, name, cmds[name], true)
			}
			r.initWall, r.initCPU, r.listSettled, r.bashSettled, r.settledCPU = settledStart(ctx, name, cmds[name], bash)
			if i >= 0 {
				runs[name] = append(runs[name], r)
			}
		}
	}
	fmt.Printf("start, %d times each, interleaved; medians (ms)\n", n)
	fmt.Printf("%-14s %10s %10s %10s %10s %10s %10s %10s %10s\n", "server", "cold wall", "cold cpu", "init wall", "init cpu", "list idle", "bash now", "bash idle", "cpu+bash")
	for _, name := range names {
		rs := runs[name]
		col := func(f func(startRun) time.Duration) string {
			v := make([]time.Duration, len(rs))
			for i, r := range rs {
				v[i] = f(r)
			}
			slices.Sort(v)
			if len(v) == 0 || v[len(v)-1] == 0 {
				return "-"
			}
			return fmt.Sprintf("%.3f", ms(v[len(v)/2]))
		}
		fmt.Printf("%-14s %10s %10s %10s %10s %10s %10s %10s %10s\n", name,
			col(func(r startRun) time.Duration { return r.coldWall }), col(func(r startRun) time.Duration { return r.coldCPU }),
			col(func(r startRun) time.Duration { return r.initWall }), col(func(r startRun) time.Duration { return r.initCPU }),
			col(func(r startRun) time.Duration { return r.listSettled }),
			col(func(r startRun) time.Duration { return r.bashNow }), col(func(r startRun) time.Duration { return r.bashSettled }),
			col(func(r startRun) time.Duration { return r.settledCPU }))
	}
	fmt.Println("cold: process start to initialize result, and CPU (children reaped included) to exit;")
	fmt.Println("init: initialize sent to a process already started and settled, and the server's CPU for it;")
	fmt.Println("list idle: the first tools/list, right after the settled initialize;")
	fmt.Println("bash now / idle: the session's first bash `true` right after a cold / the settled initialize;")
	fmt.Println("cpu+bash: CPU to exit of the settled run (start, initialize, one bash call), children included.")
}

// coldStart starts the server, times initialize from the process's start
// and, with bash, one bash call right after it; it returns the CPU of the
// process to its exit.
func coldStart(ctx context.Context, name string, proto *exec.Cmd, bash bool) (wall, cpu, bashWall time.Duration) {
	cmd := exec.Command(proto.Path, proto.Args[1:]...)
	client := mcp.NewClient(&mcp.Implementation{Name: "callbench", Version: "1"}, nil)
	t0 := time.Now()
	sess, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	wall = time.Since(t0)
	if err != nil {
		fail(fmt.Errorf("starting %s: %w", name, err))
	}
	if bash {
		bashWall = bashTrue(ctx, name, sess)
	}
	sess.Close()
	if cmd.ProcessState != nil {
		cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	return wall, cpu, bashWall
}

// settledStart starts the server on pipes of its own, waits until it has
// settled, then times initialize (wall, and the server's CPU for it), the
// first tools/list and, with bash, one bash call; it returns the CPU of
// the process to its exit.
func settledStart(ctx context.Context, name string, proto *exec.Cmd, bash bool) (wall, cpu, list, bashWall, total time.Duration) {
	cmd := exec.Command(proto.Path, proto.Args[1:]...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		fail(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		fail(err)
	}
	if err := cmd.Start(); err != nil {
		fail(fmt.Errorf("starting %s: %w", name, err))
	}
	settle(cmd.Process.Pid)
	client := mcp.NewClient(&mcp.Implementation{Name: "callbench", Version: "1"}, nil)
	c0 := cpuOf(cmd.Process.Pid)
	t0 := time.Now()
	sess, err := client.Connect(ctx, &mcp.IOTransport{Reader: stdout, Writer: stdin}, nil)
	wall = time.Since(t0)
	cpu = cpuOf(cmd.Process.Pid) - c0
	if err != nil {
		fail(fmt.Errorf("initializing %s: %w", name, err))
	}
	t1 := time.Now()
	if _, err := sess.ListTools(ctx, nil); err != nil {
		fail(fmt.Errorf("%s tools/list: %w", name, err))
	}
	list = time.Since(t1)
	if bash {
		bashWall = bashTrue(ctx, name, sess)
	}
	sess.Close()
	io.Copy(io.Discard, stdout)
	cmd.Wait()
	return wall, cpu, list, bashWall, cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
}

// bashTrue times one bash `true` call.
func bashTrue(ctx context.Context, name string, sess *mcp.ClientSession) time.Duration {
	t0 := time.Now()
	res, err := sess.CallTool(ctx, &mcp.CallToolParams{Name: "bash", Arguments: map[string]any{"command": "true"}})
	w := time.Since(t0)
	if err != nil {
		fail(fmt.Errorf("%s bash: %w", name, err))
	}
	if res.IsError {
		fail(fmt.Errorf("%s bash: %s", name, text(res)))
	}
	return w
}

// settle waits until the process pid and its descendants have used less
// than settleCPU in settleQuiet, or settleBound has passed.
func settle(pid int) {
	end := time.Now().Add(settleBound)
	last := treeCPU(pid)
	for time.Now().Before(end) {
		time.Sleep(settleQuiet)
		now := treeCPU(pid)
		if now-last < settleCPU {
			return
		}
		last = now
	}
}

// treeCPU returns the CPU time of the process pid and of its living
// descendants (the sandbox's spawner, for Hands).
func treeCPU(pid int) time.Duration {
	sum := cpuOf(pid)
	tasks, _ := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	for _, t := range tasks {
		b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/children", pid, t.Name()))
		for f := range strings.FieldsSeq(string(b)) {
			if c, err := strconv.Atoi(f); err == nil {
				sum += treeCPU(c)
			}
		}
	}
	return sum
}
