//go:build linux && (amd64 || arm64 || riscv64 || loong64)

package nsinit

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"sync"
	"syscall"
	"time"
	"unsafe"
)

// init runs the spawner when the process was started as one (see
// SpawnerArg0), before the packages that sort after this one are
// initialised, and exits when the server closes its socket. Run anywhere
// but as PID 1 of new namespaces (by hand, as root), its mounts would
// change the host's view: it exits then, saying so.
func init() {
	if len(os.Args) < 1 || os.Args[0] != SpawnerArg0 {
		return
	}
	raw, ok := os.LookupEnv(SpecEnv)
	if !ok {
		return
	}
	if os.Getpid() != 1 {
		fmt.Fprintln(os.Stderr, "hands sandbox: the spawner runs only as PID 1 of its own namespaces; nothing ran")
		os.Exit(SetupFailed)
	}
	os.Exit(spawnerMain(raw))
}

// ignoredSignals are the signals the spawner catches and drops: PID 1 of
// a namespace gets from inside only the signals it has a handler for, and
// the Go runtime installs handlers (some of which end the program), so a
// command's `kill -TERM 1` or `kill -SEGV 1` would otherwise reach it.
// They are caught, not ignored (SIG_IGN), because an ignored signal stays
// ignored across fork and exec: every command would inherit it, whereas a
// caught one is reset to its default in the child. SIGCHLD is left alone.
var ignoredSignals = []os.Signal{
	syscall.SIGHUP, syscall.SIGINT, syscall.SIGQUIT, syscall.SIGILL, syscall.SIGTRAP,
	syscall.SIGABRT, syscall.SIGBUS, syscall.SIGFPE, syscall.SIGUSR1, syscall.SIGSEGV,
	syscall.SIGUSR2, syscall.SIGPIPE, syscall.SIGALRM, syscall.SIGTERM, syscall.SIGSTKFLT,
	syscall.SIGTSTP, syscall.SIGTTIN, syscall.SIGTTOU, syscall.SIGXCPU, syscall.SIGXFSZ,
	syscall.SIGVTALRM, syscall.SIGIO, syscall.SIGPWR, syscall.SIGSYS,
}

const prSetDumpable = 4

// releaseBound is how long OpRelease goes on killing a command's
// processes (one in uninterruptible sleep cannot die at once) before it
// answers all the same.
const releaseBound = 5 * time.Second

// spawner is the per-session process that starts a session's commands.
type spawner struct {
	sock    int
	devnull int
	wmu     sync.Mutex // one message at a time on sock

	mu    sync.Mutex
	cmds  map[uint64]*spawnedCmd // by id, until released
	byPID map[int]*spawnedCmd    // shells not yet reaped
	kick  chan struct{}          // a child was started: the reaper has work

	signals chan sigReq   // to the signaller, in order
	masking chan maskReq  // to the masker
	next    *tagNS        // the namespace of the next command, made ahead
	mfd     int           // the mask source, or -1 until a mask is needed (the masker's)
	maskDev uint64        // its device: a path on it is masked
	served  chan struct{} // closed when the server's socket has ended
}

// tagNS is a UTS namespace made for a command: a descriptor of it, which
// keeps its inode number unique, and its device and inode.
type tagNS struct {
	fd       int
	dev, ino uint64
}

type sigReq struct {
	c   *spawnedCmd
	sig syscall.Signal
}

type maskReq struct {
	paths []string
	reply chan error
}

// spawnedCmd is one command: its shell and the UTS namespace that tags
// every process it starts (a process without capabilities cannot leave
// it, and nested user namespaces, which would give them, are off).
type spawnedCmd struct {
	id       uint64
	pid      int
	tag      int // a descriptor of the namespace: it keeps its inode number unique
	dev, ino uint64

	mu       sync.Mutex
	released bool // tag is closed
	gate     int  // the write end of its gate (Msg.Gate), or -1
}

// takeGate returns c's gate, which is then the caller's to close, or -1.
func (c *spawnedCmd) takeGate() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	g := c.gate
	c.gate = -1
	return g
}

