//go:build !linux

package search

import (
	"os"
	"time"
)

type file struct{ *os.File }

func openFile(path string) (file, error) {
	f, err := os.Open(path)
	return file{f}, err
}

func (f file) stat() (time.Time, bool, error) {
	fi, err := f.File.Stat()
	if err != nil {
		return time.Time{}, false, err
	}
	return fi.ModTime(), fi.Mode().IsRegular(), nil
}

func statPath(path string, follow bool) (time.Time, int64, error) {
	stat := os.Lstat
	if follow {
		stat = os.Stat
	}
	fi, err := stat(path)
	if err != nil {
		return time.Time{}, 0, err
	}
	return fi.ModTime(), fi.Size(), nil
}
