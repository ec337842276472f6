//go:build !linux

package mcpclient

import "os/exec"

// dieWithParent does nothing here: a stdio server is stopped when Hands
// closes it (its stdin closed, then a signal).
func dieWithParent(*exec.Cmd) {}
