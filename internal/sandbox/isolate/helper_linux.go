package isolate

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/hands-dev/hands/internal/sandbox/confine"
)

// setupFailed is the helper's exit status when the sandbox could not be
// set up: the command did not run (as a shell's "cannot execute").
const setupFailed = 126

// helperMain is the helper: it runs as PID 1 of the command's namespaces,
// sets up the mounts, the network and Landlock, starts path with args as
// its child, and returns its exit status when it ends (128 plus the
// signal's number when a signal ended it), after ending everything else
// in the namespace.
func helperMain(raw, path string, args []string) int {
	runtime.LockOSThread() // the sandbox is set up on, and the command forked from, this thread
	fail := func(err error) int {
		fmt.Fprintf(os.Stderr, "hands sandbox: %v; the command did not run\n", err)
		return setupFailed
	}
	var s spec
	if err := json.Unmarshal([]byte(raw), &s); err != nil {
		return fail(fmt.Errorf("reading the sandbox spec: %w", err))
	}
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, specEnv+"=") })
	dir, err := os.Getwd()
	if err != nil {
		dir = "/"
	}
	if err := s.mount(); err != nil {
		return fail(err)
	}
	if s.NetNS {
		if err := loopbackUp(); err != nil {
			return fail(fmt.Errorf("bringing up loopback: %w", err))
		}
		if s.Proxy != "" {
			if err := forwardProxy(s.ProxyPort, s.Proxy); err != nil {
				return fail(fmt.Errorf("starting the proxy forwarder: %w", err))
			}
		}
	}
	if s.Landlock != nil {
		if err := confine.New(*s.Landlock).RestrictThread(); err != nil {
			return fail(err)
		}
	}
	if err := dropPrivileges(); err != nil {
		return fail(err)
	}
	if s.Probe {
		fmt.Println("hands-sandbox-ok")
		return 0
	}
	pid, err := syscall.ForkExec(path, args, &syscall.ProcAttr{Dir: dir, Env: env, Files: inheritedFiles()})
	if err != nil {
		return fail(fmt.Errorf("starting %s: %w", path, err))
	}
	return reap(pid, time.Duration(s.GraceMS)*time.Millisecond)
}

// mount builds the command's view: everything read-only but the writable
// trees, the masks over the denied paths, a /proc of the command's own
// PID namespace and a private /dev/shm.
func (s *spec) mount() error {
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("making mounts private: %w", err)
	}
	// Copies of the writable trees are taken before the system is made
	// read-only, then put back over it, parents first.
	writable := slices.Clone(s.Writable)
	slices.SortFunc(writable, func(a, b string) int { return len(a) - len(b) })
	clones := make([]int, len(writable))
	for n, w := range writable {
		fd, err := unix.OpenTree(unix.AT_FDCWD, w, unix.OPEN_TREE_CLONE|unix.OPEN_TREE_CLOEXEC|unix.AT_RECURSIVE)
		if err != nil {
			return fmt.Errorf("copying the writable tree %s: %w", w, err)
		}
		clones[n] = fd
	}
	if err := unix.MountSetattr(unix.AT_FDCWD, "/", unix.AT_RECURSIVE, &unix.MountAttr{Attr_set: unix.MOUNT_ATTR_RDONLY}); err != nil {
		return fmt.Errorf("making the system read-only: %w", err)
	}
	for n, fd := range clones {
		err := unix.MoveMount(fd, "", unix.AT_FDCWD, writable[n], unix.MOVE_MOUNT_F_EMPTY_PATH)
		unix.Close(fd)
		if err != nil {
			return fmt.Errorf("mounting the writable tree %s: %w", writable[n], err)
		}
	}
	if err := s.mask(); err != nil {
		return err
	}
	if err := unix.Mount("proc", "/proc", "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
		return fmt.Errorf("mounting a private /proc: %w", err)
	}
	// What of /proc changes the kernel rather than the command's own
	// processes stays read-only (as bubblewrap does).
	for _, p := range []string{"/proc/sys", "/proc/sysrq-trigger", "/proc/irq", "/proc/bus"} {
		if err := unix.Mount(p, p, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
			if errors.Is(err, unix.ENOENT) {
				continue
			}
			return fmt.Errorf("covering %s: %w", p, err)
		}
		if err := unix.Mount(p, p, "", unix.MS_BIND|unix.MS_REMOUNT|unix.MS_RDONLY|unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
			return fmt.Errorf("covering %s: %w", p, err)
		}
	}
	if st, err := os.Stat("/dev/shm"); err == nil && st.IsDir() {
		if err := unix.Mount("tmpfs", "/dev/shm", "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "mode=1777,size=256m"); err != nil {
			return fmt.Errorf("mounting a private /dev/shm: %w", err)
		}
	}
	return nil
}

