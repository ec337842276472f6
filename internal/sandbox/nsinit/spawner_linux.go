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

	spawns  chan spawnReq // to the spawn thread
	mfd     int           // the mask source, or -1 until a mask is needed
	maskDev uint64        // its device: a path on it is masked
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
}

type spawnReq struct {
	m     *Msg
	files []uintptr
	reply chan spawnRes
}

type spawnRes struct {
	c   *spawnedCmd
	err error
}

// spawnerMain is the spawner: PID 1 of the session's user, mount, PID and
// IPC (and network) namespaces, with the view Spec.setUp builds, which
// starts each command it is asked for from a thread confined by
// confineThread.
func spawnerMain(raw string) int {
	sp := &spawner{sock: SpawnerFD, cmds: map[uint64]*spawnedCmd{}, byPID: map[int]*spawnedCmd{},
		kick: make(chan struct{}, 1), spawns: make(chan spawnReq), mfd: -1}
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
	if err := sp.maskMore(s.Masks); err != nil {
		return fail(err)
	}
	var err error
	if sp.devnull, err = syscall.Open("/dev/null", syscall.O_RDONLY|syscall.O_CLOEXEC, 0); err != nil {
		return fail(fmt.Errorf("opening /dev/null: %w", err))
	}
	ready := make(chan error)
	go sp.spawnThread(s.Landlock, ready)
	if err := <-ready; err != nil {
		return fail(err)
	}
	if err := sp.send(&Msg{Op: OpReady}); err != nil {
		return 0
	}
	go sp.reap()
	sp.serve()
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
			id := m.ID
			var err error
			if m, fds, err = unwrap(fds); err == nil && (m.ID != id || m.Op != OpSpawn) {
				err = errors.New("the request's envelope and content disagree")
			}
			if err != nil { // only spawn requests come in envelopes
				closeAll(fds)
				sp.send(&Msg{Op: OpStarted, ID: id, Err: err.Error()})
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
				sp.kill(c, syscall.Signal(m.Signal))
			}
		case OpRelease:
			closeAll(fds)
			go sp.release(m.ID)
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

// spawn masks what the request adds, has the spawn thread start the
// command and answers.
func (sp *spawner) spawn(m *Msg, fds []int) {
	defer closeAll(fds)
	reply := &Msg{Op: OpStarted, ID: m.ID}
	files, err := sp.childFiles(m.FDs, fds)
	if err == nil {
		err = sp.maskMore(m.Masks)
	}
	if err == nil {
		r := spawnReq{m: m, files: files, reply: make(chan spawnRes)}
		sp.spawns <- r
		res := <-r.reply
		if err = res.err; err == nil {
			reply.PID = res.c.pid
		}
	}
	if err != nil {
		reply.Err = err.Error()
	}
	sp.send(reply)
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
// masks): it covers each of paths (sorted: a directory before what it
// holds, which its mask hides) that is not covered by a mask now, at the
// start and before each command (files a deny pattern matches that
// appeared since, or came back after the server removed them, which
// detached their mask; sockets bound since). A path that does not exist,
// is hidden by a mask above it or is out of reach (another user's private
// directory: out of the command's too) is skipped. Each costs a stat; a
// mask, two mount calls more.
func (sp *spawner) maskMore(paths []string) error {
	for _, p := range paths {
		var st syscall.Stat_t
		if err := syscall.Stat(p, &st); err != nil {
			if errors.Is(err, syscall.ENOENT) || errors.Is(err, syscall.ENOTDIR) || errors.Is(err, syscall.EACCES) ||
				errors.Is(err, syscall.ELOOP) || errors.Is(err, syscall.ENAMETOOLONG) {
				continue // not there (yet), under a mask already, or out of reach
			}
			return fmt.Errorf("masking %s: %w", p, err)
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
			sp.mfd, sp.maskDev = fd, ms.Dev
		}
		if st.Dev == sp.maskDev {
			continue // masked already
		}
		if err := maskPath(sp.mfd, p, st.Mode&syscall.S_IFMT == syscall.S_IFDIR); err != nil {
			return err
		}
	}
	return nil
}

// spawnThread confines its locked OS thread (Landlock, no_new_privs, no
// capability to regain on exec; confineThread) but keeps its effective capabilities, which a new UTS
// namespace needs, then starts each command asked for: in a UTS namespace
// of its own (the tag of its processes), in a process group of its own.
// The commands inherit the thread's restrictions; the thread is never
// unlocked, so nothing else runs on it.
func (sp *spawner) spawnThread(rs *Ruleset, ready chan<- error) {
	runtime.LockOSThread()
	if err := confineThread(rs); err != nil {
		ready <- err
		return
	}
	ready <- nil
	for r := range sp.spawns {
		c, err := sp.start(r.m, r.files)
		r.reply <- spawnRes{c, err}
	}
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

// start starts one command, on the spawn thread.
func (sp *spawner) start(m *Msg, files []uintptr) (*spawnedCmd, error) {
	if err := syscall.Unshare(syscall.CLONE_NEWUTS); err != nil {
		return nil, fmt.Errorf("making the command's namespace: %w", err)
	}
	tag, err := syscall.Open("/proc/thread-self/ns/uts", syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("opening the command's namespace: %w", err)
	}
	var st syscall.Stat_t
	if err := syscall.Fstat(tag, &st); err != nil {
		syscall.Close(tag)
		return nil, fmt.Errorf("opening the command's namespace: %w", err)
	}
	c := &spawnedCmd{id: m.ID, tag: tag, dev: st.Dev, ino: st.Ino}
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
			sp.send(&Msg{Op: OpExited, ID: c.id, Status: uint32(ws)})
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
	seen := map[int]bool{}
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
// not in seen, adds it there and returns how many it found.
func (c *spawnedCmd) killScan(sig syscall.Signal, seen map[int]bool) int {
	d, err := os.Open("/proc")
	if err != nil {
		return 0
	}
	defer d.Close()
	names, _ := d.Readdirnames(-1)
	n := 0
	for _, name := range names {
		pid, err := strconv.Atoi(name)
		if err != nil || pid <= 1 || seen[pid] {
			continue
		}
		var st syscall.Stat_t
		if syscall.Stat("/proc/"+name+"/ns/uts", &st) != nil || st.Dev != c.dev || st.Ino != c.ino {
			continue // gone, a zombie, or another command's
		}
		syscall.Kill(pid, sig)
		seen[pid] = true
		n++
	}
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
		c.released = true
		syscall.Close(c.tag)
		c.mu.Unlock()
	}
	sp.send(&Msg{Op: OpReleased, ID: id})
}
