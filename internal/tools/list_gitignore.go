package tools

import (
	"io"
	"path/filepath"
	"strings"

	"github.com/hands-dev/hands/internal/ignore"
	"github.com/hands-dev/hands/internal/sandbox"
)

// maxGitignoreSize bounds the .gitignore files read.
const maxGitignoreSize = 1 << 20

// gitIgnores are the .gitignore files that apply in one directory: its own
// and those of the directories above it, up to the repository root (the
// nearest directory holding .git) or the sandbox root, whichever comes
// first. Files are read through the sandbox, so that nothing outside the
// roots or denied is read. The rules apply whether or not the directory is
// in a git repository; .git/info/exclude and the global excludes file are
// not read.
type gitIgnores struct {
	parent *gitIgnores
	dir    string // absolute
	rules  *ignore.Rules
}

// gitIgnoresFor returns the .gitignore files that apply in the directory p.
func gitIgnoresFor(st *State, p sandbox.Path) *gitIgnores {
	rootDir := st.FS.Roots()[p.Root]
	var chain []string
	for d := p.Abs; ; {
		chain = append(chain, d)
		parent := filepath.Dir(d)
		if d == rootDir || parent == d || hasGitDir(st, d) {
			break
		}
		d = parent
	}
	var g *gitIgnores
	for i := len(chain) - 1; i >= 0; i-- {
		g = g.child(st, chain[i])
	}
	return g
}

// hasGitDir reports whether dir holds a .git directory or file.
func hasGitDir(st *State, dir string) bool {
	p, err := st.FS.Resolve(dir, ".git")
	return err == nil && p.Exists
}

// child returns the stack for dir, a directory just below g's (or the first
// one, when g is nil), with dir's .gitignore on top when it has one.
func (g *gitIgnores) child(st *State, dir string) *gitIgnores {
	p, err := st.FS.Resolve(dir, ".gitignore")
	if err != nil || !p.Exists {
		return g
	}
	f, err := st.FS.Open(p)
	if err != nil {
		return g
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxGitignoreSize))
	if err != nil {
		return g
	}
	rules, _ := ignore.Parse(data)
	if rules.Len() == 0 {
		return g
	}
	return &gitIgnores{parent: g, dir: dir, rules: rules}
}

// ignored reports whether the .gitignore files leave out abs, a path below
// the directory of g. The deepest file with a matching pattern decides, and
// within it the last matching pattern, as in git.
func (g *gitIgnores) ignored(abs string, isDir bool) bool {
	for c := g; c != nil; c = c.parent {
		rel, ok := strings.CutPrefix(abs, strings.TrimSuffix(c.dir, string(filepath.Separator))+string(filepath.Separator))
		if !ok {
			continue
		}
		rel = filepath.ToSlash(rel)
		switch c.rules.Match(rel, isDir) {
		case ignore.Ignore:
			return true
		case ignore.Include:
			return false
		}
	}
	return false
}
