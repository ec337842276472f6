package sandbox

import (
	"io"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
)

// While one goroutine keeps swapping root/d for a symlink to outside/d,
// others resolve and open root/d/f.txt, write it, and open it through a Path
// resolved once before the swapping began. The file outside must never be
// read or written.
func TestRaceSwapDirForSymlink(t *testing.T) {
	base := tempBase(t)
	mkTree(t, base, "root/d/f.txt=inside", "outside/d/f.txt=OUTSIDE")
	root := filepath.Join(base, "root")
	s := newSet(t, []string{root}, nil)
	stale, err := s.Resolve(root, "d/f.txt")
	must(t, err)

	var done atomic.Bool
	var opened, refused atomic.Int64
	var wg sync.WaitGroup
	wg.Go(func() {
		defer done.Store(true)
		d, real, out := filepath.Join(root, "d"), filepath.Join(root, "d.real"), filepath.Join(base, "outside/d")
		for range 2000 {
			if err := os.Rename(d, real); err != nil {
				t.Error(err)
				return
			}
			// The writer may recreate d (MkdirAll) at any moment; only the
			// restore below has to win, so retry it.
			if os.Symlink(out, d) == nil {
				os.Remove(d)
			}
			for try := 0; os.Rename(real, d) != nil; try++ {
				if err := os.RemoveAll(d); err != nil && try > 1000 {
					t.Error(err)
					return
				}
			}
		}
	})
	read := func(p Path) {
		f, err := s.Open(p)
		if err != nil {
			if _, ok := kindOf(err); !ok {
				t.Errorf("Open error %T is not an *Error: %v", err, err)
			}
			refused.Add(1)
			return
		}
		b, _ := io.ReadAll(f)
		f.Close()
		opened.Add(1)
		if string(b) == "OUTSIDE" {
			t.Errorf("read the file outside the root through %+v", p)
		}
	}
	for range 3 {
		wg.Go(func() {
			for !done.Load() {
				read(stale)
				if p, err := s.Resolve(root, "d/f.txt"); err == nil {
					read(p)
				}
			}
		})
	}
	wg.Go(func() {
		for !done.Load() {
			s.WriteFile(stale, []byte("inside"), 0o644)
		}
	})
	wg.Wait()
	t.Logf("opened %d times, refused %d times", opened.Load(), refused.Load())

	if b, err := os.ReadFile(filepath.Join(base, "outside/d/f.txt")); err != nil || string(b) != "OUTSIDE" {
		t.Errorf("the file outside was changed: %q, %v", b, err)
	}
	if got := names(t, filepath.Join(base, "outside/d")); len(got) != 1 {
		t.Errorf("files were created outside the root: %v", got)
	}
}

// TestReadDirRefusesASwappedInDeniedDir resolves root/pub, then swaps it for
// a link to the denied root/secret: listing the resolved path must be
// refused, naming nothing of secret.
func TestReadDirRefusesASwappedInDeniedDir(t *testing.T) {
	root := tempBase(t)
	must(t, os.MkdirAll(filepath.Join(root, "pub"), 0o755))
	must(t, os.MkdirAll(filepath.Join(root, "secret"), 0o755))
	must(t, os.WriteFile(filepath.Join(root, "secret", "key.txt"), []byte("k"), 0o600))
	s := newSet(t, []string{root}, []string{"secret/"})
	p, err := s.Resolve(root, "pub")
	must(t, err)
	must(t, os.Remove(filepath.Join(root, "pub")))
	must(t, os.Symlink("secret", filepath.Join(root, "pub")))
	// Each way of opening a directory resolved before the swap refuses
	// it: they share one check of what was opened (Set.openIn).
	for name, open := range map[string]func() (any, error){
		"ReadDir":      func() (any, error) { return s.ReadDir(p) },
		"ReadDirTypes": func() (any, error) { return s.ReadDirTypes(p) },
		"Open": func() (any, error) {
			f, err := s.Open(p)
			if f != nil {
				defer f.Close()
				list, _ := f.ReadDir(-1)
				return list, err
			}
			return nil, err
		},
		"OpenListDir": func() (any, error) {
			d, err := s.OpenListDir(p)
			if d != nil {
				defer d.Close()
				list, _ := d.ReadDir()
				return list, err
			}
			return nil, err
		},
	} {
		got, err := open()
		if err == nil {
			t.Errorf("%s: a swapped-in denied directory was opened: %v", name, got)
			continue
		}
		if k, ok := kindOf(err); !ok || k != Denied {
			t.Errorf("%s: error %v, want a denial", name, err)
		}
	}
	if b, err := os.ReadFile(filepath.Join(root, "secret", "key.txt")); err != nil || string(b) != "k" {
		t.Errorf("the denied directory changed: %q %v", b, err)
	}
}
