//go:build linux && (amd64 || arm64)

package netfilter

import (
	"fmt"
	"unsafe"

	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

const (
	seccompSetModeFilter  = 1
	seccompGetActionAvail = 2
)

// Available reports why the filter cannot be installed here, or nil.
func Available() error {
	action := uint32(retErrno)
	if _, _, e := unix.Syscall(unix.SYS_SECCOMP, seccompGetActionAvail, 0, uintptr(unsafe.Pointer(&action))); e != 0 {
		return fmt.Errorf("seccomp filters are not available: %w", e)
	}
	return nil
}

// DenyNetworkThread installs the filter on the calling OS thread, which
// the caller must have locked and must never unlock: what the thread
// starts inherits it. It sets no_new_privs on the thread first, as
// seccomp requires of an unprivileged caller.
func DenyNetworkThread() error {
	raw, err := bpf.Assemble(program(native))
	if err != nil {
		return fmt.Errorf("assembling the network filter: %w", err)
	}
	filter := make([]unix.SockFilter, len(raw))
	for n, r := range raw {
		filter[n] = unix.SockFilter{Code: r.Op, Jt: r.Jt, Jf: r.Jf, K: r.K}
	}
	prog := unix.SockFprog{Len: uint16(len(filter)), Filter: &filter[0]}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("prctl(PR_SET_NO_NEW_PRIVS): %w", err)
	}
	if _, _, e := unix.Syscall(unix.SYS_SECCOMP, seccompSetModeFilter, 0, uintptr(unsafe.Pointer(&prog))); e != 0 {
		return fmt.Errorf("installing the network filter: %w", e)
	}
	return nil
}
