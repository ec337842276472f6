//go:build linux && (amd64 || arm64 || riscv64 || loong64)

package confine

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/hands-dev/hands/internal/sandbox/nsinit"
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
	readAccess = accessExecute | accessReadFile | accessReadDir
	devAccess  = accessReadFile | accessWriteFile | accessTruncate | accessReadDir
)

// landlockABI returns the kernel's Landlock ABI version.
func landlockABI() (int, error) { return nsinit.ABI() }

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

// RestrictThread confines the calling OS thread, and so every process it
// starts from then on, to the policy. The caller must have locked its
// goroutine to the thread with runtime.LockOSThread and must never unlock
// it, so that the thread ends with the goroutine; see the package
// documentation. Where confinement is not enforced (Report) it does nothing
// and returns nil. An error means the thread may be partly restricted and
// the command must not be started.
func (c *Confiner) RestrictThread() error {
	rs, ok := c.Ruleset()
	if !ok {
		return nil
	}
	if err := nsinit.Restrict(rs); err != nil {
		return fmt.Errorf("confine: %w", err)
	}
	return nil
}

// Ruleset returns the Landlock ruleset of the policy, for a process that
// applies it itself (nsinit.Restrict); false where confinement is not
// enforced. It is worked out anew on every call, so that the carve-out
// around denied paths sees the directories as they are now.
func (c *Confiner) Ruleset() (nsinit.Ruleset, bool) {
	if !c.report.Enforced {
		return nsinit.Ruleset{}, false
	}
	rs := nsinit.Ruleset{ABI: c.report.ABI, Handled: c.handled, Scoped: c.scoped}
	add := func(path string, access uint64) { rs.Rules = append(rs.Rules, nsinit.Rule{Path: path, Access: access}) }
	if len(c.deny) == 0 {
		add("/", readAccess)
	} else {
		add("/", accessReadDir)
		c.carve("/", add)
	}
	for _, t := range c.write {
		add(t, c.handled)
	}
	for _, d := range c.devices {
		add(d, devAccess)
	}
	for _, u := range c.unix {
		add(u, accessResolveUnix)
	}
	return rs, true
}

// carve grants read on every entry of dir except the denied ones, going
// down into the directories that hold a denied path. Symbolic links are
// skipped: Landlock checks the path they lead to, which has its own rule.
func (c *Confiner) carve(dir string, add func(string, uint64)) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return // nothing beneath dir is granted: the safe side
	}
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		switch {
		case c.denied(p), e.Type()&fs.ModeSymlink != 0:
		case e.IsDir() && c.deniedBelow(p):
			c.carve(p, add)
		default:
			add(p, readAccess)
		}
	}
}
