package sandbox

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// mkTree creates entries under base. Each entry is "dir/", "file=content",
// "file" (empty) or "link -> target" (target written as given).
func mkTree(t testing.TB, base string, entries ...string) {
	t.Helper()
	for _, e := range entries {
		switch {
		case strings.Contains(e, " -> "):
			name, target, _ := strings.Cut(e, " -> ")
			p := filepath.Join(base, name)
			must(t, os.MkdirAll(filepath.Dir(p), 0o755))
			must(t, os.Symlink(target, p))
		case strings.HasSuffix(e, "/"):
			must(t, os.MkdirAll(filepath.Join(base, e), 0o755))
		default:
			name, content, _ := strings.Cut(e, "=")
			p := filepath.Join(base, name)
			must(t, os.MkdirAll(filepath.Dir(p), 0o755))
			must(t, os.WriteFile(p, []byte(content), 0o644))
		}
	}
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// tempBase returns a fresh directory with symlinks evaluated, so that paths
// the Set reports can be compared with it.
func tempBase(t testing.TB) string {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	must(t, err)
	return base
}

func newSet(t testing.TB, roots, deny []string) *Set {
	t.Helper()
	s, err := New(roots, deny)
	must(t, err)
	t.Cleanup(func() { s.Close() })
	return s
}

func kindOf(err error) (Kind, bool) {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind, true
	}
	return 0, false
}

// names lists dir, for checks that no temporary file is left.
func names(t testing.TB, dir string) []string {
	t.Helper()
	list, err := os.ReadDir(dir)
	must(t, err)
	var out []string
	for _, e := range list {
		out = append(out, e.Name())
	}
	return out
}

func noTemp(t testing.TB, dir string) {
	t.Helper()
	for _, n := range names(t, dir) {
		if strings.Contains(n, ".hands-") {
			t.Errorf("temporary file left behind in %s: %s", dir, n)
		}
	}
}
