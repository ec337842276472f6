//go:build !(linux && (amd64 || arm64 || riscv64 || loong64))

package nsinit

import (
	"errors"
	"runtime"
)

// ABI reports that there is no Landlock here.
func ABI() (int, error) {
	return 0, errors.New("no Landlock on " + runtime.GOOS + "/" + runtime.GOARCH)
}

// Restrict does nothing: there is no Landlock here.
func Restrict(Ruleset) error { return nil }
