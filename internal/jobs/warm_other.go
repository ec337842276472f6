//go:build !linux

package jobs

import "os"

// warmSupported says whether commands may get warm shells here.
const warmSupported = false

// commandFile fails: without a memfd, a command would have to wait in a
// file a command could reach, so there are no warm shells.
func commandFile() (*os.File, error) { return nil, errWarmUnsupported }