// spawnerMain is the spawner: PID 1 of the session's user, mount, PID and
// IPC (and network) namespaces, with the view Spec.setUp builds, which
// starts each command it is asked for from a thread confined by
// confineThread.
func spawnerMain(raw string) int {
	// One P: the spawner's goroutines mostly wait in system calls, and
	// with more, the Go scheduler's threads spin looking for work at each
	// wake-up: about 40% of the spawner's CPU time per command here.
	runtime.GOMAXPROCS(1)
	sp := &spawner{sock: SpawnerFD, cmds: map[uint64]*spawnedCmd{}, byPID: map[int]*spawnedCmd{},
		kick: make(chan struct{}, 1), signals: make(chan sigReq, 64), masking: make(chan maskReq), mfd: -1,
		served: make(chan struct{})}
	fail := func(err error) int {
		sp.send(&Msg{Op: OpReady, Err: err.Error()})
		fmt.Fprintf(os.Stderr, "hands sandbox: %v\n", err)
		return SetupFailed
	}
	sigs := make(chan os.Signal, 16)
	signal.Notify(sigs, ignoredSignals...)
	go func() {
		for range sigs {
		}
	}()
	syscall.CloseOnExec(SpawnerFD)
	// Not dumpable: a command can neither ptrace the spawner nor read its
	// /proc/1/environ, mem or fd.
	if _, _, e := syscall.RawSyscall(syscall.SYS_PRCTL, prSetDumpable, 0, 0); e != 0 {
		return fail(fmt.Errorf("prctl(PR_SET_DUMPABLE): %w", e))
	}
	var s Spec
	if err := json.Unmarshal([]byte(raw), &s); err != nil {
		return fail(fmt.Errorf("reading the sandbox spec: %w", err))
	}
	os.Unsetenv(SpecEnv)
	// No nested user namespace: it would give a command the capabilities
	// to leave the namespace that tags its processes. The limit is the
	// spawner's user namespace's own; the host's is unchanged.
	if err := os.WriteFile("/proc/sys/user/max_user_namespaces", []byte("0\n"), 0); err != nil {
		return fail(fmt.Errorf("switching nested user namespaces off: %w", err))
	}
	if err := s.setUp(); err != nil {
		return fail(err)
	}
	if err := sp.mask(s.Masks); err != nil {
		return fail(err)
	}
	var err error
	if sp.devnull, err = syscall.Open("/dev/null", syscall.O_RDONLY|syscall.O_CLOEXEC, 0); err != nil {
		return fail(fmt.Errorf("opening /dev/null: %w", err))
	}
	go sp.masker()
	go sp.signaller()
	go sp.reap()
	ready := make(chan error)
	go sp.serveThread(s.Landlock, ready)
	if err := <-ready; err != nil {
		return fail(err)
	}
	if err := sp.send(&Msg{Op: OpReady}); err != nil {
		return 0
	}
	<-sp.served
	return 0
}

// serve handles the server's messages until its socket ends.
func (sp *spawner) serve() {
	buf := make([]byte, MaxMsg)
	oob := make([]byte, syscall.CmsgSpace(16*4))
	for {
		n, oobn, _, _, err := syscall.Recvmsg(sp.sock, buf, oob, syscall.MSG_CMSG_CLOEXEC)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil || n == 0 {
			return // the server is gone: exiting kills every process left
		}
		fds := receivedFDs(oob[:oobn])
		var m Msg
		if err := json.Unmarshal(buf[:n], &m); err != nil {
			closeAll(fds)
			continue
		}
		if m.InFD {
			id, op := m.ID, m.Op
			var err error
			if m, fds, err = unwrap(fds); err == nil && (m.ID != id || m.Op != op) {
				err = errors.New("the request's envelope and content disagree")
			}
			if err == nil && op != OpSpawn && op != OpGo {
				err = fmt.Errorf("a %q request came in an envelope", op)
			}
			if err != nil { // only spawn and go requests come in envelopes
				closeAll(fds)
				answer := OpStarted
				if op == OpGo {
					answer = OpMasked
				}
				sp.send(&Msg{Op: answer, ID: id, Err: err.Error()})
				continue
			}
		}
		switch m.Op {
		case OpSpawn:
			sp.spawn(&m, fds)
		case OpSignal:
			closeAll(fds)
			sp.mu.Lock()
			c := sp.cmds[m.ID]
			sp.mu.Unlock()
			if c != nil {
				sp.signals <- sigReq{c, syscall.Signal(m.Signal)}
			}
		case OpRelease:
			closeAll(fds)
			go sp.release(m.ID)
		case OpGo:
			closeAll(fds)
			sp.letGo(m.ID, m.Masks)
		default:
			closeAll(fds)
		}
	}
}

