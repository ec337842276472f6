package isolate

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/hands-dev/hands/internal/jobs"
	"github.com/hands-dev/hands/internal/sandbox/nsinit"
)

// spawnerStartBound is how long a spawner has to set the sandbox up.
const spawnerStartBound = 30 * time.Second

// A Spawner runs a session's commands in one set of namespaces that lives
// as long as the session (see package nsinit's spawner): the sandbox is
// set up once, by a process started at the first command, and each
// command then costs a fork and an exec in it, not a helper's start-up
// and set-up. It implements jobs.Spawner.
//
// Each command is tagged with a UTS namespace of its own, which its
// processes cannot leave (they have no capability, and nested user
// namespaces are off), so that every one of them, setsid ones included,
// is killed when the command ends, while the session's other commands
// run on.
//
// If the spawner dies (it cannot be signalled from inside; the OOM killer
// could), the commands it ran end as killed and the next command starts a
// new one.
type Spawner struct {
	iso *Isolator
	seq atomic.Uint64

	mu     sync.Mutex
	cur    *spawnerProc // the running spawner, or nil
	closed bool
}

// NewSpawner returns the Spawner of one session: nothing starts until its
// first command.
func (i *Isolator) NewSpawner() *Spawner { return &Spawner{iso: i} }

// spawnerProc is one run of the spawner process.
type spawnerProc struct {
	// writable and netNS are those of its spec.
	writable []string
	netNS    bool

	// conn is the server's end of the socket, read and written through
	// the runtime's poller: a thread blocked in read(2) between messages
	// would keep a P in a system call, and the Go runtime's monitor
	// (sysmon) wakes every 20 µs to 10 ms while one is, tens of times a
	// command.
	conn   *net.UnixConn
	cmd    *exec.Cmd
	stderr *tail
	waited chan struct{} // closed when the process has been reaped
	read   chan struct{} // closed when the reader has stopped
	wmu    sync.Mutex

	mu      sync.Mutex
	cmds    map[uint64]*spawned
	dead    bool
	deadErr error
}

// Spawn starts the shell of r in the session's namespaces.
func (s *Spawner) Spawn(r jobs.SpawnRequest) (jobs.Spawned, error) {
	p, err := s.proc()
	if err != nil {
		return nil, err
	}
	c := &spawned{p: p, iso: s.iso, id: s.seq.Add(1), started: make(chan struct{}), exited: make(chan struct{}),
		released: make(chan struct{})}
	p.mu.Lock()
	if p.dead {
		p.mu.Unlock()
		return nil, p.deadErr
	}
	p.cmds[c.id] = c
	p.mu.Unlock()
	m := &nsinit.Msg{Op: nsinit.OpSpawn, ID: c.id, Path: r.Path, Args: r.Args, Dir: r.Dir,
		Env: append(r.Env[:len(r.Env):len(r.Env)], s.iso.ProxyEnv()...)}
	if r.Gate > 0 { // a warm shell: Open takes the mask step, before the command runs
		m.Gate = r.Gate
	} else {
		m.Masks = s.iso.masks(p.writable, p.netNS) // the mask step (masks.go)
	}
	var fds []int
	for n, f := range r.Files {
		if f != nil {
			m.FDs = append(m.FDs, n)
			fds = append(fds, int(f.Fd()))
		}
	}
	err = p.send(m, fds)
	for _, f := range r.Files {
		runtime.KeepAlive(f)
	}
	if err == nil {
		<-c.started
		err = c.err
	}
	if err != nil {
		p.forget(c.id)
		return nil, err
	}
	return c, nil
}

// proc returns the running spawner, starting one if there is none (or the
// last one died).
func (s *Spawner) proc() (*spawnerProc, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, errors.New("the session's sandbox is closed")
	}
	if s.cur != nil {
		s.cur.mu.Lock()
		dead := s.cur.dead
		s.cur.mu.Unlock()
		if !dead {
			return s.cur, nil
		}
		s.cur.stop()
		s.cur = nil
	}
	p, err := s.iso.startSpawner()
	if err != nil {
		return nil, err
	}
	s.cur = p
	return p, nil
}

// Close ends the spawner and every process still in its namespaces.
func (s *Spawner) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	if s.cur != nil {
		s.cur.stop()
		s.cur = nil
	}
	return nil
}

// PID returns the running spawner's PID on the host, or 0 (for tests).
func (s *Spawner) PID() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cur == nil {
		return 0
	}
	return s.cur.cmd.Process.Pid
}

