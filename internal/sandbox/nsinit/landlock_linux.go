//go:build linux && (amd64 || arm64 || riscv64 || loong64)

package nsinit

import (
	"errors"
	"fmt"
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

// ABI returns the kernel's Landlock ABI version.
func ABI() (int, error) {
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

// Restrict confines the calling OS thread, and so every process it starts
// from then on, to rs, and sets no_new_privs. A path of a rule that cannot
// be opened is skipped: without a rule it is denied. An error means the
// thread may be partly restricted and nothing must be started from it.
func Restrict(rs Ruleset) error {
	attr := rulesetAttr{handledAccessFS: rs.Handled, scoped: rs.Scoped}
	r0, _, e := syscall.Syscall(sysLandlockCreateRuleset, uintptr(unsafe.Pointer(&attr)), rulesetSize(rs.ABI), 0)
	if e != 0 {
		return fmt.Errorf("landlock_create_ruleset: %w", e)
	}
	fd := int(r0)
	defer syscall.Close(fd)
	for _, r := range rs.Rules {
		if err := addRule(fd, rs.Handled, r); err != nil {
			return err
		}
	}
	if _, _, e := syscall.RawSyscall6(syscall.SYS_PRCTL, prSetNoNewPrivs, 1, 0, 0, 0, 0); e != 0 {
		return fmt.Errorf("prctl(PR_SET_NO_NEW_PRIVS): %w", e)
	}
	if _, _, e := syscall.RawSyscall(sysLandlockRestrictSelf, uintptr(fd), 0, 0); e != 0 {
		return fmt.Errorf("landlock_restrict_self: %w", e)
	}
	return nil
}

func addRule(fd int, handled uint64, r Rule) error {
	pfd, err := syscall.Open(r.Path, oPath|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil
	}
	defer syscall.Close(pfd)
	var st syscall.Stat_t
	if err := syscall.Fstat(pfd, &st); err != nil {
		return nil
	}
	access := r.Access
	if st.Mode&syscall.S_IFMT != syscall.S_IFDIR {
		access &= FileAccess
	}
	access &= handled
	if access == 0 {
		return nil
	}
	attr := pathBeneathAttr{allowedAccess: access, parentFd: int32(pfd)}
	if _, _, e := syscall.Syscall6(sysLandlockAddRule, uintptr(fd), landlockRulePathBeneath, uintptr(unsafe.Pointer(&attr)), 0, 0, 0); e != 0 {
		return fmt.Errorf("landlock_add_rule %s: %w", r.Path, e)
	}
	return nil
}
