//go:build !(linux && (amd64 || arm64 || riscv64 || loong64))

package confine

import (
	"errors"
	"runtime"
)

func landlockABI() (int, error) {
	return 0, errors.New("no Landlock on " + runtime.GOOS + "/" + runtime.GOARCH)
}

func handledAccess(int) uint64 { return 0 }

func scopes(int) uint64 { return 0 }

// RestrictThread would confine the calling OS thread; Landlock is not
// available on this platform, so it does nothing and returns nil.
func (c *Confiner) RestrictThread() error { return nil }
