//go:build unix

package sandbox

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// OpenDir makes the missing directories 0700 and refuses, at any level, a
// symbolic link, a directory its group or others may write, and a file;
// Create refuses a link planted at the name and writes nothing through it.
func TestOpenDirRefusesWhatCouldRedirectAWrite(t *testing.T) {
	base := t.TempDir()
	d, err := OpenDir(base, "a", "b")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for _, p := range []string{filepath.Join(base, "a"), filepath.Join(base, "a", "b")} {
		if fi, err := os.Lstat(p); err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o700 {
			t.Errorf("%s: %v %v", p, fi.Mode(), err)
		}
	}
	victim := filepath.Join(t.TempDir(), "victim")
	os.WriteFile(victim, []byte("keep"), 0o600)
	os.Symlink(victim, filepath.Join(base, "a", "b", "x.txt"))
	if _, err := d.Create("x.txt", 0o600); !errors.Is(err, fs.ErrExist) {
		t.Errorf("Create over a planted link: %v", err)
	}
	if _, err := d.Open("x.txt"); !errors.Is(err, ErrDenied) {
		t.Errorf("Open of a planted link: %v", err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep" {
		t.Errorf("the link's target changed: %q", b)
	}
	for _, bad := range []string{"", ".", "..", "a/b", "x\x00"} {
		if _, err := d.Create(bad, 0o600); !errors.Is(err, ErrInvalid) {
			t.Errorf("Create(%q): %v", bad, err)
		}
	}

	os.Symlink(t.TempDir(), filepath.Join(base, "link"))
	os.Mkdir(filepath.Join(base, "shared"), 0o700)
	os.Chmod(filepath.Join(base, "shared"), 0o770)
	os.WriteFile(filepath.Join(base, "file"), nil, 0o600)
	for _, elems := range [][]string{{"link"}, {"link", "x"}, {"shared"}, {"shared", "x"}, {"file"}} {
		if d, err := OpenDir(base, elems...); !errors.Is(err, ErrDenied) {
			if d != nil {
				d.Close()
			}
			t.Errorf("OpenDir(%v): %v; want denied", elems, err)
		}
	}
	if _, err := os.Lstat(filepath.Join(base, "shared", "x")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a refused directory got a child: %v", err)
	}
}

// grantFixture is the Set of resolveFixture viewed with one granted file,
// out/saved.txt, beside an ungranted one, out/other.txt.
func grantFixture(t testing.TB) (base string, s *Set, d *Dir) {
	base, s0 := resolveFixture(t)
	d, err := OpenDir(base, "out")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	f, err := d.Create("saved.txt", 0o600)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("saved\n")
	f.Close()
	os.WriteFile(filepath.Join(base, "out", "other.txt"), []byte("other\n"), 0o600)
	g := &Grants{}
	g.Add(d, "saved.txt")
	return base, s0.WithGrants(g), d
}

// A granted file outside the roots reads and stats through its Dir; every
// other operation refuses it, and its neighbours stay outside.
func TestGrantsReadOnlyExactFiles(t *testing.T) {
	base, s, d := grantFixture(t)
	saved := filepath.Join(base, "out", "saved.txt")
	p, err := s.Resolve("", saved)
	if err != nil {
		t.Fatal(err)
	}
	f, err := s.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if fi, err := s.Stat(p); err != nil || fi.Size() != 6 {
		t.Errorf("Stat: %v, %v", fi, err)
	}
	if !s.Allows(saved) {
		t.Error("Allows refuses the granted file")
	}
	if _, err := s.OpenFile(p, os.O_WRONLY, 0); !errors.Is(err, ErrDenied) {
		t.Errorf("OpenFile to write: %v", err)
	}
	if _, err := s.WriteFile(p, []byte("x"), 0o600); !errors.Is(err, ErrDenied) {
		t.Errorf("WriteFile: %v", err)
	}
	if err := s.Remove(p); !errors.Is(err, ErrDenied) {
		t.Errorf("Remove: %v", err)
	}
	if b, _ := os.ReadFile(saved); string(b) != "saved\n" {
		t.Errorf("the granted file changed: %q", b)
	}
	for _, q := range []string{filepath.Join(base, "out", "other.txt"), filepath.Join(base, "out"), saved + "/", filepath.Join(base, "out", ".", "other.txt")} {
		if _, err := s.Resolve("", q); !errors.Is(err, ErrDenied) && !errors.Is(err, ErrNotDir) {
			t.Errorf("Resolve(%s): %v; want denied", q, err)
		}
	}
	if s.Allows(filepath.Join(base, "out", "other.txt")) || s.Allows(filepath.Join(base, "out")) {
		t.Error("Allows lets in an ungranted neighbour")
	}
	// Swapped for a link after it was granted: the handle refuses it.
	os.Remove(saved)
	os.Symlink(filepath.Join(base, "out", "other.txt"), saved)
	if f, err := s.Open(p); err == nil {
		f.Close()
		t.Error("Open followed a link swapped in for the granted file")
	}
	_ = d
}

// FuzzResolveWithGrants: whatever the path, Resolve through a view with
// grants accepts outside the roots only the granted file itself.
func FuzzResolveWithGrants(f *testing.F) {
	base, s, _ := grantFixture(f)
	saved := filepath.Join(base, "out", "saved.txt")
	for _, seed := range []string{saved, filepath.Join(base, "out", "other.txt"), filepath.Join(base, "out"), saved + "/x", "../out/saved.txt", "file.txt", saved + "\x00"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, p string) {
		got, err := s.Resolve("", p)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Resolve(%q): %T is not an *Error", p, err)
			}
			return
		}
		if got.grant != nil {
			if got.Abs != saved || got.Root != -1 {
				t.Fatalf("Resolve(%q) = %+v: a grant that is not the granted file", p, got)
			}
			return
		}
		if _, _, ok := s.Contains(got.Abs); !ok {
			t.Fatalf("Resolve(%q) = %+v: outside the roots", p, got)
		}
	})
}
