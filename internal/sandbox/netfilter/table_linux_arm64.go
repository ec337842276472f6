package netfilter

import "golang.org/x/sys/unix"

// native is arm64's table: socket is 198; the 32-bit arm ABI reaches it as
// socket 281 (and io_uring_setup as 425).
var native = arch{audit: unix.AUDIT_ARCH_AARCH64, socket: unix.SYS_SOCKET, ioUringSetp: unix.SYS_IO_URING_SETUP,
	compat: unix.AUDIT_ARCH_ARM, compatDenied: []uint32{281, 425}}
