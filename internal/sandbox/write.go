package sandbox

import (
	"errors"
	"io"
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
	return s.WriteFileFrom(p, perm, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteFileFrom is WriteFile for content that write produces into the
// temporary file, so that a large file need not be held in memory whole.
// An error from write fails the write, and the target is left intact.
func (s *Set) WriteFileFrom(p Path, perm os.FileMode, write func(io.Writer) error) (created bool, err error) {
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
	d, err := r.Open(dir)
	if err != nil {
		return false, s.fail("write", abs, err)
	}
	defer d.Close()
	t, err := s.newTemp(r, d, dir, filepath.Dir(abs), base, createPerm)
	if err != nil {
		return false, s.fail("write", abs, err)
	}
	done := false
	defer func() {
		if !done {
			t.discard()
		}
	}()
	f := t.f
	if err = write(f); err != nil {
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
	if s.beforeRename != nil {
		s.beforeRename()
	}
	if err = t.commit(base); err != nil {
		return false, s.fail("rename", abs, err)
	}
	done = true
	return created, s.syncDir(r, dir, filepath.Dir(abs))
}

// temp is a write's temporary file: unnamed (O_TMPFILE) where the file
// system allows, so a writer killed mid-way leaves nothing behind; named
// only for the instant between linking it in and renaming it over the
// target, and that name is logged first (see SetTempLog).
type temp struct {
	s    *Set
	r    *os.Root
	d    *os.File // the directory, opened through the root
	dir  string   // its name in the root
	abs  string   // its absolute name
	base string
	f    *os.File
	name string // the name it has in d; "" while it has none
	anon bool   // made with O_TMPFILE
}

// newTemp makes the temporary file for base in the directory d.
func (s *Set) newTemp(r *os.Root, d *os.File, dir, abs, base string, perm os.FileMode) (*temp, error) {
	t := &temp{s: s, r: r, d: d, dir: dir, abs: abs, base: base}
	if f, err := openTmpfile(d, perm); err == nil {
		t.f, t.anon = f, true
		return t, nil
	}
	name, f, err := createTemp(r, dir, base, perm)
	if err != nil {
		return nil, err
	}
	t.f, t.name = f, filepath.Base(name)
	return t, nil
}

// commit gives the file the name base, replacing what is there.
func (t *temp) commit(base string) error {
	if t.anon {
		name := tempName(base)
		t.s.logTemp(filepath.Join(t.abs, name))
		if err := linkTmpfile(t.f, t.d, name); err != nil {
			return err
		}
		t.name = name
	}
	if err := t.f.Close(); err != nil {
		return err
	}
	return renameIn(t.r, t.d, t.dir, t.name, base)
}

// discard removes the temporary file, if it has a name.
func (t *temp) discard() {
	t.f.Close()
	if t.name != "" {
		t.r.Remove(filepath.Join(t.dir, t.name))
	}
}

// tempName is the name of a temporary file beside base. Leave room in a
// 255-byte name for the decoration.
func tempName(base string) string {
	if len(base) > 200 {
		base = strings.ToValidUTF8(base[:200], "")
	}
	return "." + base + ".hands-" + strconv.FormatUint(rand.Uint64(), 36) + ".tmp"
}

// createTemp creates a new hidden file next to base in dir, inside r.
func createTemp(r *os.Root, dir, base string, perm os.FileMode) (string, *os.File, error) {
	for range 10 {
		name := filepath.Join(dir, tempName(base))
		f, err := r.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return name, f, err
	}
	return "", nil, &fs.PathError{Op: "open", Path: dir, Err: fs.ErrExist}
}

// SetTempLog has WriteFile log, to f, the absolute name of each temporary
// file it is about to link into a directory, one a line, before it does:
// the only moment a write killed mid-way (SIGKILL) can leave one behind.
// RemoveLoggedTemps removes them, given the log of a dead writer.
func (s *Set) SetTempLog(f *os.File) {
	s.log.mu.Lock()
	s.log.f = f
	s.log.mu.Unlock()
}

func (s *Set) logTemp(abs string) {
	s.log.mu.Lock()
	defer s.log.mu.Unlock()
	if s.log.f != nil {
		s.log.f.WriteString(abs + "\n")
	}
}

// RemoveLoggedTemps removes the temporary files a temp log names, when
// they are still there: only names WriteFile makes (".NAME.hands-X.tmp")
// are removed, links not followed.
func RemoveLoggedTemps(log []byte) {
	for _, line := range strings.Split(string(log), "\n") {
		base := filepath.Base(line)
		if !filepath.IsAbs(line) || !strings.HasPrefix(base, ".") || !strings.HasSuffix(base, ".tmp") || !strings.Contains(base, ".hands-") {
			continue
		}
		if fi, err := os.Lstat(line); err == nil && fi.Mode().IsRegular() {
			os.Remove(line)
		}
	}
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
