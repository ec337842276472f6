package jobs

import (
	"syscall"
	"unsafe"
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
// makes signalling the group after it exited safe.
func (p *proc) waitLeader() {
	var info [128]byte // siginfo_t
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
