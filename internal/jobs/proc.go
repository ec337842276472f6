package jobs

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"
)

// drainAfterKill is how long the readers get to see the end of the output
// once the whole group has been killed. Only a process that left the group
// (setsid) can still hold the pipes then; after this the server stops
// reading rather than hang on it.
const drainAfterKill = 250 * time.Millisecond

// proc is one shell and its process group.
type proc struct {
	cmd      *exec.Cmd
	pgid     int
	pipes    []*os.File // read ends of the output pipes
	watch    *watchdog
	slot     int           // the group's slot in watch's list
	exited   chan struct{} // closed when the shell has exited (on Linux, not yet reaped)
	drained  chan struct{} // closed when the readers have stopped
	killReq  chan struct{} // closed to ask for the group to be killed
	killOnce sync.Once
	finished chan struct{} // closed when the group is gone and the shell reaped
	cwd      lastLine      // what the wrapper wrote on its cwd pipe

	mu     sync.Mutex
	reaped bool // after this, the group id may belong to someone else

	// sp is the shell when a Spawner started it (cmd then only describes
	// it): signals, the wait and the clearing up go through sp, and pgid
	// is the group as the command sees it.
	sp Spawned
}

// requestKill asks whoever waits for p to kill its group.
func (p *proc) requestKill() { p.killOnce.Do(func() { close(p.killReq) }) }

// signal sends sig to the group, unless the shell has been reaped.
func (p *proc) signal(sig syscall.Signal) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.reaped {
		p.kill(sig)
	}
}

// spawn starts command under the wrapper in dir, its output going to s;
// with reportCwd the shell gets a pipe on descriptor cwdFD to report its
// final directory on.
func (m *Manager) spawn(command, dir string, reportCwd bool, s *sink, confine func(*exec.Cmd) error) (*proc, error) {
	name := m.argv0()
	cmd := &exec.Cmd{
		Path: m.shell,
		// $0 is the shell's name (or path), so its messages read
		// "bash: ..." (or "/bin/bash: ...").
		Args: []string{name, "-c", m.wrapper, name, command},
		Dir:  dir,
		Env:  m.env,
	}
	var spawner Spawner
	if confine != nil {
		spawner = m.cfg.Spawner
	}
	p, err := startProc(cmd, s, m.cfg.MergeStreams, &m.watch, confine, spawner, reportCwd)
	if err != nil {
		if errors.Is(err, syscall.E2BIG) || strings.Contains(err.Error(), syscall.E2BIG.Error()) {
			return nil, fmt.Errorf("starting %s: %w: %s", m.shell, err, tooLong(cmd.Args, cmd.Env))
		}
		return nil, fmt.Errorf("starting %s: %w", m.shell, err)
	}
	return p, nil
}

// startProc starts cmd, whose Stdout, Stderr and SysProcAttr it sets, in a
// process group of its own that watch learns of, its output drained into
// s: down one pipe when merge is set, else one pipe per stream. With
// reportCwd, cmd also gets a pipe on descriptor cwdFD (its ExtraFiles),
// drained into p.cwd. With a spawner, the spawner starts cmd's program
// instead, and confine is not called.
func startProc(cmd *exec.Cmd, s *sink, merge bool, watch *watchdog, confine func(*exec.Cmd) error, spawner Spawner, reportCwd bool) (*proc, error) {
	p, err := launch(cmd, merge, watch, confine, spawner, reportCwd, nil)
	if err != nil {
		return nil, err
	}
	p.drainInto(s, merge)
	return p, nil
}

