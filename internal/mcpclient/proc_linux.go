package mcpclient

import (
	"os/exec"
	"syscall"
)

// dieWithParent has the kernel kill a stdio server when Hands dies, even
// by SIGKILL, so that no server outlives it.
func dieWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