// startSpawner starts a spawner process and waits until it has set the
// sandbox up.
func (i *Isolator) startSpawner() (*spawnerProc, error) {
	if i.err != nil {
		return nil, i.err
	}
	pair, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_SEQPACKET|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("making the spawner's socket: %w", err)
	}
	remote := os.NewFile(uintptr(pair[1]), "spawner")
	cmd := &exec.Cmd{}
	spec := i.spec()
	if err := i.apply(cmd, spec); err != nil {
		syscall.Close(pair[0])
		return nil, err
	}
	cmd.Dir = "/"
	cmd.ExtraFiles = []*os.File{remote} // nsinit.SpawnerFD
	cmd.SysProcAttr.Setsid = true
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
	conn, err := unixConn(pair[0])
	if err != nil {
		remote.Close()
		return nil, err
	}
	p := &spawnerProc{writable: spec.Writable, netNS: spec.NetNS, conn: conn, cmd: cmd, stderr: &tail{}, waited: make(chan struct{}), read: make(chan struct{}), cmds: map[uint64]*spawned{}}
	cmd.Stderr = p.stderr
	// The parent-death signal is tied to the thread that starts the
	// spawner: that thread stays locked, and so alive, until the spawner
	// has been reaped.
	started := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		err := cmd.Start()
		started <- err
		if err == nil {
			cmd.Wait()
		}
		close(p.waited)
	}()
	err = <-started
	remote.Close() // the spawner's now: its end of the socket ends when it does
	if err != nil {
		p.conn.Close()
		return nil, startError(err)
	}
	ready := make(chan error, 1)
	go p.readLoop(ready)
	t := time.NewTimer(spawnerStartBound)
	defer t.Stop()
	select {
	case err = <-ready:
	case <-t.C:
		err = fmt.Errorf("the sandbox's spawner did not set up within %v", spawnerStartBound)
	}
	if err != nil {
		p.stop()
		return nil, err
	}
	return p, nil
}

// startError says why a spawner could not start.
func startError(err error) error {
	if errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.ENOSPC) {
		return fmt.Errorf("creating user namespaces failed (%v): unprivileged user namespaces are off or restricted (kernel.unprivileged_userns_clone, user.max_user_namespaces, AppArmor's apparmor_restrict_unprivileged_userns)", err)
	}
	return fmt.Errorf("starting the sandbox's spawner: %w", err)
}

// readLoop reads the spawner's messages until its socket ends; the first
// is its ready message, given to ready.
func (p *spawnerProc) readLoop(ready chan<- error) {
	defer close(p.read)
	buf := make([]byte, nsinit.MaxMsg)
	first := true
	for {
		n, err := p.conn.Read(buf)
		if err != nil || n == 0 {
			break
		}
		var m nsinit.Msg
		if json.Unmarshal(buf[:n], &m) != nil {
			continue
		}
		if first {
			first = false
			if m.Op != nsinit.OpReady {
				ready <- fmt.Errorf("the sandbox's spawner said %q before it was ready", m.Op)
				continue
			}
			if m.Err != "" {
				ready <- fmt.Errorf("setting the sandbox up: %s", m.Err)
			} else {
				ready <- nil
			}
			continue
		}
		p.mu.Lock()
		c := p.cmds[m.ID]
		p.mu.Unlock()
		if c == nil {
			continue
		}
		switch m.Op {
		case nsinit.OpStarted:
			c.pid = m.PID
			if m.Err != "" {
				c.err = errors.New(m.Err)
			}
			close(c.started)
		case nsinit.OpExited:
			c.ws, c.ok = syscall.WaitStatus(m.Status), true
			c.done.Store(m.Done)
			c.exitOnce.Do(func() { close(c.exited) })
		case nsinit.OpReleased:
			c.releaseOnce.Do(func() { close(c.released) })
		case nsinit.OpMasked:
			// Before the shell can have exited: the spawner answers
			// before it closes the gate.
			c.openErr.Store(&m.Err)
		}
	}
	// The spawner is gone, and with it, as PID 1 of their namespace,
	// every process of its commands.
	<-p.waited
	why := p.cmd.ProcessState.String()
	if t := strings.TrimSpace(p.stderr.String()); t != "" {
		why = t
	}
	err := fmt.Errorf("the sandbox's spawner ended (%s); its commands were killed", why)
	if first {
		ready <- err
	}
	p.mu.Lock()
	p.dead, p.deadErr = true, err
	cmds := p.cmds
	p.cmds = map[uint64]*spawned{}
	p.mu.Unlock()
	for _, c := range cmds {
		select {
		case <-c.started:
		default:
			c.err = err
			close(c.started)
		}
		c.exitOnce.Do(func() { close(c.exited) })
		c.releaseOnce.Do(func() { close(c.released) })
	}
}

