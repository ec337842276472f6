package ignore

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// TestNewRootSeesChangesAbove: the ignore files of the directories above
// a walk's root and git's global excludes file are kept between walks,
// yet each change is seen by the next walk: an ignore file created or
// removed in a parent, a repository started above, and core.excludesFile
// changed in ~/.gitconfig. The racy window is off here, so that what was
// just written is kept too (it is what the stamps must tell apart).
func TestNewRootSeesChangesAbove(t *testing.T) {
	defer func(w time.Duration) { racyWindow = w }(racyWindow)
	racyWindow = -time.Hour
	base := t.TempDir()
	home := filepath.Join(base, "home")
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	writeTree(t, base, map[string]string{"home/": "", "w/p/q/root/a.log": "", "w/p/q/root/b.tmp": "", "w/p/q/root/c.go": ""})
	root := filepath.Join(base, "w", "p", "q", "root")
	match := func(name string) Match { return NewRoot(root, Config{}).Match(filepath.Join(root, name), false) }
	expect := func(step string, want map[string]Match) {
		t.Helper()
		for name, m := range want {
			if got := match(name); got != m {
				t.Errorf("%s: %s matched %v, want %v", step, name, got, m)
			}
		}
	}
	expect("no ignore files", map[string]Match{"a.log": None, "b.tmp": None, "c.go": None})
	write := func(rel, content string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(base, rel), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("w/p/.ignore", "*.log\n")
	expect(".ignore created two levels up", map[string]Match{"a.log": Ignore, "c.go": None})
	// A .gitignore applies in a repository only.
	write("w/p/q/.gitignore", "*.go\n")
	expect(".gitignore outside a repository", map[string]Match{"a.log": Ignore, "c.go": None})
	if err := os.Mkdir(filepath.Join(base, "w", ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	expect("a repository started above", map[string]Match{"a.log": Ignore, "c.go": Ignore})
	write("home/excludes", "*.tmp\n")
	write("home/.gitconfig", "[core]\n\texcludesFile = ~/excludes\n")
	expect("core.excludesFile set", map[string]Match{"b.tmp": Ignore})
	write("home/.gitconfig", "[core]\n\texcludesFile = ~/none\n")
	expect("core.excludesFile changed", map[string]Match{"b.tmp": None})
	if err := os.Remove(filepath.Join(base, "w", "p", ".ignore")); err != nil {
		t.Fatal(err)
	}
	expect(".ignore removed", map[string]Match{"a.log": None, "c.go": Ignore})
	if err := os.Rename(filepath.Join(base, "w", ".git"), filepath.Join(base, "w", "git-was")); err != nil {
		t.Fatal(err)
	}
	expect("the repository gone", map[string]Match{"c.go": None})
	if runtime.GOOS == "linux" && (len(presentCache.dirs) == 0 || !globalCache.c.valid) {
		t.Errorf("nothing was kept: %d directories, global %v", len(presentCache.dirs), globalCache.c.valid)
	}
}
