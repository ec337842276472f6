package netfilter

import (
	"encoding/binary"
	"testing"

	"golang.org/x/net/bpf"
)

// data is a seccomp_data as the filter reads it. bpf.VM loads words big
// endian, the kernel in the machine's order: the test writes each word
// the VM's way, so the program sees the values the kernel would give it.
func data(arch, nr, arg0 uint32) []byte {
	b := make([]byte, 64)
	binary.BigEndian.PutUint32(b[0:], nr)
	binary.BigEndian.PutUint32(b[4:], arch)
	binary.BigEndian.PutUint32(b[16:], arg0)
	return b
}

// The filter, run in x/net/bpf's VM for both architectures' tables:
// socket(2) of any family but AF_UNIX, io_uring_setup, x32 calls, the
// compat ABI's socket calls and unknown architectures are refused with
// EPERM; everything else, AF_UNIX sockets included, is allowed.
func TestProgram(t *testing.T) {
	const deny, allow = retErrno | ePerm, retAllow
	amd64 := arch{audit: 0xc000003e, socket: 41, ioUringSetp: 425, x32Bit: 0x40000000, compat: 0x40000003, compatDenied: []uint32{102, 359, 425}}
	arm64 := arch{audit: 0xc00000b7, socket: 198, ioUringSetp: 425, compat: 0x40000028, compatDenied: []uint32{281, 425}}
	const afInet, afInet6, afNetlink, afPacket = 2, 10, 16, 17
	for _, c := range []struct {
		name          string
		a             arch
		arch, nr, arg uint32
		want          uint32
	}{
		{"amd64 read", amd64, amd64.audit, 0, 0, allow},
		{"amd64 connect", amd64, amd64.audit, 42, 3, allow},
		{"amd64 socket unix", amd64, amd64.audit, 41, afUnix, allow},
		{"amd64 socket inet", amd64, amd64.audit, 41, afInet, deny},
		{"amd64 socket inet6", amd64, amd64.audit, 41, afInet6, deny},
		{"amd64 socket netlink", amd64, amd64.audit, 41, afNetlink, deny},
		{"amd64 socket packet", amd64, amd64.audit, 41, afPacket, deny},
		{"amd64 io_uring_setup", amd64, amd64.audit, 425, 0, deny},
		{"amd64 x32 socket", amd64, amd64.audit, 0x40000000 | 41, afUnix, deny},
		{"amd64 x32 read", amd64, amd64.audit, 0x40000000, 0, deny},
		{"i386 socketcall", amd64, amd64.compat, 102, 1, deny},
		{"i386 socket", amd64, amd64.compat, 359, afInet, deny},
		{"i386 io_uring_setup", amd64, amd64.compat, 425, 0, deny},
		{"i386 read", amd64, amd64.compat, 3, 0, allow},
		{"unknown arch", amd64, 0x12345678, 0, 0, deny},
		{"arm64 socket unix", arm64, arm64.audit, 198, afUnix, allow},
		{"arm64 socket inet", arm64, arm64.audit, 198, afInet, deny},
		{"arm64 io_uring_setup", arm64, arm64.audit, 425, 0, deny},
		{"arm64 openat", arm64, arm64.audit, 56, 0, allow},
		{"arm socket", arm64, arm64.compat, 281, afInet, deny},
		{"arm read", arm64, arm64.compat, 3, 0, allow},
		{"arm64 nr with bit 30 is not x32", arm64, arm64.audit, 0x40000000 | 56, 0, allow},
	} {
		vm, err := bpf.NewVM(program(c.a))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got, err := vm.Run(data(c.arch, c.nr, c.arg))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if uint32(got) != c.want {
			t.Errorf("%s: %#x, want %#x", c.name, got, c.want)
		}
	}
}
