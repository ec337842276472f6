//go:build !linux

package jobs

import (
	"errors"
	"os"
)

// warmSupported says whether commands may get warm shells here: not
// without a memfd, since a command would then wait in a file a command
// could reach.
const warmSupported = false

// commandFile is never called where warmSupported is false.
func commandFile() (*os.File, error) { return nil, errors.ErrUnsupported }