// launch is startProc without the draining: the output waits in its pipes
// until drainInto. extra, if not nil, are more of cmd's descriptors, from
// number 3 (nil ones closed), below cwdFD: those of a warm shell, whose
// gate, with a spawner, is the spawner's (SpawnRequest.Gate).
func launch(cmd *exec.Cmd, merge bool, watch *watchdog, confine func(*exec.Cmd) error, spawner Spawner, reportCwd bool, extra []*os.File) (*proc, error) {
	var opened []*os.File
	closeAll := func() {
		for _, f := range opened {
			f.Close()
		}
	}
	pipe := func() (r, w *os.File, err error) {
		r, w, err = outputPipe()
		if err == nil {
			opened = append(opened, r, w)
		}
		return r, w, err
	}
	outR, outW, err := pipe()
	if err != nil {
		return nil, err
	}
	errR, errW := outR, outW
	if !merge {
		if errR, errW, err = pipe(); err != nil {
			closeAll()
			return nil, err
		}
	}
	var cwdR, cwdW *os.File
	if reportCwd {
		if cwdR, cwdW, err = pipe(); err != nil {
			closeAll()
			return nil, err
		}
	}
	if extra != nil || reportCwd {
		cmd.ExtraFiles = make([]*os.File, cwdFD-2)
		copy(cmd.ExtraFiles, extra)
		cmd.ExtraFiles[cwdFD-3] = cwdW
	}
	cmd.Stdout, cmd.Stderr, cmd.SysProcAttr = outW, errW, sysProcAttr()
	p := &proc{
		cmd:      cmd,
		watch:    watch,
		exited:   make(chan struct{}),
		drained:  make(chan struct{}),
		killReq:  make(chan struct{}),
		finished: make(chan struct{}),
	}
	if spawner != nil {
		gate := 0
		if extra != nil {
			gate = warmGateFD
		}
		err = p.spawnWith(spawner, gate)
	} else {
		started := make(chan error, 1)
		go p.run(confine, started)
		err = <-started
	}
	outW.Close()
	errW.Close()
	if cwdW != nil {
		cwdW.Close()
	}
	if err != nil {
		closeAll()
		return nil, err
	}
	p.pipes = []*os.File{outR}
	if !merge {
		p.pipes = append(p.pipes, errR)
	}
	if cwdR != nil {
		p.pipes = append(p.pipes, cwdR)
	}
	return p, nil
}

// drainInto starts reading the output pipes launch made into s (and the
// cwd pipe into p.cwd); p.drained is closed when every reader has stopped.
func (p *proc) drainInto(s *sink, merge bool) {
	var readers sync.WaitGroup
	out, rest := p.pipes[0], p.pipes[1:]
	if merge {
		readers.Go(func() { s.drain(out, nil) })
	} else {
		errR := rest[0]
		rest = rest[1:]
		readers.Go(func() { s.drain(out, s.stdout) })
		readers.Go(func() { s.drain(errR, s.stderr) })
	}
	if len(rest) > 0 {
		cwd := rest[0]
		readers.Go(func() { p.cwd.drain(cwd) })
	}
	go func() {
		readers.Wait()
		close(p.drained)
	}()
}

// ending is why await stopped waiting for a shell.
type ending int

const (
	endedItself  ending = iota // the shell exited before anything was sent
	endedTimeout               // the timeout passed
	endedCancel                // done was closed (the caller's context ended)
	endedKill                  // a kill was requested (Kill, Close)
)

// await waits until the shell exits, expired fires, done is closed or a
// kill is requested; then, unless the shell has exited by itself, ends its
// group (SIGTERM, then SIGKILL after grace), and in any case clears up what
// it left (finish). A nil expired or done never fires.
func (p *proc) await(expired <-chan time.Time, done <-chan struct{}, grace time.Duration) ending {
	return p.settle(p.wait(expired, done), grace)
}

// wait waits until the shell exits, expired fires, done is closed or a
// kill is requested, and says which; it sends nothing.
func (p *proc) wait(expired <-chan time.Time, done <-chan struct{}) ending {
	select {
	case <-p.exited:
		return endedItself
	case <-expired:
		return endedTimeout
	case <-done:
		return endedCancel
	case <-p.killReq:
		return endedKill
	}
}

// settle is the end of await once wait has said why: unless the shell has
// exited by itself, its group is ended; then what it left is cleared up.
func (p *proc) settle(why ending, grace time.Duration) ending {
	gentle := true
	select {
	case <-p.exited:
		why = endedItself // it ended by itself: nothing has been sent yet
	default:
		p.terminate(grace)
		gentle = false
	}
	p.finish(grace, gentle)
	return why
}

// run starts the shell from a goroutine locked to its OS thread and stays
// there until the shell exits. The thread matters twice: the parent-death
// signal is tied to the thread that forked, not to the process, so the
// thread must outlive the shell; and the confine hook restricts the thread
// so the shell inherits the restriction, after which the thread must never
// run anything else: it is not unlocked, so it ends with the goroutine.
func (p *proc) run(confine func(*exec.Cmd) error, started chan<- error) {
	runtime.LockOSThread()
	if confine != nil {
		if err := confine(p.cmd); err != nil {
			started <- fmt.Errorf("confining the command: %w", err)
			return
		}
	}
	if err := p.cmd.Start(); err != nil {
		started <- err
		if confine == nil {
			runtime.UnlockOSThread()
		}
		return
	}
	p.pgid = p.cmd.Process.Pid
	p.slot = p.watch.add(p.pgid)
	started <- nil
	p.waitLeader()
	close(p.exited)
	if confine == nil {
		runtime.UnlockOSThread()
	}
}

