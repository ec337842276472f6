package search

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/hands-dev/hands/internal/glob"
	"github.com/hands-dev/hands/internal/ignore"
	"github.com/hands-dev/hands/internal/walk"
)

// Glob lists the entries below opts.Paths whose path relative to their
// root matches opts.Pattern, with the walk's filters (ignore files, hidden
// entries), newest first. A pattern starting with literal directories
// ("src/**/*.go") walks only below them; a pattern without "**" walks only
// as deep as it has components.
func Glob(ctx context.Context, opts GlobOptions) (*GlobResult, error) {
	if len(opts.Paths) == 0 {
		return nil, errors.New("search: no paths")
	}
	pattern := opts.Pattern
	if pattern == "" {
		pattern = "**"
	}
	g, err := glob.Cached(pattern, glob.Options{FoldCase: opts.FoldCase})
	if err != nil {
		return nil, err
	}
	wo, err := walkOptions(nil, nil, nil, opts.Hidden, opts.NoIgnore, opts.Ignore, opts.Follow, opts.Skip, opts.Workers)
	if err != nil {
		return nil, err
	}
	wo.Confine = opts.Confine
	prefix, depth := "", 0
	if !opts.FoldCase {
		prefix, depth = globPrefix(pattern)
	}
	res := &GlobResult{}
	var mu sync.Mutex
	for _, root := range opts.Paths {
		root, err := filepath.Abs(root)
		if err != nil {
			return nil, err
		}
		walkRoot, relPrefix := root, ""
		if prefix != "" && prefixAllowed(root, prefix, wo) {
			walkRoot = filepath.Join(root, filepath.FromSlash(prefix))
			relPrefix = prefix + "/"
			if fi, err := os.Stat(walkRoot); err != nil || !fi.IsDir() {
				continue // nothing can match
			}
		} else if fi, err := os.Stat(root); err != nil {
			return nil, err
		} else if !fi.IsDir() {
			continue
		}
		wo.MaxDepth = 0
		if depth > 0 {
			wo.MaxDepth = depth - strings.Count(relPrefix, "/")
		}
		st, err := walk.Walk(ctx, []string{walkRoot}, wo, func(e walk.Entry) error {
			isDir := e.IsDir()
			switch {
			case !isDir && !e.IsRegular() && !(opts.Links && e.Type&fs.ModeSymlink != 0): // links not followed, devices, ...
				return nil
			case opts.Type == Files && isDir, opts.Type == Dirs && !isDir:
				return nil
			}
			if !g.Match(relPrefix + e.Rel()) {
				opts.Counts.searched(0)
				return nil
			}
			info, err := e.Stat()
			if err != nil {
				opts.Counts.searched(0)
				return nil
			}
			opts.Counts.searched(1)
			ent := Entry{Path: e.Path, ModTime: info.ModTime, IsDir: isDir, Size: info.Size}
			mu.Lock()
			res.Entries = append(res.Entries, ent)
			mu.Unlock()
			return nil
		})
		res.Ignored += st.Ignored
		if err != nil {
			return nil, err
		}
	}
	sortFiles(res.Entries, (*Entry).key)
	return res, nil
}

// globPrefix returns the leading literal directories of pattern (without
// a trailing slash) and, when the pattern has no "**", its number of
// components (the deepest level that can match), else 0.
func globPrefix(pattern string) (prefix string, depth int) {
	comps := strings.Split(pattern, "/")
	if !strings.Contains(pattern, "**") {
		depth = len(comps)
	}
	if strings.ContainsAny(pattern, "{}") {
		return "", depth // braces may span components
	}
	var lits []string
	for _, c := range comps[:len(comps)-1] {
		if c == "" || c == "." || c == ".." || strings.ContainsAny(c, `*?[\`) {
			break
		}
		lits = append(lits, c)
	}
	return strings.Join(lits, "/"), depth
}

// prefixAllowed reports whether the walk would enter the prefix
// directories anyway (not ignored, not excluded by Skip). Hidden prefix
// directories are allowed: the pattern names them.
func prefixAllowed(root, prefix string, wo walk.Options) bool {
	node := ignore.NewRoot(root, wo.Ignore)
	if wo.NoIgnore {
		return wo.Skip == nil
	}
	p := root
	for _, c := range strings.Split(prefix, "/") {
		p = filepath.Join(p, c)
		if node.Match(p, true) == ignore.Ignore || wo.Skip != nil && wo.Skip(p, true) {
			return false
		}
	}
	return true
}
