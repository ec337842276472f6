//go:build linux && (amd64 || arm64 || riscv64 || loong64)

package confine

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"unsafe"
)

// The Landlock system calls share their numbers on every architecture this
// file builds for; the syscall package predates them.
const (
	sysLandlockCreateRuleset = 444
	sysLandlockAddRule       = 445
	sysLandlockRestrictSelf  = 446

	landlockCreateRulesetVersion = 1 << 0
	landlockRulePathBeneath      = 1
	prSetNoNewPrivs              = 38
	oPath                        = 0x200000
)

// Landlock file system access rights (uapi/linux/landlock.h).
const (
	accessExecute uint64 = 1 << iota
	accessWriteFile
	accessReadFile
	accessReadDir
	accessRemoveDir
	accessRemoveFile
	accessMakeChar
	accessMakeDir
	accessMakeReg
	accessMakeSock
	accessMakeFifo
	accessMakeBlock
	accessMakeSym
	accessRefer    // ABI 2
	accessTruncate // ABI 3
)

const (
	// fileAccess is what a rule on a file (not a directory) may carry.
	fileAccess = accessExecute | accessWriteFile | accessReadFile | accessTruncate
	readAccess = accessExecute | accessReadFile | accessReadDir
	devAccess  = accessReadFile | accessWriteFile | accessTruncate | accessReadDir
)

type rulesetAttr struct {
	handledAccessFS  uint64
	handledAccessNet uint64
	scoped           uint64
}

// pathBeneathAttr is struct landlock_path_beneath_attr, which is packed:
// the kernel reads the first 12 bytes.
type pathBeneathAttr struct {
	allowedAccess uint64
	parentFd      int32
}

// landlockABI returns the kernel's Landlock ABI version.
func landlockABI() (int, error) {
	v, _, e := syscall.Syscall(sysLandlockCreateRuleset, 0, 0, landlockCreateRulesetVersion)
	switch {
	case e == syscall.ENOSYS:
		return 0, errors.New("no Landlock in this kernel (it needs Linux 5.13 or later with CONFIG_SECURITY_LANDLOCK)")
	case e == syscall.EOPNOTSUPP:
		return 0, errors.New("the kernel has Landlock disabled (add landlock to the lsm= boot parameter)")
	case e != 0:
		return 0, fmt.Errorf("querying the Landlock ABI: %w", e)
	}
	return int(v), nil
}

// handledAccess returns the rights a ruleset handles at ABI v. Device ioctl
// (ABI 5) is left unhandled: commands need terminal and device ioctls and
// the devices they may open are already listed.
func handledAccess(v int) uint64 {
	h := accessMakeSym<<1 - 1
	if v >= 2 {
		h |= accessRefer
	}
	if v >= 3 {
		h |= accessTruncate
	}
	return h
}

// Landlock scopes (ABI 6).
const (
	scopeAbstractUnixSocket uint64 = 1 << 0
	scopeSignal             uint64 = 1 << 1
)

// scopes returns the scopes the kernel of ABI v knows.
func scopes(v int) uint64 {
	if v >= 6 {
		return scopeAbstractUnixSocket | scopeSignal
	}
	return 0
}

// rulesetSize is the size of struct landlock_ruleset_attr the kernel of
// ABI v knows.
func rulesetSize(v int) uintptr {
	switch {
	case v < 4:
		return 8
	case v < 6:
		return 16
	}
	return unsafe.Sizeof(rulesetAttr{})
}

// RestrictThread confines the calling OS thread, and so every process it
// starts from then on, to the policy. The caller must have locked its
// goroutine to the thread with runtime.LockOSThread and must never unlock
// it, so that the thread ends with the goroutine; see the package
// documentation. Where confinement is not enforced (Report) it does nothing
// and returns nil. An error means the thread may be partly restricted and
// the command must not be started.
func (c *Confiner) RestrictThread() error {
	if !c.report.Enforced {
		return nil
	}
	fd, err := c.ruleset()
	if err != nil {
		return fmt.Errorf("confine: building the Landlock ruleset: %w", err)
	}
	defer syscall.Close(fd)
	if _, _, e := syscall.RawSyscall6(syscall.SYS_PRCTL, prSetNoNewPrivs, 1, 0, 0, 0, 0); e != 0 {
		return fmt.Errorf("confine: prctl(PR_SET_NO_NEW_PRIVS): %w", e)
	}
	if _, _, e := syscall.RawSyscall(sysLandlockRestrictSelf, uintptr(fd), 0, 0); e != 0 {
		return fmt.Errorf("confine: landlock_restrict_self: %w", e)
	}
	return nil
}

// ruleset builds a Landlock ruleset for the policy and returns its file
// descriptor. It is built anew for every command, so that the carve-out
// around denied paths sees the directories as they are now.
func (c *Confiner) ruleset() (int, error) {
	attr := rulesetAttr{handledAccessFS: c.handled, scoped: c.scoped}
	r0, _, e := syscall.Syscall(sysLandlockCreateRuleset, uintptr(unsafe.Pointer(&attr)), rulesetSize(c.report.ABI), 0)
	if e != 0 {
		return -1, fmt.Errorf("landlock_create_ruleset: %w", e)
	}
	fd := int(r0)
	rs := ruleAdder{fd: fd, handled: c.handled}
	if len(c.deny) == 0 {
		rs.add("/", readAccess)
	} else {
		rs.add("/", accessReadDir)
		c.carve("/", &rs)
	}
	for _, t := range c.write {
		rs.add(t, c.handled)
	}
	for _, d := range c.devices {
		rs.add(d, devAccess)
	}
	if rs.err != nil {
		syscall.Close(fd)
		return -1, rs.err
	}
	return fd, nil
}

// carve grants read on every entry of dir except the denied ones, going
// down into the directories that hold a denied path. Symbolic links are
// skipped: Landlock checks the path they lead to, which has its own rule.
func (c *Confiner) carve(dir string, rs *ruleAdder) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return // nothing beneath dir is granted: the safe side
	}
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		switch {
		case c.denied(p), e.Type()&fs.ModeSymlink != 0:
		case e.IsDir() && c.deniedBelow(p):
			c.carve(p, rs)
		default:
			rs.add(p, readAccess)
		}
	}
}

// ruleAdder adds path-beneath rules to a ruleset, keeping the first error.
// A path that cannot be opened is skipped: without a rule it is denied.
type ruleAdder struct {
	fd      int
	handled uint64
	err     error
}

func (rs *ruleAdder) add(path string, access uint64) {
	if rs.err != nil {
		return
	}
	pfd, err := syscall.Open(path, oPath|syscall.O_CLOEXEC, 0)
	if err != nil {
		return
	}
	defer syscall.Close(pfd)
	var st syscall.Stat_t
	if err := syscall.Fstat(pfd, &st); err != nil {
		return
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFDIR {
		access &= fileAccess
	}
	access &= rs.handled
	if access == 0 {
		return
	}
	attr := pathBeneathAttr{allowedAccess: access, parentFd: int32(pfd)}
	if _, _, e := syscall.Syscall6(sysLandlockAddRule, uintptr(rs.fd), landlockRulePathBeneath, uintptr(unsafe.Pointer(&attr)), 0, 0, 0); e != 0 {
		rs.err = fmt.Errorf("landlock_add_rule %s: %w", path, e)
	}
}