// spawnWith has spawner start p.cmd's program, with its output pipes and
// its ExtraFiles from descriptor 3, and the spawner's gate as descriptor
// gate, if not 0.
func (p *proc) spawnWith(spawner Spawner, gate int) error {
	files := append([]*os.File{nil, p.cmd.Stdout.(*os.File), p.cmd.Stderr.(*os.File)}, p.cmd.ExtraFiles...)
	sp, err := spawner.Spawn(SpawnRequest{Path: p.cmd.Path, Args: p.cmd.Args, Env: p.cmd.Env, Dir: p.cmd.Dir, Files: files, Gate: gate})
	if err != nil {
		return fmt.Errorf("confining the command: %w", err)
	}
	if _, ok := sp.(Gated); gate != 0 && !ok {
		sp.Signal(syscall.SIGKILL)
		sp.Release()
		return errors.New("the sandbox cannot start a shell ahead of its command")
	}
	p.sp, p.pgid, p.watch = sp, sp.PID(), nil
	go func() {
		<-sp.Exited()
		close(p.exited)
	}()
	return nil
}

// openErr says why a warm shell started by a spawner ran nothing, if its
// spawner could not let it go on (Gated.OpenErr).
func (p *proc) openErr() error {
	if g, ok := p.sp.(Gated); ok {
		return g.OpenErr()
	}
	return nil
}

// terminate ends a shell that is still running: SIGTERM to the group, then
// SIGKILL once grace has passed or the shell has gone.
func (p *proc) terminate(grace time.Duration) {
	p.signal(syscall.SIGTERM)
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case <-p.exited:
	case <-t.C:
	}
	p.signal(syscall.SIGKILL)
	<-p.exited
}

// finish clears up after the shell exited: no process outlives its command,
// so what is left of the group (a `cmd &` the command started, the
// watcher) gets SIGTERM, grace to finish its output, and SIGKILL; then the
// readers stop and the shell is reaped. gentle is false when the group has
// already had its SIGTERM.
func (p *proc) finish(grace time.Duration, gentle bool) {
	defer close(p.finished)
	if gentle {
		p.signal(syscall.SIGTERM)
		t := time.NewTimer(grace)
		select {
		case <-p.drained:
		case <-t.C:
		}
		t.Stop()
	}
	p.signal(syscall.SIGKILL)
	t := time.NewTimer(drainAfterKill)
	select {
	case <-p.drained:
	case <-t.C:
		for _, f := range p.pipes {
			f.SetReadDeadline(time.Now())
		}
		<-p.drained
	}
	t.Stop()
	p.watch.remove(p.slot)
	p.mu.Lock()
	p.reaped = true
	p.mu.Unlock()
	if p.sp != nil {
		p.sp.Release()
	} else {
		p.reap()
	}
	for _, f := range p.pipes {
		f.Close()
	}
}

// exitStatus returns the shell's exit code and, if a signal ended it, the
// signal's name; the code is then 128 plus the signal number, as a shell
// reports it.
func (p *proc) exitStatus() (code int, signal string) {
	var ws syscall.WaitStatus
	var ok bool
	if p.sp != nil {
		if ws, ok = p.sp.Status(); !ok {
			// The sandbox died under the shell: the kernel killed
			// everything in it.
			return 128 + int(syscall.SIGKILL), signalNames[syscall.SIGKILL]
		}
	} else if ps := p.cmd.ProcessState; ps == nil {
		return -1, ""
	} else {
		ws, ok = ps.Sys().(syscall.WaitStatus)
		if !ok {
			return ps.ExitCode(), ""
		}
	}
	if ws.Signaled() {
		s := ws.Signal()
		name := signalNames[s]
		if name == "" {
			name = s.String()
		}
		return 128 + int(s), name
	}
	return ws.ExitStatus(), ""
}

// lastLine keeps the last complete line of at most maxCwdLine bytes read
// from a pipe, reading on to the end whatever is written, so neither a
// flood nor a line without end costs more than that much memory.
type lastLine struct {
	mu   sync.Mutex
	line string
}

// drain reads r until it ends or its read deadline passes.
func (l *lastLine) drain(r *os.File) {
	buf := make([]byte, 4096)
	var cur []byte
	long := false // the current line is over the bound: dropped
	for {
		n, err := r.Read(buf)
		for _, c := range buf[:n] {
			switch {
			case c == '\n':
				if !long {
					l.mu.Lock()
					l.line = string(cur)
					l.mu.Unlock()
				}
				cur, long = cur[:0], false
			case long:
			case len(cur) == maxCwdLine:
				cur, long = cur[:0], true
			default:
				cur = append(cur, c)
			}
		}
		if err != nil {
			return
		}
	}
}

func (l *lastLine) last() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.line
}
