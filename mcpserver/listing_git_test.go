package mcpserver_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/hands-dev/hands"
)

// TestViewFindsTheRepositoryFromItsListing: whether the directory viewed
// is a repository's top is read from its own listing where that answers
// as the lookup by path did (a .git directory), and looked up by path
// where it may not (a .git link, followed; a denied .git, refused): in
// each case the .gitignore applies exactly when it did before.
func TestViewFindsTheRepositoryFromItsListing(t *testing.T) {
	for _, c := range []struct {
		name string
		deny []string
		link bool
		want string
	}{
		{"a .git directory", nil, false, "/\n  - .gitignore\n  - real.git/\n    - HEAD\n  - sub/\n    - b.txt"},
		{"a .git link to a directory", nil, true, "/\n  - .gitignore\n  - real.git/\n    - HEAD\n  - sub/\n    - b.txt"},
		{"a denied .git", []string{".git"}, false, "/\n  - .gitignore\n  - app.log\n  - real.git/\n    - HEAD\n  - sub/\n    - a.log\n    - b.txt"},
	} {
		t.Run(c.name, func(t *testing.T) {
			fc := newFileClient(t, hands.Options{Deny: c.deny})
			r := filepath.Join(fc.root, "r")
			for name, data := range map[string]string{".gitignore": "*.log\n", "app.log": "x", "sub/a.log": "a", "sub/b.txt": "b", "real.git/HEAD": "ref\n"} {
				p := filepath.Join(r, name)
				must(t, os.MkdirAll(filepath.Dir(p), 0o755))
				must(t, os.WriteFile(p, []byte(data), 0o644))
			}
			if c.link {
				must(t, os.Symlink("real.git", filepath.Join(r, ".git")))
			} else {
				must(t, os.Mkdir(filepath.Join(r, ".git"), 0o755))
			}
			got, _ := fc.ok("view", map[string]any{"path": "r"})
			if want := r + c.want; got != want {
				t.Errorf("view r:\n%s\nwant\n%s", got, want)
			}
		})
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