// unwrap reads the message an envelope carries in its first descriptor,
// which it closes, and returns it with the other descriptors.
func unwrap(fds []int) (Msg, []int, error) {
	var m Msg
	if len(fds) == 0 {
		return m, fds, errors.New("the request's envelope carried no descriptor")
	}
	fd := fds[0]
	fds = fds[1:]
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return m, fds, fmt.Errorf("reading the request: %w", err)
	}
	if st.Size > MaxBody {
		return m, fds, fmt.Errorf("the request takes %d bytes, over the sandbox's bound of %d", st.Size, MaxBody)
	}
	b := make([]byte, st.Size)
	for off := 0; off < len(b); {
		n, err := syscall.Pread(fd, b[off:], int64(off))
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil || n == 0 {
			return m, fds, fmt.Errorf("reading the request: %v", err)
		}
		off += n
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return m, fds, fmt.Errorf("reading the request: %w", err)
	}
	return m, fds, nil
}

func receivedFDs(oob []byte) []int {
	var fds []int
	msgs, err := syscall.ParseSocketControlMessage(oob)
	if err != nil {
		return nil
	}
	for _, cm := range msgs {
		if f, err := syscall.ParseUnixRights(&cm); err == nil {
			fds = append(fds, f...)
		}
	}
	return fds
}

func closeAll(fds []int) {
	for _, fd := range fds {
		syscall.Close(fd)
	}
}

// send writes one message to the server.
func (sp *spawner) send(m *Msg) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	sp.wmu.Lock()
	defer sp.wmu.Unlock()
	for {
		_, err = syscall.Write(sp.sock, b)
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}

// spawn, on the serving thread, masks what the request adds, starts the
// command and answers, then makes the next command's namespace.
func (sp *spawner) spawn(m *Msg, fds []int) {
	defer closeAll(fds)
	reply := &Msg{Op: OpStarted, ID: m.ID}
	files, err := sp.childFiles(m.FDs, fds)
	if err == nil {
		err = sp.maskMore(m.Masks)
	}
	gate := [2]int{-1, -1}
	if err == nil && m.Gate > 0 {
		files, gate, err = withGate(files, m.Gate)
	}
	if err == nil {
		var c *spawnedCmd
		if c, err = sp.start(m, files, gate[1]); err == nil {
			reply.PID = c.pid
			gate[1] = -1 // c's
		}
	}
	for _, fd := range gate {
		if fd >= 0 {
			syscall.Close(fd)
		}
	}
	if err != nil {
		reply.Err = err.Error()
	}
	sp.send(reply)
	if sp.next == nil {
		sp.next, _ = newTag() // if it fails, start tries again and says why
	}
}

// letGo is OpGo: it covers masks and lets command id's shell go on.
func (sp *spawner) letGo(id uint64, masks []string) {
	sp.mu.Lock()
	c := sp.cmds[id]
	sp.mu.Unlock()
	gate := -1
	if c != nil {
		gate = c.takeGate()
	}
	if gate < 0 {
		sp.send(&Msg{Op: OpMasked, ID: id, Err: "the command has no gate to open"})
		return
	}
	defer syscall.Close(gate)
	if err := sp.maskMore(masks); err != nil {
		sp.send(&Msg{Op: OpMasked, ID: id, Err: err.Error()})
		return
	}
	writeAll(gate, []byte{'\n'}) // EPIPE: the shell is gone, as OpExited says
}

// signaller sends the signals the server asks for, in order, from a thread
// of its own (not the confined one).
func (sp *spawner) signaller() {
	for r := range sp.signals {
		sp.kill(r.c, r.sig)
	}
}

// masker applies masks for the serving thread, which, confined by
// Landlock, can change no mount.
func (sp *spawner) masker() {
	for r := range sp.masking {
		r.reply <- sp.mask(r.paths)
	}
}

