package isolate

import (
	"encoding/json"
	"os"
	"os/exec"
	"syscall"

	"github.com/hands-dev/hands/internal/sandbox/nsinit"
)

// cloneFlags are the namespaces every command gets: user (so the rest
// needs no privilege), mount, PID and System V IPC.
const cloneFlags = syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS | syscall.CLONE_NEWPID | syscall.CLONE_NEWIPC

// helperCaps are the capabilities, in its own user namespace, that the
// spawner needs for its set-up: mounts, loopback, dropping the bounding
// set, a UTS namespace per command and the limit of nested user
// namespaces.
var helperCaps = []uintptr{capSysAdmin, capNetAdmin, capSetpcap, capSysResource}

const (
	capSetpcap     = 8
	capNetAdmin    = 12
	capSysAdmin    = 21
	capSysResource = 24
)

// apply points cmd at the spawner with the spec s, in new namespaces.
func (i *Isolator) apply(cmd *exec.Cmd, s nsinit.Spec) error {
	raw, err := json.Marshal(s)
	if err != nil {
		return err
	}
	cmd.Path = i.helper
	cmd.Args = []string{nsinit.SpawnerArg0}
	cmd.Env = []string{nsinit.SpecEnv + "=" + string(raw)}
	attr := &syscall.SysProcAttr{}
	attr.Cloneflags |= cloneFlags
	if s.NetNS {
		attr.Cloneflags |= syscall.CLONE_NEWNET
	}
	uid, gid := os.Getuid(), os.Getgid()
	attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}}
	attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}}
	attr.GidMappingsEnableSetgroups = false
	// The spawner is the user namespace's first process and has every
	// capability in it, but an exec by any uid but 0 drops them all: a
	// server run by an ordinary user would leave the spawner unable to
	// mount. It keeps, as ambient capabilities, only what its set-up
	// needs; the thread commands start from drops them all from what an
	// exec passes on (confineThread).
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

// Probe starts the session's spawner now, rather than at its first
// command, and reports whether its whole set-up works here. A spawner's
// mounts and Landlock rules are fixed at its start (the session's roots
// and temporary directory), so the probe is the spawner the session's
// commands then run in, not one started and thrown away.
func (s *Spawner) Probe() Report {
	if _, err := s.proc(); err != nil {
		return Report{Reason: err.Error()}
	}
	return Report{Namespaces: true, Network: true}
}
