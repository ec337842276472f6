//go:build !linux

package jobs

import (
	"errors"
	"os"
)

// warmSupported says whether commands may get warm shells here.
const warmSupported = false

// errWarmUnsupported says the platform has no memfd for the command.
var errWarmUnsupported = errors.New("no warm shell here")

// commandFile fails: without a memfd, a command would have to wait in a
// file a command could reach, so there are no warm shells.
func commandFile() (*os.File, error) { return nil, errWarmUnsupported }
