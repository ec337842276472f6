//go:build !linux

package sandbox

import "os"

// openedPath is unknown here: the check by name stands alone.
func openedPath(*os.File) (string, bool) { return "", false }

// fdPath is unknown here: the check by name stands alone.
func fdPath(int) (string, bool) { return "", false }

// rootHandle: openBeneath is Linux's.
func rootHandle(*os.Root) *os.File { return nil }
