//go:build !linux

package sandbox

import (
	"errors"
	"os"
	"path/filepath"
)

var errNoTmpfile = errors.New("no O_TMPFILE here")

func openTmpfile(*os.File, os.FileMode) (*os.File, error) { return nil, errNoTmpfile }

func linkTmpfile(*os.File, *os.File, string) error { return errNoTmpfile }

func renameIn(r *os.Root, _ *os.File, dir, from, to string) error {
	return r.Rename(filepath.Join(dir, from), filepath.Join(dir, to))
}
