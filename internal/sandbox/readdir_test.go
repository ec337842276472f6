package sandbox

import (
	"os"
	"path/filepath"
	"testing"
)

// TestReadDirTypes lists what ReadDir lists, with the same names and types
// and, when asked, the same Info.
func TestReadDirTypes(t *testing.T) {
	base := tempBase(t)
	root := filepath.Join(base, "root")
	mkTree(t, root, "d/a.txt=aaa", "d/sub/", "d/link -> a.txt", "d/z=12345")
	s := newSet(t, []string{root}, nil)
	p, err := s.Resolve(root, "d")
	must(t, err)
	eager, err := s.ReadDir(p)
	must(t, err)
	lazy, err := s.ReadDirTypes(p)
	must(t, err)
	if len(eager) != len(lazy) {
		t.Fatalf("ReadDir listed %d entries, ReadDirTypes %d", len(eager), len(lazy))
	}
	for i := range eager {
		e, l := eager[i], lazy[i]
		if e.Name() != l.Name() || e.Type() != l.Type() || e.IsDir() != l.IsDir() {
			t.Errorf("entry %d: ReadDir %s %v, ReadDirTypes %s %v", i, e.Name(), e.Type(), l.Name(), l.Type())
		}
		ei, err := e.Info()
		must(t, err)
		li, err := l.Info()
		must(t, err)
		if ei.Size() != li.Size() || ei.Mode() != li.Mode() || ei.Name() != li.Name() {
			t.Errorf("%s: ReadDir's Info %v %d, ReadDirTypes's %v %d", e.Name(), ei.Mode(), ei.Size(), li.Mode(), li.Size())
		}
	}
}

// TestReadDirTypesInfoStaysInRoot: the directory listed is swapped for a
// link out of the root before an entry's Info is read; the Info is refused,
// not read from the file outside, and nothing outside changes.
func TestReadDirTypesInfoStaysInRoot(t *testing.T) {
	base := tempBase(t)
	root, outside := filepath.Join(base, "root"), filepath.Join(base, "outside")
	mkTree(t, root, "d/secret=inside")
	mkTree(t, outside, "secret=the outside file, longer")
	s := newSet(t, []string{root}, nil)
	p, err := s.Resolve(root, "d")
	must(t, err)
	list, err := s.ReadDirTypes(p)
	must(t, err)
	if len(list) != 1 || list[0].Name() != "secret" {
		t.Fatalf("listed %v, want [secret]", list)
	}
	must(t, os.Rename(filepath.Join(root, "d"), filepath.Join(root, "old")))
	must(t, os.Symlink(outside, filepath.Join(root, "d")))
	if info, err := list[0].Info(); err == nil {
		t.Fatalf("Info through the swapped link = %d bytes, want a refusal", info.Size())
	}
	b, err := os.ReadFile(filepath.Join(outside, "secret"))
	must(t, err)
	if string(b) != "the outside file, longer" {
		t.Fatalf("the file outside changed: %q", b)
	}
}
