package jobs

import (
	"os"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// sysProcAttr puts the shell in a session and process group of its own,
// without a controlling terminal (so nothing can prompt on /dev/tty), and
// has the kernel kill it with SIGKILL if the OS thread that started it
// ends. That thread is the locked one that waits for the shell (see
// proc.run), so it lives exactly as long as the shell does, however the
// server dies.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGKILL}
}

const pPID = 1 // idtype_t P_PID

// waitLeader blocks until the shell has exited, without reaping it: while
// it is a zombie its pid, and so the group id, cannot be reused, which
// makes signalling the group after it exited safe. It waits on a pidfd
// through the runtime's poller, so no thread sits in a system call
// meanwhile (which keeps the Go runtime's monitor waking, tens of times
// while a warm shell waits); where there is no pidfd, in waitid.
func (p *proc) waitLeader() {
	var info [128]byte // siginfo_t: si_pid is at offset 16 on 64-bit Linux
	if fd, err := unix.PidfdOpen(p.pgid, unix.PIDFD_NONBLOCK); err == nil {
		f := os.NewFile(uintptr(fd), "pidfd")
		defer f.Close()
		if rc, err := f.SyscallConn(); err == nil {
			exited := false
			rc.Read(func(fd uintptr) bool {
				for {
					clear(info[:])
					_, _, e := syscall.Syscall6(syscall.SYS_WAITID, unix.P_PIDFD, fd,
						uintptr(unsafe.Pointer(&info[0])), syscall.WEXITED|syscall.WNOWAIT|syscall.WNOHANG, 0, 0)
					if e == syscall.EINTR {
						continue
					}
					exited = e == 0 && *(*int32)(unsafe.Pointer(&info[16])) != 0
					return e != 0 || exited // an error: wait below instead
				}
			})
			if exited {
				return
			}
		}
	}
	for {
		_, _, e := syscall.Syscall6(syscall.SYS_WAITID, pPID, uintptr(p.pgid),
			uintptr(unsafe.Pointer(&info[0])), syscall.WEXITED|syscall.WNOWAIT, 0, 0)
		if e != syscall.EINTR {
			return
		}
	}
}

// reap collects the shell's exit status.
func (p *proc) reap() {
	p.cmd.Wait() // the status is in p.cmd.ProcessState; a non-zero exit is no error here
}

// outputPipe makes a pipe for a command's output: the read end is the
// server's, non-blocking and polled (so reads can be given a deadline);
// the write end is the command's, left blocking and never registered
// with the poller, as os.Pipe would do only for it to be undone at the
// fork.
func outputPipe() (r, w *os.File, err error) {
	var p [2]int
	if err := syscall.Pipe2(p[:], syscall.O_CLOEXEC); err != nil {
		return nil, nil, os.NewSyscallError("pipe2", err)
	}
	if err := syscall.SetNonblock(p[0], true); err != nil {
		syscall.Close(p[0])
		syscall.Close(p[1])
		return nil, nil, os.NewSyscallError("fcntl", err)
	}
	return os.NewFile(uintptr(p[0]), "|0"), os.NewFile(uintptr(p[1]), "|1"), nil
}