// mask covers each mask path with an empty read-only file or directory,
// copied from a small tmpfs that is never attached anywhere else.
func (s *spec) mask() error {
	if len(s.Masks) == 0 {
		return nil
	}
	fsfd, err := unix.Fsopen("tmpfs", unix.FSOPEN_CLOEXEC)
	if err != nil {
		return fmt.Errorf("making the masks: %w", err)
	}
	defer unix.Close(fsfd)
	if err := unix.FsconfigSetString(fsfd, "size", "16k"); err != nil {
		return fmt.Errorf("making the masks: %w", err)
	}
	if err := unix.FsconfigCreate(fsfd); err != nil {
		return fmt.Errorf("making the masks: %w", err)
	}
	mfd, err := unix.Fsmount(fsfd, unix.FSMOUNT_CLOEXEC, unix.MOUNT_ATTR_NOSUID|unix.MOUNT_ATTR_NODEV|unix.MOUNT_ATTR_NOEXEC)
	if err != nil {
		return fmt.Errorf("making the masks: %w", err)
	}
	defer unix.Close(mfd)
	f, err := unix.Openat(mfd, "file", unix.O_CREAT|unix.O_WRONLY|unix.O_CLOEXEC, 0o444)
	if err != nil {
		return fmt.Errorf("making the masks: %w", err)
	}
	unix.Close(f)
	if err := unix.Mkdirat(mfd, "dir", 0o555); err != nil {
		return fmt.Errorf("making the masks: %w", err)
	}
	if err := unix.MountSetattr(mfd, "", unix.AT_EMPTY_PATH|unix.AT_RECURSIVE, &unix.MountAttr{Attr_set: unix.MOUNT_ATTR_RDONLY}); err != nil {
		return fmt.Errorf("making the masks read-only: %w", err)
	}
	masks := slices.Clone(s.Masks)
	slices.Sort(masks) // a parent before what it holds: what it hides needs no mask
	for _, m := range masks {
		var st unix.Stat_t
		if err := unix.Stat(m, &st); err != nil {
			if errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTDIR) {
				continue // gone, or hidden by a mask above it
			}
			return fmt.Errorf("masking %s: %w", m, err)
		}
		src := "file"
		if st.Mode&unix.S_IFMT == unix.S_IFDIR {
			src = "dir"
		}
		cfd, err := unix.OpenTree(mfd, src, unix.OPEN_TREE_CLONE|unix.OPEN_TREE_CLOEXEC)
		if err != nil {
			return fmt.Errorf("masking %s: %w", m, err)
		}
		err = unix.MoveMount(cfd, "", unix.AT_FDCWD, m, unix.MOVE_MOUNT_F_EMPTY_PATH)
		unix.Close(cfd)
		if err != nil {
			return fmt.Errorf("masking %s: %w", m, err)
		}
	}
	return nil
}

// loopbackUp brings up lo in the new network namespace.
func loopbackUp() error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return err
	}
	if err := unix.IoctlIfreq(fd, unix.SIOCGIFFLAGS, ifr); err != nil {
		return err
	}
	ifr.SetUint16(ifr.Uint16() | unix.IFF_UP | unix.IFF_RUNNING)
	return unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr)
}

// forwardProxy listens on the namespace's loopback at port and forwards
// every connection to the server's proxy socket, the only way out.
func forwardProxy(port int, socket string) error {
	l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port))
	if err != nil {
		return err
	}
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				up, err := net.Dial("unix", socket)
				if err != nil {
					return
				}
				defer up.Close()
				done := make(chan struct{}, 2)
				go func() { io.Copy(up, c); up.(*net.UnixConn).CloseWrite(); done <- struct{}{} }()
				go func() { io.Copy(c, up); c.(*net.TCPConn).CloseWrite(); done <- struct{}{} }()
				<-done
				<-done
			}()
		}
	}()
	return nil
}

// dropPrivileges leaves the command no capability, even when the server
// runs as root: the bounding set is emptied, so an exec cannot regain any,
// and no new privileges can be gained through set-user-ID files.
func dropPrivileges() error {
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("prctl(PR_SET_NO_NEW_PRIVS): %w", err)
	}
	for c := 0; c <= 63; c++ {
		if err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0); err != nil {
			if errors.Is(err, unix.EINVAL) {
				break // past the last capability
			}
			return fmt.Errorf("dropping capabilities: %w", err)
		}
	}
	unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capset(&hdr, &data[0]); err != nil {
		return fmt.Errorf("dropping capabilities: %w", err)
	}
	return nil
}

// inheritedFiles lists the descriptors the command inherits: those the
// helper inherited without close-on-exec (stdin, stdout, stderr, the
// shell's directory pipe), each at its own number.
func inheritedFiles() []uintptr {
	const maxFD = 64
	files := []uintptr{0, 1, 2}
	last := 2
	for fd := 3; fd < maxFD; fd++ {
		flags, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0)
		if err != nil || flags&unix.FD_CLOEXEC != 0 {
			files = append(files, ^uintptr(0))
			continue
		}
		files = append(files, uintptr(fd))
		last = fd
	}
	return files[:last+1]
}

// reap waits for the command, passing on the signals the helper gets to
// every process of the namespace. When the command has exited, the rest get
// SIGTERM and grace to end; then the helper returns, and as it is PID 1,
// the kernel kills whatever is left when it exits.
func reap(cmd int, grace time.Duration) int {
	sigs := make(chan os.Signal, 8)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP, syscall.SIGQUIT, syscall.SIGUSR1, syscall.SIGUSR2)
	go func() {
		for sg := range sigs {
			syscall.Kill(-1, sg.(syscall.Signal))
		}
	}()
	status := setupFailed
wait:
	for {
		var ws syscall.WaitStatus
		pid, err := syscall.Wait4(-1, &ws, 0, nil)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			return status
		}
		if pid != cmd {
			continue
		}
		switch {
		case ws.Exited():
			status = ws.ExitStatus()
		case ws.Signaled():
			status = 128 + int(ws.Signal())
		}
		break wait
	}
	signal.Stop(sigs)
	if syscall.Kill(-1, syscall.SIGTERM) != nil {
		return status // nobody else
	}
	done := make(chan struct{})
	go func() {
		for {
			var ws syscall.WaitStatus
			if _, err := syscall.Wait4(-1, &ws, 0, nil); err != nil && !errors.Is(err, syscall.EINTR) {
				close(done)
				return
			}
		}
	}()
	t := time.NewTimer(grace)
	select {
	case <-done:
	case <-t.C:
	}
	return status
}