// send writes m, with the descriptors fds, to the spawner.
func (p *spawnerProc) send(m *nsinit.Msg, fds []int) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	if len(b) > nsinit.MaxMsg {
		// Too large for one datagram: the message goes in a memfd.
		body, err := memfdOf(b)
		if err != nil {
			return err
		}
		defer syscall.Close(body)
		if b, err = json.Marshal(&nsinit.Msg{Op: m.Op, ID: m.ID, InFD: true}); err != nil {
			return err
		}
		fds = append([]int{body}, fds...)
	}
	var oob []byte
	if len(fds) > 0 {
		oob = syscall.UnixRights(fds...)
	}
	p.wmu.Lock()
	defer p.wmu.Unlock()
	_, _, err = p.conn.WriteMsgUnix(b, oob, nil)
	if err != nil {
		p.mu.Lock()
		defer p.mu.Unlock()
		if p.dead {
			return p.deadErr
		}
		return fmt.Errorf("talking to the sandbox's spawner: %w", err)
	}
	return nil
}

// memfdOf returns a memfd that holds b.
func memfdOf(b []byte) (int, error) {
	if len(b) > nsinit.MaxBody {
		return -1, fmt.Errorf("the request takes %d bytes, over the sandbox's bound of %d", len(b), nsinit.MaxBody)
	}
	fd, err := unix.MemfdCreate("hands-spawn", unix.MFD_CLOEXEC)
	if err != nil {
		return -1, fmt.Errorf("passing a large command to the sandbox: %w", err)
	}
	for off := 0; off < len(b); {
		n, err := unix.Write(fd, b[off:])
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			syscall.Close(fd)
			return -1, fmt.Errorf("passing a large command to the sandbox: %w", err)
		}
		off += n
	}
	return fd, nil
}

func (p *spawnerProc) forget(id uint64) {
	p.mu.Lock()
	delete(p.cmds, id)
	p.mu.Unlock()
}

// stop kills the spawner, and so everything in its namespaces, and waits
// until it is reaped and its socket read to the end.
func (p *spawnerProc) stop() {
	p.cmd.Process.Kill()
	<-p.waited
	<-p.read
	p.conn.Close()
}

// unixConn makes fd, a SOCK_SEQPACKET socket, a connection served by the
// runtime's poller; fd is closed.
func unixConn(fd int) (*net.UnixConn, error) {
	f := os.NewFile(uintptr(fd), "spawner")
	defer f.Close()
	c, err := net.FileConn(f)
	if err != nil {
		return nil, fmt.Errorf("making the spawner's socket: %w", err)
	}
	uc, ok := c.(*net.UnixConn)
	if !ok {
		c.Close()
		return nil, fmt.Errorf("making the spawner's socket: a %T", c)
	}
	return uc, nil
}

// spawned is one command a spawner started.
type spawned struct {
	p           *spawnerProc
	iso         *Isolator
	id          uint64
	started     chan struct{}
	exited      chan struct{}
	released    chan struct{}
	exitOnce    sync.Once
	releaseOnce sync.Once
	pid         int
	err         error
	ws          syscall.WaitStatus
	ok          bool
	done        atomic.Bool            // the spawner said nothing of the command is left
	openErr     atomic.Pointer[string] // OpMasked's Err
}

func (c *spawned) PID() int { return c.pid }

func (c *spawned) Signal(sig syscall.Signal) {
	if c.done.Load() {
		return // nothing left to signal
	}
	c.p.send(&nsinit.Msg{Op: nsinit.OpSignal, ID: c.id, Signal: int(sig)}, nil)
}

func (c *spawned) Exited() <-chan struct{} { return c.exited }

// Open has the spawner cover what the mask step (masks.go) finds now and
// was not covered when the warm shell started (a socket bound since, a
// denied file made or replaced since), then let the shell read its
// command. It implements jobs.Gated.
func (c *spawned) Open() error {
	p := c.p
	return p.send(&nsinit.Msg{Op: nsinit.OpGo, ID: c.id, Masks: c.iso.masks(p.writable, p.netNS)}, nil)
}

// OpenErr, once the shell has exited, says why Open could not let it go
// on, if it could not.
func (c *spawned) OpenErr() error {
	if e := c.openErr.Load(); e != nil {
		return errors.New(*e)
	}
	return nil
}

func (c *spawned) Status() (syscall.WaitStatus, bool) {
	<-c.exited
	return c.ws, c.ok
}

func (c *spawned) Release() {
	if c.done.Load() {
		c.p.forget(c.id) // the spawner has forgotten it
		return
	}
	if c.p.send(&nsinit.Msg{Op: nsinit.OpRelease, ID: c.id}, nil) == nil {
		<-c.released
	}
	c.p.forget(c.id)
}

// tail keeps the last 4 KiB written to it.
type tail struct {
	mu sync.Mutex
	b  []byte
}

func (t *tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, b...)
	if len(t.b) > 4096 {
		t.b = t.b[len(t.b)-4096:]
	}
	return len(b), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}