// withGate gives files a pipe's read end as descriptor n, which must not
// be taken, and returns the pipe.
func withGate(files []uintptr, n int) ([]uintptr, [2]int, error) {
	p := [2]int{-1, -1}
	if n < 3 || n > 64 || n < len(files) && files[n] != ^uintptr(0) {
		return files, p, fmt.Errorf("gate descriptor %d out of range or taken", n)
	}
	if err := syscall.Pipe2(p[:], syscall.O_CLOEXEC); err != nil {
		return files, [2]int{-1, -1}, fmt.Errorf("making the gate: %w", err)
	}
	for len(files) <= n {
		files = append(files, ^uintptr(0))
	}
	files[n] = uintptr(p[0])
	return files, p, nil
}

// childFiles maps the descriptors received to the command's numbers.
func (sp *spawner) childFiles(nums, fds []int) ([]uintptr, error) {
	if len(nums) != len(fds) {
		return nil, fmt.Errorf("the request named %d descriptors but carried %d", len(nums), len(fds))
	}
	files := []uintptr{uintptr(sp.devnull), ^uintptr(0), ^uintptr(0)}
	for i, n := range nums {
		if n < 0 || n > 64 {
			return nil, fmt.Errorf("descriptor number %d out of range", n)
		}
		for len(files) <= n {
			files = append(files, ^uintptr(0))
		}
		files[n] = uintptr(fds[i])
	}
	return files, nil
}

// maskMore is the spawner's side of the mask step (package isolate's
// masks), before each command: it covers each of paths (sorted: a
// directory before what it holds, which its mask hides) that is not
// covered by a mask now (files a deny pattern matches that appeared since,
// or came back after the server removed them, which detached their mask;
// sockets bound since). It costs a stat a path; only a path that needs a
// mask goes to the masker (mask). A path that does not exist, is hidden
// by a mask above it or is out of reach (another user's private
// directory: out of the command's too) is skipped.
func (sp *spawner) maskMore(paths []string) error {
	var todo []string
	for _, p := range paths {
		if need, err := sp.needsMask(p); err != nil {
			return err
		} else if need {
			todo = append(todo, p)
		}
	}
	if len(todo) == 0 {
		return nil
	}
	r := maskReq{paths: todo, reply: make(chan error)}
	sp.masking <- r
	return <-r.reply
}

// needsMask reports whether p exists and is not masked already. The mask
// source's device is read once it exists (the masker made it before any
// path could be on it).
func (sp *spawner) needsMask(p string) (bool, error) {
	var st syscall.Stat_t
	if err := syscall.Stat(p, &st); err != nil {
		if errors.Is(err, syscall.ENOENT) || errors.Is(err, syscall.ENOTDIR) || errors.Is(err, syscall.EACCES) ||
			errors.Is(err, syscall.ELOOP) || errors.Is(err, syscall.ENAMETOOLONG) {
			return false, nil // not there (yet), under a mask already, or out of reach
		}
		return false, fmt.Errorf("masking %s: %w", p, err)
	}
	sp.mu.Lock()
	masked := sp.mfd >= 0 && st.Dev == sp.maskDev
	sp.mu.Unlock()
	return !masked, nil
}

// mask covers each of paths that needs it (needsMask) with an empty file
// or directory of the mask source, made at the first mask; from an
// unconfined thread (the set-up's or the masker's).
func (sp *spawner) mask(paths []string) error {
	for _, p := range paths {
		need, err := sp.needsMask(p)
		if err != nil {
			return err
		}
		if !need {
			continue
		}
		if sp.mfd < 0 {
			fd, err := maskSource()
			if err != nil {
				return err
			}
			var ms syscall.Stat_t
			if err := syscall.Fstat(fd, &ms); err != nil {
				syscall.Close(fd)
				return fmt.Errorf("making the masks: %w", err)
			}
			sp.mu.Lock()
			sp.mfd, sp.maskDev = fd, ms.Dev
			sp.mu.Unlock()
		}
		var st syscall.Stat_t
		if err := syscall.Stat(p, &st); err != nil {
			continue // gone since
		}
		if err := maskPath(sp.mfd, p, st.Mode&syscall.S_IFMT == syscall.S_IFDIR); err != nil {
			return err
		}
	}
	return nil
}

