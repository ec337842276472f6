//go:build linux && (amd64 || arm64 || riscv64 || loong64)

package nsinit

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"syscall"
	"unsafe"
)

// setUp builds the spawner's view (mount) and the network of its
// namespaces.
func (s *Spec) setUp() error {
	if err := s.mount(); err != nil {
		return err
	}
	if s.NetNS {
		if err := loopbackUp(); err != nil {
			return fmt.Errorf("bringing up loopback: %w", err)
		}
		if s.Proxy != "" {
			if err := forwardProxy(s.ProxyPort, s.Proxy); err != nil {
				return fmt.Errorf("starting the proxy forwarder: %w", err)
			}
		}
	}
	return nil
}

// mount builds the command's view: everything read-only but the writable
// trees, the masks over the denied paths, a /proc of the command's own
// PID namespace and a private /dev/shm.
func (s *Spec) mount() error {
	if err := syscall.Mount("", "/", "", syscall.MS_REC|syscall.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("making mounts private: %w", err)
	}
	// Copies of the writable trees are taken before the system is made
	// read-only, then put back over it, parents first.
	writable := slices.Clone(s.Writable)
	slices.SortFunc(writable, func(a, b string) int { return len(a) - len(b) })
	clones := make([]int, len(writable))
	for n, w := range writable {
		fd, err := openTree(atFDCWD, w, openTreeClone|syscall.O_CLOEXEC|atRecursive)
		if err != nil {
			return fmt.Errorf("copying the writable tree %s: %w", w, err)
		}
		clones[n] = fd
	}
	if err := mountSetattr(atFDCWD, "/", atRecursive, &mountAttr{attrSet: mountAttrRdonly}); err != nil {
		return fmt.Errorf("making the system read-only: %w", err)
	}
	for n, fd := range clones {
		err := moveMount(fd, "", atFDCWD, writable[n], moveMountFEmptyPath)
		syscall.Close(fd)
		if err != nil {
			return fmt.Errorf("mounting the writable tree %s: %w", writable[n], err)
		}
	}
	if err := syscall.Mount("proc", "/proc", "proc", syscall.MS_NOSUID|syscall.MS_NODEV|syscall.MS_NOEXEC, ""); err != nil {
		return fmt.Errorf("mounting a private /proc: %w", err)
	}
	// What of /proc changes the kernel rather than the command's own
	// processes stays read-only (as bubblewrap does).
	for _, p := range []string{"/proc/sys", "/proc/sysrq-trigger", "/proc/irq", "/proc/bus"} {
		if err := syscall.Mount(p, p, "", syscall.MS_BIND|syscall.MS_REC, ""); err != nil {
			if errors.Is(err, syscall.ENOENT) {
				continue
			}
			return fmt.Errorf("covering %s: %w", p, err)
		}
		if err := syscall.Mount(p, p, "", syscall.MS_BIND|syscall.MS_REMOUNT|syscall.MS_RDONLY|syscall.MS_NOSUID|syscall.MS_NODEV|syscall.MS_NOEXEC, ""); err != nil {
			return fmt.Errorf("covering %s: %w", p, err)
		}
	}
	if st, err := os.Stat("/dev/shm"); err == nil && st.IsDir() {
		if err := syscall.Mount("tmpfs", "/dev/shm", "tmpfs", syscall.MS_NOSUID|syscall.MS_NODEV, "mode=1777,size=256m"); err != nil {
			return fmt.Errorf("mounting a private /dev/shm: %w", err)
		}
	}
	return nil
}

// maskSource makes the small read-only tmpfs, attached nowhere, that holds
// the empty "file" and "dir" masks are cloned from, and returns its mount's
// descriptor.
func maskSource() (int, error) {
	fsfd, err := fsopen("tmpfs", 1)
	if err != nil {
		return -1, fmt.Errorf("making the masks: %w", err)
	}
	defer syscall.Close(fsfd)
	if err := fsconfigSetString(fsfd, "size", "16k"); err != nil {
		return -1, fmt.Errorf("making the masks: %w", err)
	}
	if err := fsconfigCreate(fsfd); err != nil {
		return -1, fmt.Errorf("making the masks: %w", err)
	}
	mfd, err := fsmount(fsfd, 1, mountAttrNosuid|mountAttrNodev|mountAttrNoexec)
	if err != nil {
		return -1, fmt.Errorf("making the masks: %w", err)
	}
	fail := func(err error) (int, error) {
		syscall.Close(mfd)
		return -1, err
	}
	f, err := syscall.Openat(mfd, "file", syscall.O_CREAT|syscall.O_WRONLY|syscall.O_CLOEXEC, 0o444)
	if err != nil {
		return fail(fmt.Errorf("making the masks: %w", err))
	}
	syscall.Close(f)
	if err := syscall.Mkdirat(mfd, "dir", 0o555); err != nil {
		return fail(fmt.Errorf("making the masks: %w", err))
	}
	if err := mountSetattr(mfd, "", atEmptyPath|atRecursive, &mountAttr{attrSet: mountAttrRdonly}); err != nil {
		return fail(fmt.Errorf("making the masks read-only: %w", err))
	}
	return mfd, nil
}

