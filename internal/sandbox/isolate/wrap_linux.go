package isolate

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"

	"github.com/hands-dev/hands/internal/sandbox/nsinit"
)

// cloneFlags are the namespaces every command gets: user (so the rest
// needs no privilege), mount, PID and System V IPC.
const cloneFlags = syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS | syscall.CLONE_NEWPID | syscall.CLONE_NEWIPC

// helperCaps are the capabilities, in its own user namespace, that the
// helper and the spawner need for their set-up: mounts, loopback,
// dropping the bounding set, and (the spawner) a UTS namespace per
// command and the limit of nested user namespaces.
var helperCaps = []uintptr{capSysAdmin, capNetAdmin, capSetpcap, capSysResource}

const (
	capSetpcap     = 8
	capNetAdmin    = 12
	capSysAdmin    = 21
	capSysResource = 24
)

// Wrap rewrites cmd so that it runs through the helper in namespaces of
// its own: the helper, started with cmd's own process group and
// parent-death settings, sets the sandbox up and runs cmd's program as its
// child. It is meant for jobs.Config.Isolate: the Status it returns says
// when the helper passes signals on, and gives the wait status of cmd's
// program itself (which signal ended it, which the helper's own status
// cannot say).
func (i *Isolator) Wrap(cmd *exec.Cmd) (*Status, error) {
	if i.err != nil {
		return nil, i.err
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("making the status pipe: %w", err)
	}
	s := i.spec()
	s.StatusFD = 3 + len(cmd.ExtraFiles)
	if err := i.apply(cmd, s); err != nil {
		r.Close()
		w.Close()
		return nil, err
	}
	cmd.ExtraFiles = append(cmd.ExtraFiles, w)
	st := &Status{r: r, w: w, ready: make(chan struct{}), done: make(chan struct{})}
	go st.read()
	return st, nil
}

// Status is what the helper of one command reports on its status pipe.
type Status struct {
	r, w  *os.File
	once  sync.Once
	ready chan struct{} // closed when the helper passes signals on
	done  chan struct{} // closed when the pipe has been read to its end
	ws    syscall.WaitStatus
	ok    bool
	pid   int // the command's PID in its namespace, once started
}

func (s *Status) read() {
	defer close(s.done)
	defer s.r.Close()
	var b [1 + nsinit.StatusSize]byte
	if _, err := io.ReadFull(s.r, b[:1]); err != nil || b[0] != nsinit.StatusReady {
		return
	}
	close(s.ready)
	if _, err := io.ReadFull(s.r, b[1:]); err != nil {
		return
	}
	s.pid = int(binary.LittleEndian.Uint32(b[1:]))
	if _, err := io.ReadFull(s.r, b[1:]); err == nil {
		s.ws, s.ok = syscall.WaitStatus(binary.LittleEndian.Uint32(b[1:])), true
	}
}

// Ready is closed once the helper passes signals on to the command: a
// signal sent to the helper before may be lost (PID 1 of a namespace does
// not get the signals it has no handler for).
func (s *Status) Ready() <-chan struct{} { return s.ready }

// Status, called once the helper has been reaped (or failed to start),
// gives the wait status of the command it ran, when the helper passed it
// on, and releases the pipe.
func (s *Status) Status() (syscall.WaitStatus, bool) {
	s.once.Do(func() { s.w.Close() }) // the helper is gone: the reader meets the end
	<-s.done
	return s.ws, s.ok
}

// PID, called after Status, is the command's PID in its own namespace,
// which leads its process group there (0 if it did not start): the
// process group the command itself sees.
func (s *Status) PID() int {
	<-s.done
	return s.pid
}

// apply points cmd at the helper with the spec s.
func (i *Isolator) apply(cmd *exec.Cmd, s nsinit.Spec) error {
	raw, err := json.Marshal(s)
	if err != nil {
		return err
	}
	cmd.Args = append([]string{nsinit.HelperArg0, cmd.Path}, cmd.Args...)
	cmd.Path = i.helper
	env := cmd.Env
	if env == nil {
		env = os.Environ()
	}
	env = append(append(env[:len(env):len(env)], i.ProxyEnv()...), nsinit.SpecEnv+"="+string(raw))
	cmd.Env = env
	attr := cmd.SysProcAttr
	if attr == nil {
		attr = &syscall.SysProcAttr{}
	}
	attr.Cloneflags |= cloneFlags
	if s.NetNS {
		attr.Cloneflags |= syscall.CLONE_NEWNET
	}
	uid, gid := os.Getuid(), os.Getgid()
	attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}}
	attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}}
	attr.GidMappingsEnableSetgroups = false
	// The helper is the user namespace's first process and has every
	// capability in it, but an exec by any uid but 0 drops them all: a
	// server run by an ordinary user would leave the helper unable to
	// mount. It keeps, as ambient capabilities, only what its set-up
	// needs, and drops them (dropPrivileges) before the command runs.
	attr.AmbientCaps = helperCaps
	cmd.SysProcAttr = attr
	return nil
}

// Report says what the sandbox enforces on this machine.
type Report struct {
	// Namespaces is true when commands run in user, mount, PID and IPC
	// namespaces with the system read-only, masks and a private /proc.
	Namespaces bool
	// Network is true when the network policy can be enforced (always
	// for "on").
	Network bool
	// Reason says why Namespaces or Network is false.
	Reason string
}

// Probe runs the helper once with the whole setup (the first call does;
// later ones return the same answer) and reports what works.
func (i *Isolator) Probe() Report {
	i.once.Do(func() { i.probe = i.runProbe() })
	return i.probe
}

func (i *Isolator) runProbe() Report {
	// The probe is a spawner, as commands get, set up and stopped.
	p, err := i.startSpawner()
	if err != nil {
		return Report{Reason: err.Error()}
	}
	p.stop()
	return Report{Namespaces: true, Network: true}
}