// serveThread confines its locked OS thread (Landlock, no_new_privs, no
// capability to regain on exec; confineThread) but keeps its effective
// capabilities, which a new UTS namespace needs, then serves the server's
// messages on it, starting each command asked for from it: in a UTS
// namespace of its own (the tag of its processes), in a process group of
// its own. The commands inherit the thread's restrictions; the thread is
// never unlocked, so nothing else runs on it. Serving on the thread that
// forks saves a command two hand-overs between threads (each a wake-up,
// which on a loaded machine waits for a turn on a core).
func (sp *spawner) serveThread(rs *Ruleset, ready chan<- error) {
	runtime.LockOSThread()
	if err := confineThread(rs); err != nil {
		ready <- err
		return
	}
	sp.next, _ = newTag()
	ready <- nil
	sp.serve()
	close(sp.served)
}

// confineThread applies rs (if any) and no_new_privs to the calling
// thread, empties its bounding, ambient and inheritable capability sets
// and leaves its effective and permitted ones: an exec from it leaves the
// program no capability, even for uid 0.
func confineThread(rs *Ruleset) error {
	if rs != nil {
		if err := Restrict(*rs); err != nil {
			return fmt.Errorf("applying Landlock: %w", err)
		}
	} else if _, _, e := syscall.RawSyscall6(syscall.SYS_PRCTL, prSetNoNewPrivs, 1, 0, 0, 0, 0); e != 0 {
		return fmt.Errorf("prctl(PR_SET_NO_NEW_PRIVS): %w", e)
	}
	if err := dropBounding(); err != nil {
		return err
	}
	hdr := struct {
		version uint32
		pid     int32
	}{version: linuxCapVersion3}
	var data [2]struct{ effective, permitted, inheritable uint32 }
	if _, _, e := syscall.RawSyscall(syscall.SYS_CAPGET, uintptr(unsafe.Pointer(&hdr)), uintptr(unsafe.Pointer(&data[0])), 0); e != 0 {
		return fmt.Errorf("reading capabilities: %w", e)
	}
	data[0].inheritable, data[1].inheritable = 0, 0
	if _, _, e := syscall.RawSyscall(syscall.SYS_CAPSET, uintptr(unsafe.Pointer(&hdr)), uintptr(unsafe.Pointer(&data[0])), 0); e != 0 {
		return fmt.Errorf("dropping inheritable capabilities: %w", e)
	}
	return nil
}

// newTag moves the calling thread into a new UTS namespace, the tag of the
// next command it starts, and returns it.
func newTag() (*tagNS, error) {
	if err := syscall.Unshare(syscall.CLONE_NEWUTS); err != nil {
		return nil, fmt.Errorf("making the command's namespace: %w", err)
	}
	fd, err := syscall.Open("/proc/thread-self/ns/uts", syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("opening the command's namespace: %w", err)
	}
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		syscall.Close(fd)
		return nil, fmt.Errorf("opening the command's namespace: %w", err)
	}
	return &tagNS{fd: fd, dev: st.Dev, ino: st.Ino}, nil
}

// start starts one command, on the serving thread, in the namespace made
// ahead for it (after the last command started, off the time a command
// waits), or a new one.
func (sp *spawner) start(m *Msg, files []uintptr, gate int) (*spawnedCmd, error) {
	t := sp.next
	sp.next = nil
	if t == nil {
		var err error
		if t, err = newTag(); err != nil {
			return nil, err
		}
	}
	tag := t.fd
	c := &spawnedCmd{id: m.ID, tag: t.fd, dev: t.dev, ino: t.ino, gate: gate}
	sp.mu.Lock() // the reaper looks the shell up only once it is known
	pid, err := syscall.ForkExec(m.Path, m.Args, &syscall.ProcAttr{Dir: m.Dir, Env: m.Env, Files: files,
		Sys: &syscall.SysProcAttr{Setpgid: true}})
	if err == nil {
		c.pid = pid
		sp.cmds[m.ID] = c
		sp.byPID[pid] = c
	}
	sp.mu.Unlock()
	if err != nil {
		syscall.Close(tag)
		return nil, fmt.Errorf("starting %s: %w", m.Path, err)
	}
	select {
	case sp.kick <- struct{}{}:
	default:
	}
	return c, nil
}

