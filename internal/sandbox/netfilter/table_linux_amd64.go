package netfilter

import "golang.org/x/sys/unix"

// native is amd64's table: socket is 41; the x32 ABI (bit 30 set) and the
// i386 ABI (socketcall 102, socket 359, io_uring_setup 425) reach the
// same calls under other numbers.
var native = arch{audit: unix.AUDIT_ARCH_X86_64, socket: unix.SYS_SOCKET, ioUringSetp: unix.SYS_IO_URING_SETUP, x32Bit: 0x40000000,
	compat: unix.AUDIT_ARCH_I386, compatDenied: []uint32{102, 359, 425}}
