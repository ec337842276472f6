package ignore

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// Config selects which ignore files a Node reads. The zero value is
// ripgrep's default: .ignore, .rgignore, .gitignore, .git/info/exclude and
// the global excludes file, the git ones only inside a git repository.
type Config struct {
	// NoIgnoreFiles disables .ignore and .rgignore files.
	NoIgnoreFiles bool
	// NoVCS disables .gitignore, .git/info/exclude and the global
	// excludes file (ripgrep's --no-ignore-vcs).
	NoVCS bool
	// NoRequireGit applies the git files outside git repositories too
	// (ripgrep's --no-require-git).
	NoRequireGit bool
	// NoParents disables the ignore files of the directories above the
	// root (ripgrep's --no-ignore-parent).
	NoParents bool
	// Global is the global excludes file. The zero value means the one
	// git uses (see GlobalExcludesFile); use NoGlobal to have none.
	Global string
	// NoGlobal disables the global excludes file.
	NoGlobal bool
}

// The names of the files a Node reads.
const (
	GitignoreName = ".gitignore"
	IgnoreName    = ".ignore"
	RgignoreName  = ".rgignore"
	GitDirName    = ".git"
)

// Files tells Child which of the files it reads are present in a
// directory, as seen in the directory's listing, so that absent ones cost
// no system call.
type Files uint8

// The flags of Files.
const (
	HasGitignore Files = 1 << iota
	HasIgnore
	HasRgignore
	HasGit // a .git directory or file: the directory is a repository root
)

// FileFlag returns the flag of Files for a directory entry name, or 0.
func FileFlag(name string) Files {
	if len(name) < 4 || name[0] != '.' {
		return 0
	}
	switch name {
	case GitignoreName:
		return HasGitignore
	case IgnoreName:
		return HasIgnore
	case RgignoreName:
		return HasRgignore
	case GitDirName:
		return HasGit
	}
	return 0
}

// Node is the ignore state of one directory: its own ignore files and,
// through its parent, those of the directories above it. Nodes are
// immutable and safe for concurrent use; a directory without ignore files
// shares its parent's Node.
type Node struct {
	parent  *Node
	dir     string // absolute
	prefix  int    // length of dir plus its trailing separator
	ignore  *Rules // .ignore then .rgignore
	git     *Rules // .gitignore
	exclude *Rules // .git/info/exclude
	inRepo  bool   // this directory or one above is a repository
	repo    string // the nearest repository root, or the walk root
	shared  *shared
}

type shared struct {
	cfg    Config
	global *Rules
}

// NewRoot returns the Node of dir, an absolute path, the root of a walk:
// it reads the ignore
// files of dir and, unless cfg.NoParents, of the directories above it up to
// the repository root, and the global excludes file.
func NewRoot(dir string, cfg Config) *Node {
	dir = filepath.Clean(dir)
	sh := &shared{cfg: cfg}
	if !cfg.NoVCS && !cfg.NoGlobal {
		path := cfg.Global
		if path == "" {
			path = globalExcludes()
		}
		if data, err := readFile(path); err == nil && path != "" {
			sh.global, _ = Parse(data)
		}
	}
	// Directories from the filesystem root (or the repository root) down
	// to dir.
	// What each holds is looked up once: present costs a stat even when
	// it answers from what it kept.
	chain := []string{dir}
	var files []Files
	if !cfg.NoParents {
		for d := dir; ; {
			f := present(d)
			files = append(files, f)
			if f&HasGit != 0 {
				break
			}
			p := filepath.Dir(d)
			if p == d {
				break
			}
			chain = append(chain, p)
			d = p
		}
	} else {
		files = append(files, present(dir))
	}
	n := &Node{dir: "", shared: sh}
	for i := len(chain) - 1; i >= 0; i-- {
		d, f := chain[i], files[i]
		if i > 0 && f == 0 {
			continue
		}
		n = n.child(d, f, i == 0)
	}
	if n.repo == "" {
		n.repo = dir
	}
	return n
}

// Child returns the Node of dir, a subdirectory of n's directory whose
// listing holds the files flagged in f.
func (n *Node) Child(dir string, f Files) *Node {
	return n.child(dir, f, false)
}

