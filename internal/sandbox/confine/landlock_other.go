//go:build !(linux && (amd64 || arm64 || riscv64 || loong64))

package confine

import (
	"errors"
	"runtime"

	"github.com/hands-dev/hands/internal/sandbox/nsinit"
)

func landlockABI() (int, error) {
	return 0, errors.New("no Landlock on " + runtime.GOOS + "/" + runtime.GOARCH)
}

func handledAccess(int) uint64 { return 0 }

func scopes(int) uint64 { return 0 }

// RestrictThread would confine the calling OS thread; Landlock is not
// available on this platform, so it does nothing and returns nil.
func (c *Confiner) RestrictThread() error { return nil }

// Ruleset reports that there is no Landlock ruleset on this platform.
func (c *Confiner) Ruleset() (nsinit.Ruleset, bool) { return nsinit.Ruleset{}, false }