// maskPath covers m with a copy of the empty directory (dir) or file of
// the mask source mfd; a link m is followed, as it was by the stat that
// found whether m is a directory.
func maskPath(mfd int, m string, dir bool) error {
	src := "file"
	if dir {
		src = "dir"
	}
	cfd, err := openTree(mfd, src, openTreeClone|syscall.O_CLOEXEC)
	if err != nil {
		return fmt.Errorf("masking %s: %w", m, err)
	}
	err = moveMount(cfd, "", atFDCWD, m, moveMountFEmptyPath|moveMountTSymlinks)
	syscall.Close(cfd)
	if err != nil {
		return fmt.Errorf("masking %s: %w", m, err)
	}
	return nil
}

// loopbackUp brings up lo in the new network namespace.
func loopbackUp() error {
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_DGRAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer syscall.Close(fd)
	var ifr struct {
		name  [syscall.IFNAMSIZ]byte
		flags uint16
		_     [22]byte
	}
	copy(ifr.name[:], "lo")
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, uintptr(fd), syscall.SIOCGIFFLAGS, uintptr(unsafe.Pointer(&ifr))); e != 0 {
		return e
	}
	ifr.flags |= syscall.IFF_UP | syscall.IFF_RUNNING
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, uintptr(fd), syscall.SIOCSIFFLAGS, uintptr(unsafe.Pointer(&ifr))); e != 0 {
		return e
	}
	return nil
}

// forwardProxy listens on the namespace's loopback at port and forwards
// every connection to the server's proxy socket, the only way out.
func forwardProxy(port int, socket string) error {
	l, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	syscall.SetsockoptInt(l, syscall.SOL_SOCKET, syscall.SO_REUSEADDR, 1)
	if err := syscall.Bind(l, &syscall.SockaddrInet4{Port: port, Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		syscall.Close(l)
		return err
	}
	if err := syscall.Listen(l, 128); err != nil {
		syscall.Close(l)
		return err
	}
	go func() {
		for {
			c, _, err := syscall.Accept4(l, syscall.SOCK_CLOEXEC)
			if errors.Is(err, syscall.EINTR) || errors.Is(err, syscall.ECONNABORTED) {
				continue
			}
			if err != nil {
				return
			}
			go forward(c, socket)
		}
	}()
	return nil
}

// forward copies between the command's connection c and a new connection
// to the proxy's socket, each way until its end, then closes both.
func forward(c int, socket string) {
	defer syscall.Close(c)
	up, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return
	}
	defer syscall.Close(up)
	if err := syscall.Connect(up, &syscall.SockaddrUnix{Name: socket}); err != nil {
		return
	}
	done := make(chan struct{}, 2)
	pipe := func(from, to int) {
		buf := make([]byte, 32<<10)
		for {
			n, err := syscall.Read(from, buf)
			if errors.Is(err, syscall.EINTR) {
				continue
			}
			if n <= 0 || err != nil {
				break
			}
			if _, err := writeAll(to, buf[:n]); err != nil {
				break
			}
		}
		syscall.Shutdown(to, syscall.SHUT_WR)
		done <- struct{}{}
	}
	go pipe(c, up)
	go pipe(up, c)
	<-done
	<-done
}

func writeAll(fd int, b []byte) (int, error) {
	total := 0
	for len(b) > 0 {
		n, err := syscall.Write(fd, b)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			return total, err
		}
		total += n
		b = b[n:]
	}
	return total, nil
}

const (
	prCapbsetDrop        = 24
	prCapAmbient         = 47
	prCapAmbientClearAll = 4
	linuxCapVersion3     = 0x20080522
)

// dropBounding empties the calling thread's capability bounding and
// ambient sets: a program it execs gets no capability, even as uid 0.
func dropBounding() error {
	for c := 0; c <= 63; c++ {
		if _, _, e := syscall.RawSyscall6(syscall.SYS_PRCTL, prCapbsetDrop, uintptr(c), 0, 0, 0, 0); e != 0 {
			if e == syscall.EINVAL {
				break // past the last capability
			}
			return fmt.Errorf("dropping capabilities: %w", e)
		}
	}
	syscall.RawSyscall6(syscall.SYS_PRCTL, prCapAmbient, prCapAmbientClearAll, 0, 0, 0, 0)
	return nil
}