func (n *Node) child(dir string, f Files, force bool) *Node {
	cfg := &n.shared.cfg
	if cfg.NoIgnoreFiles {
		f &^= HasIgnore | HasRgignore
	}
	if cfg.NoVCS {
		f &^= HasGitignore
	}
	if f == 0 && !force {
		return n
	}
	c := &Node{parent: n, dir: dir, prefix: len(dir) + 1, inRepo: n.inRepo, repo: n.repo, shared: n.shared}
	if strings.HasSuffix(dir, string(filepath.Separator)) {
		c.prefix = len(dir)
	}
	if n.dir == "" {
		c.parent = nil
	}
	if f&HasGit != 0 {
		c.inRepo = true
		c.repo = dir
		if !cfg.NoVCS {
			c.exclude = readRules(filepath.Join(dir, GitDirName, "info", "exclude"))
		}
	}
	if f&HasIgnore != 0 {
		c.ignore = readRules(filepath.Join(dir, IgnoreName))
	}
	if f&HasRgignore != 0 {
		r := readRules(filepath.Join(dir, RgignoreName))
		if c.ignore == nil {
			c.ignore = r
		} else if r != nil {
			c.ignore.rules = append(c.ignore.rules, r.rules...)
			c.ignore.names, c.ignore.other = nil, nil
			c.ignore.index()
		}
	}
	if f&HasGitignore != 0 {
		c.git = readRules(filepath.Join(dir, GitignoreName))
	}
	return c
}

// maxRulesFile bounds an ignore file read: ignore files sit in trees that
// commands write, and a link to /dev/zero or a huge file there must not
// take the server's memory.
const maxRulesFile = 8 << 20

// readFile reads an ignore file: a regular file (a link is followed, as
// ripgrep does, but a FIFO, which would block, is opened O_NONBLOCK and
// refused, as is a device), of at most maxRulesFile bytes.
func readFile(path string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() || fi.Size() > maxRulesFile {
		return nil, fmt.Errorf("%s: not a regular file of at most %d bytes", path, maxRulesFile)
	}
	return io.ReadAll(io.LimitReader(f, maxRulesFile))
}

func readRules(path string) *Rules {
	data, err := readFile(path)
	if err != nil || len(data) == 0 {
		return nil
	}
	r, _ := Parse(data)
	if r.Len() == 0 {
		return nil
	}
	return r
}

// Empty reports whether no rule at all applies below n, so that a walker
// can skip matching.
func (n *Node) Empty() bool {
	for c := n; c != nil; c = c.parent {
		if c.ignore != nil || (c.git != nil || c.exclude != nil) && c.gitApplies() {
			return false
		}
	}
	return n.shared.global == nil || !n.gitApplies()
}

func (n *Node) gitApplies() bool { return n.inRepo || n.shared.cfg.NoRequireGit }

// Match returns the verdict of the ignore files on abs, an absolute path
// below the node's directory; isDir tells whether it names a directory.
// Among the kinds of file, .ignore/.rgignore rank first, then .gitignore,
// .git/info/exclude and the global file; within a kind, the deepest file
// with a matching pattern decides.
func (n *Node) Match(abs string, isDir bool) Match {
	git := n.gitApplies()
	var mIgnore, mGit, mExclude Match
	for c := n; c != nil; c = c.parent {
		if len(abs) <= c.prefix || abs[:len(c.dir)] != c.dir {
			continue
		}
		rel := abs[c.prefix:]
		if filepath.Separator != '/' {
			rel = filepath.ToSlash(rel)
		}
		if mIgnore == None && c.ignore != nil {
			if mIgnore = c.ignore.Match(rel, isDir); mIgnore != None {
				return mIgnore // the highest rank: nothing can change it
			}
		}
		if git {
			if mGit == None && c.git != nil {
				mGit = c.git.Match(rel, isDir)
			}
			if mExclude == None && c.exclude != nil {
				mExclude = c.exclude.Match(rel, isDir)
			}
		}
	}
	if mGit != None {
		return mGit
	}
	if mExclude != None {
		return mExclude
	}
	if git && n.shared.global != nil {
		prefix := len(n.repo) + 1
		if len(abs) > prefix && strings.HasPrefix(abs, n.repo) {
			rel := filepath.ToSlash(abs[prefix:])
			return n.shared.global.Match(rel, isDir)
		}
	}
	return None
}
