package sandbox

import (
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
)

// WriteFile writes data to the file at p atomically: it writes a temporary
// file in the same directory (through the root), syncs it, gives it the
// existing file's mode and, where permitted, owner (or perm, less the umask,
// for a new file; 0 means 0644), renames it over the target and syncs the
// directory.
// Missing parent directories are created. Since p is resolved, a symlink to
// the file is written through: the target is replaced and the link stays.
// It reports whether the file was created (did not exist before). A failure
// at any step removes the temporary file and leaves the old content intact.
func (s *Set) WriteFile(p Path, data []byte, perm os.FileMode) (created bool, err error) {
	r, rel, abs, err := s.at("write", p)
	if err != nil {
		return false, err
	}
	if rel == "." {
		return false, &Error{Kind: IsDir, Op: "write", Path: abs, Reason: "is a directory"}
	}
	dir, base := filepath.Dir(rel), filepath.Base(rel)
	if dir != "." {
		if err := r.MkdirAll(dir, 0o755); err != nil {
			return false, s.fail("mkdir", filepath.Dir(abs), err)
		}
	}
	old, err := r.Stat(rel)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		created = true
	case err != nil:
		return false, s.fail("stat", abs, err)
	case old.IsDir():
		return false, &Error{Kind: IsDir, Op: "write", Path: abs, Reason: "is a directory"}
	case !old.Mode().IsRegular():
		return false, &Error{Kind: Invalid, Op: "write", Path: abs, Reason: "not a regular file"}
	}

	createPerm := perm
	if perm == 0 {
		createPerm = 0o644
	}
	if !created {
		createPerm = 0o600 // until it gets the old file's mode and owner
	}
	tmp, f, err := createTemp(r, dir, base, createPerm)
	if err != nil {
		return false, s.fail("write", abs, err)
	}
	renamed := false
	defer func() {
		if !renamed {
			f.Close()
			r.Remove(tmp)
		}
	}()
	if _, err = f.Write(data); err != nil {
		return false, s.fail("write", abs, err)
	}
	if !created {
		if uid, gid, ok := owner(old); ok {
			// Best effort: only a privileged process may give a file away.
			_ = f.Chown(uid, gid)
		}
		// After Chown, which clears the setuid and setgid bits.
		if err = f.Chmod(old.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)); err != nil {
			return false, s.fail("chmod", abs, err)
		}
	}
	if err = f.Sync(); err != nil {
		return false, s.fail("sync", abs, err)
	}
	if err = f.Close(); err != nil {
		return false, s.fail("write", abs, err)
	}
	if s.beforeRename != nil {
		s.beforeRename()
	}
	if err = r.Rename(tmp, rel); err != nil {
		return false, s.fail("rename", abs, err)
	}
	renamed = true
	return created, s.syncDir(r, dir, filepath.Dir(abs))
}

// createTemp creates a new hidden file next to base in dir, inside r.
func createTemp(r *os.Root, dir, base string, perm os.FileMode) (string, *os.File, error) {
	// Leave room in a 255-byte name for the decoration.
	if len(base) > 200 {
		base = strings.ToValidUTF8(base[:200], "")
	}
	for range 10 {
		name := filepath.Join(dir, "."+base+".hands-"+strconv.FormatUint(rand.Uint64(), 36)+".tmp")
		f, err := r.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return name, f, err
	}
	return "", nil, &fs.PathError{Op: "open", Path: dir, Err: fs.ErrExist}
}

// syncDir makes a rename in dir durable. File systems that cannot sync a
// directory say EINVAL; that is not a failure of the write.
func (s *Set) syncDir(r *os.Root, dir, abs string) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	d, err := r.Open(dir)
	if err != nil {
		return s.fail("sync", abs, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) && !errors.Is(err, errors.ErrUnsupported) {
		return s.fail("sync", abs, err)
	}
	return nil
}