// reap reaps every child of PID 1 (the shells, and every orphan of the
// namespace), and tells the server when a shell has exited. It learns of
// a child that ended without reaping it, then reaps it holding mu: while
// a shell is in byPID it is alive or a zombie, so its PID, which is its
// process group's number, is not reused and kill can signal the group.
func (sp *spawner) reap() {
	for {
		pid, err := waitExited()
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if errors.Is(err, syscall.ECHILD) {
			<-sp.kick
			continue
		}
		if err != nil {
			return
		}
		var ws syscall.WaitStatus
		sp.mu.Lock()
		for {
			if _, err := syscall.Wait4(pid, &ws, syscall.WNOHANG, nil); !errors.Is(err, syscall.EINTR) {
				break
			}
		}
		c := sp.byPID[pid]
		delete(sp.byPID, pid)
		sp.mu.Unlock()
		if c != nil {
			sp.send(&Msg{Op: OpExited, ID: c.id, Status: uint32(ws), Done: sp.forgetIfAlone(c)})
		}
	}
}

// forgetIfAlone releases c, whose shell has been reaped, if no process of
// it is left: none can appear then (only a process of the command can
// start one in its namespace), so the server need not signal what is
// left nor release it, which saves each command that leaves nothing
// behind three messages and as many passes over /proc.
func (sp *spawner) forgetIfAlone(c *spawnedCmd) bool {
	if c.any() {
		return false
	}
	sp.mu.Lock()
	if sp.cmds[c.id] == c {
		delete(sp.cmds, c.id)
	}
	sp.mu.Unlock()
	c.mu.Lock()
	if !c.released {
		c.released = true
		syscall.Close(c.tag)
		if c.gate >= 0 {
			syscall.Close(c.gate)
			c.gate = -1
		}
	}
	c.mu.Unlock()
	return true
}

// any reports whether a process tagged with c's namespace may be left: one
// whose namespace cannot be read (EACCES: not dumpable) counts.
func (c *spawnedCmd) any() bool {
	found := false
	err := eachProc(func(pid int, name string, st *syscall.Stat_t, err error) bool {
		found = errors.Is(err, syscall.EACCES) || err == nil && st.Dev == c.dev && st.Ino == c.ino
		return !found
	})
	return found || err != nil
}

// eachProc calls f with each process of the spawner's PID namespace but
// itself: its PID, as a number and as its name in /proc, and the stat of
// its UTS namespace or why there is none (ENOENT: gone or a zombie), until
// f returns false. It reads /proc by its descriptor, with a stat relative
// to it per process: a pass costs a few system calls and no allocation a
// process, for it runs once per command.
func eachProc(f func(pid int, name string, st *syscall.Stat_t, err error) bool) error {
	fd, err := syscall.Open("/proc", syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer syscall.Close(fd)
	var buf [8192]byte
	var path [32]byte
	names := make([]string, 0, 64)
	for {
		n, err := syscall.ReadDirent(fd, buf[:])
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			return err
		}
		if n <= 0 {
			return nil
		}
		_, _, names = syscall.ParseDirent(buf[:n], -1, names[:0])
		for _, name := range names {
			pid, err := strconv.Atoi(name)
			if err != nil || pid <= 1 || len(name) > 20 {
				continue
			}
			p := append(append(path[:0], name...), "/ns/uts\x00"...)
			var st syscall.Stat_t
			var serr error
			if _, _, e := syscall.Syscall6(syscall.SYS_NEWFSTATAT, uintptr(fd), uintptr(unsafe.Pointer(&p[0])), uintptr(unsafe.Pointer(&st)), 0, 0, 0); e != 0 {
				serr = e
			}
			if !f(pid, name, &st, serr) {
				return nil
			}
		}
	}
}

const (
	pAll    = 0
	wExited = 4
	wNowait = 0x01000000
)

