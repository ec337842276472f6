//go:build !unix

package tooltest

import (
	"errors"
	"runtime"
)

// makeSpecial is not supported off Unix: scenarios that need a named pipe
// or a socket file fail with this error there.
func makeSpecial(kind, path string) error {
	return errors.New("tooltest: cannot make a " + kind + " at " + path + " on " + runtime.GOOS)
}
