//go:build !linux || !(amd64 || arm64)

package netfilter

import (
	"errors"
	"runtime"
)

// Available reports that the filter is Linux (amd64, arm64) only.
func Available() error {
	return errors.New("the seccomp network filter is Linux (amd64, arm64) only; not on " + runtime.GOOS + "/" + runtime.GOARCH)
}

// DenyNetworkThread fails: see Available.
func DenyNetworkThread() error { return Available() }
