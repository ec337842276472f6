package tools

import (
	"io"
	"os"
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
// roots or denied is read. As in ripgrep (and so in grep and glob), the
// rules apply only inside a git repository; .git/info/exclude and the
// global excludes file are not read.
type gitIgnores struct {
	parent *gitIgnores
	dir    string        // absolute
	rules  *ignore.Rules // nil for a directory without rules
	inRepo bool          // dir or a directory above it holds .git
}

// gitIgnoresFor returns the .gitignore files that apply in the directory
// p, whose entries (as listed) say whether it holds .git.
func gitIgnoresFor(st *State, p sandbox.Path, entries []os.DirEntry) *gitIgnores {
	rootDir := st.FS.Roots()[p.Root]
	var chain []string
	inRepo := false
	for d := p.Abs; ; {
		chain = append(chain, d)
		parent := filepath.Dir(d)
		if d == p.Abs && listsGitDir(st, d, entries) || d != p.Abs && hasGitDir(st, d) {
			inRepo = true
			break
		}
		if d == rootDir || parent == d {
			inRepo = repoAbove(d)
			break
		}
		d = parent
	}
	// Only the top of the chain may hold .git (the loop stopped at the
	// first that does): in a repository every directory of the chain has
	// its .gitignore read, outside one none has, without looking for .git
	// again as child would.
	g := &gitIgnores{inRepo: inRepo}
	for i := len(chain) - 1; inRepo && i >= 0; i-- {
		g = g.under(chain[i], readGitignore(st, chain[i]))
	}
	return g
}

// hasGitDir reports whether dir holds a .git directory or file.
func hasGitDir(st *State, dir string) bool {
	p, err := st.FS.Resolve(dir, ".git")
	return err == nil && p.Exists
}

// listsGitDir is hasGitDir for dir listed as entries: a .git entry that
// is neither a link (which the lookup by path follows) nor denied (which
// it refuses) answers without a lookup; otherwise hasGitDir does.
func listsGitDir(st *State, dir string, entries []os.DirEntry) bool {
	for _, e := range entries {
		if e.Name() == ".git" {
			if e.Type()&os.ModeSymlink == 0 && !st.FS.Denied(filepath.Join(dir, ".git")) {
				return true
			}
			return hasGitDir(st, dir)
		}
	}
	return false
}

// repoAbove reports whether a directory above root holds .git, so that the
// root is inside a repository. Only the existence of .git is looked at:
// nothing outside the roots is read.
func repoAbove(root string) bool {
	return ignore.InRepository(filepath.Dir(root))
}

// under returns the stack for dir, a directory in a repository just below
// g's, with rules (nil for none) on top.
func (g *gitIgnores) under(dir string, rules *ignore.Rules) *gitIgnores {
	c := &gitIgnores{parent: g, dir: dir, inRepo: true, rules: rules}
	if !g.inRepo {
		// dir is a repository's top: the rules above it are not its own.
		c.parent = nil
	}
	return c
}

// childIn returns the stack for a directory just below g's, opened for
// listing, with its .gitignore on top when it has one and is in a
// repository. Its entries say whether it holds .git and .gitignore:
// nothing is looked up by path unless one of them is a link (which the
// path lookup follows).
func (g *gitIgnores) childIn(st *State, dir *sandbox.ListDir, entries []os.DirEntry) *gitIgnores {
	abs := dir.Path().Abs
	var gitE, ignoreE os.DirEntry
	for _, e := range entries {
		switch e.Name() {
		case ".git":
			gitE = e
		case ".gitignore":
			ignoreE = e
		}
	}
	if !g.inRepo && (gitE == nil || gitE.Type()&os.ModeSymlink != 0 && !hasGitDir(st, abs)) {
		return g
	}
	var rules *ignore.Rules
	switch {
	case ignoreE == nil:
	case ignoreE.Type().IsRegular():
		if f, err := dir.Open(".gitignore"); err == nil {
			rules = parseGitignore(f)
			f.Close()
		}
	default: // a link: followed by path, as child does
		rules = readGitignore(st, abs)
	}
	return g.under(abs, rules)
}

// readGitignore returns the rules of dir's .gitignore, or nil.
func readGitignore(st *State, dir string) *ignore.Rules {
	p, err := st.FS.Resolve(dir, ".gitignore")
	if err != nil || !p.Exists {
		return nil
	}
	f, err := st.FS.Open(p)
	if err != nil {
		return nil
	}
	defer f.Close()
	return parseGitignore(f)
}

// parseGitignore returns the rules of the .gitignore file f, or nil.
func parseGitignore(f io.Reader) *ignore.Rules {
	data, err := io.ReadAll(io.LimitReader(f, maxGitignoreSize))
	if err != nil {
		return nil
	}
	rules, _ := ignore.Parse(data)
	if rules.Len() == 0 {
		return nil
	}
	return rules
}

// ignored reports whether the .gitignore files leave out abs, a path below
// the directory of g. The deepest file with a matching pattern decides, and
// within it the last matching pattern, as in git.
func (g *gitIgnores) ignored(abs string, isDir bool) bool {
	for c := g; c != nil; c = c.parent {
		if c.rules == nil {
			continue
		}
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
