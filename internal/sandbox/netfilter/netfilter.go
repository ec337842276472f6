package netfilter

import (
	"golang.org/x/net/bpf"
)

// seccomp_data offsets and return values (linux/seccomp.h).
const (
	offNr    = 0
	offArch  = 4
	offArg0  = 16 // the low 32 bits on a little-endian machine
	retAllow = 0x7fff0000
	retErrno = 0x00050000
	ePerm    = 1
	afUnix   = 1
)

// arch describes the system calls the filter looks at on one
// architecture: the native ABI, and the compat ABI the same processes may
// call through (i386 on amd64, arm on arm64).
type arch struct {
	audit       uint32 // AUDIT_ARCH_*
	socket      uint32
	ioUringSetp uint32
	// x32Bit, if not 0, marks system calls of the x32 ABI, all refused:
	// they reach socket(2) under other numbers.
	x32Bit uint32
	// compat is the compat ABI's audit value and the numbers refused
	// there (socket, socketcall, io_uring_setup).
	compat       uint32
	compatDenied []uint32
}

// program returns the filter for a: socket(2) of a family other than
// AF_UNIX, io_uring_setup(2), any x32 call and the compat ABI's socket
// calls fail with EPERM; everything else is allowed.
func program(a arch) []bpf.Instruction {
	deny := bpf.RetConstant{Val: retErrno | ePerm}
	allow := bpf.RetConstant{Val: retAllow}
	// The compat ABI's part, reached when the architecture is not the
	// native one.
	compat := []bpf.Instruction{bpf.LoadAbsolute{Off: offNr, Size: 4}}
	for n, nr := range a.compatDenied {
		// Jump to the deny at the end of this block when equal.
		compat = append(compat, bpf.JumpIf{Cond: bpf.JumpEqual, Val: nr, SkipTrue: uint8(len(a.compatDenied) - n)})
	}
	compat = append(compat, allow, deny)
	unknown := []bpf.Instruction{deny} // any other architecture: refused outright

	native := []bpf.Instruction{bpf.LoadAbsolute{Off: offNr, Size: 4}}
	if a.x32Bit != 0 {
		// To the deny before the last allow.
		native = append(native, bpf.JumpIf{Cond: bpf.JumpBitsSet, Val: a.x32Bit, SkipTrue: 5})
	}
	native = append(native,
		bpf.JumpIf{Cond: bpf.JumpEqual, Val: a.socket, SkipTrue: 2},
		bpf.JumpIf{Cond: bpf.JumpEqual, Val: a.ioUringSetp, SkipTrue: 3},
		allow,
		bpf.LoadAbsolute{Off: offArg0, Size: 4},
		bpf.JumpIf{Cond: bpf.JumpEqual, Val: afUnix, SkipTrue: 1},
		deny,
		allow,
	)

	prog := []bpf.Instruction{
		bpf.LoadAbsolute{Off: offArch, Size: 4},
		bpf.JumpIf{Cond: bpf.JumpEqual, Val: a.audit, SkipTrue: uint8(1 + len(compat) + len(unknown))},
		bpf.JumpIf{Cond: bpf.JumpEqual, Val: a.compat, SkipFalse: uint8(len(compat))},
	}
	prog = append(prog, compat...)
	prog = append(prog, unknown...)
	return append(prog, native...)
}