// waitExited waits until a child has ended and returns its PID, leaving it
// a zombie (waitid with WNOWAIT).
func waitExited() (int, error) {
	var info [128]byte // siginfo_t: si_pid is at offset 16 on 64-bit Linux
	if _, _, e := syscall.Syscall6(syscall.SYS_WAITID, pAll, 0, uintptr(unsafe.Pointer(&info[0])), wExited|wNowait, 0, 0); e != 0 {
		return 0, e
	}
	return int(*(*int32)(unsafe.Pointer(&info[16]))), nil
}

// killTries bounds the passes of kill over /proc: each pass signals what
// the last one had not seen (a process started while it ran).
const killTries = 64

// lateSweeps are when, after a signal other than SIGKILL, kill looks again
// for processes of the command that have not had it. A process can start
// after the signal was sent and still come from one that had it: a shell
// that catches SIGTERM (bash does, with an EXIT trap) acts on it only
// once the child it is forking or waiting for has ended, and its child,
// between its fork and its exec, runs the shell's handler, which swallows
// the signal, and then starts the program that made the command wait out
// the grace. Only processes not sent the signal yet get it: a second
// SIGTERM means "now" to many programs.
var lateSweeps = []time.Duration{2 * time.Millisecond, 5 * time.Millisecond, 10 * time.Millisecond,
	25 * time.Millisecond, 50 * time.Millisecond, 100 * time.Millisecond, 250 * time.Millisecond, 500 * time.Millisecond}

// kill sends sig to every process tagged with c's namespace and returns
// how many it found. While the shell has not been reaped, its process
// group gets sig first, in one kill(2): a process the shell or its
// children fork meanwhile gets it too (the kernel makes a fork and a
// signal to the group it joins atomic), which no scan of /proc can do,
// and the scan would not see the shell itself in the moment between its
// fork and its exec (it is not dumpable then, as the spawner is not).
// Then /proc is scanned for what left the group (setsid), again until a
// pass finds nothing new, and for a signal other than SIGKILL, again a
// few times later (lateSweeps).
func (sp *spawner) kill(c *spawnedCmd, sig syscall.Signal) int {
	sp.mu.Lock()
	if sp.byPID[c.pid] == c {
		syscall.Kill(-c.pid, sig)
	}
	sp.mu.Unlock()
	seen := map[int]string{}
	for range killTries {
		if c.killScan(sig, seen) == 0 {
			break
		}
	}
	n := len(seen)
	if sig != syscall.SIGKILL {
		go func() {
			for _, d := range lateSweeps {
				time.Sleep(d)
				c.mu.Lock()
				if c.released { // its tag may name another command's namespace now
					c.mu.Unlock()
					return
				}
				c.killScan(sig, seen)
				c.mu.Unlock()
			}
		}()
	}
	return n
}

// killScan sends sig to each process tagged with c's namespace that is
// not in seen, or has started another program since (its name changed:
// the child of a shell that swallowed the signal in the shell's handler,
// between its fork and its exec, is signalled again), adds it there with
// its name and returns how many it signalled.
func (c *spawnedCmd) killScan(sig syscall.Signal, seen map[int]string) int {
	n := 0
	eachProc(func(pid int, name string, st *syscall.Stat_t, err error) bool {
		if err != nil || st.Dev != c.dev || st.Ino != c.ino {
			return true // gone, a zombie, or another command's
		}
		comm, _ := os.ReadFile("/proc/" + name + "/comm")
		if was, ok := seen[pid]; ok && was == string(comm) {
			return true
		}
		syscall.Kill(pid, sig)
		seen[pid] = string(comm)
		n++
		return true
	})
	return n
}

// release kills what is left of command id and forgets it.
func (sp *spawner) release(id uint64) {
	sp.mu.Lock()
	c := sp.cmds[id]
	delete(sp.cmds, id)
	sp.mu.Unlock()
	if c != nil {
		deadline := time.Now().Add(releaseBound)
		for sp.kill(c, syscall.SIGKILL) > 0 && time.Now().Before(deadline) {
			time.Sleep(time.Millisecond) // SIGKILLed processes need a moment to exit
		}
		c.mu.Lock()
		if !c.released {
			c.released = true
			syscall.Close(c.tag)
			if c.gate >= 0 {
				syscall.Close(c.gate)
				c.gate = -1
			}
		}
		c.mu.Unlock()
	}
	sp.send(&Msg{Op: OpReleased, ID: id})
}
