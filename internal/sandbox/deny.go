package sandbox

import (
	"fmt"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// foldCase is set where the usual file systems ignore case, so that ".ENV"
// cannot slip past a ".env" pattern.
var foldCase = runtime.GOOS == "darwin" || runtime.GOOS == "windows"

// pattern is one compiled deny pattern.
type pattern struct {
	text string // as given, for messages
	glob string // doublestar pattern without the leading or trailing slash
	// anchored patterns contain a slash and match the path relative to a
	// root from its start; the others match any single component.
	anchored bool
	// abs is set for a pattern starting with "/": it is matched against the
	// absolute path as well as anchored to each root.
	abs string
	// depth is the number of components glob and abs match, or 0 when that
	// varies ("**", "{a,b/c}"); it spares trying every parent directory.
	depth, absDepth int
}

// compileDeny turns gitignore-style patterns into patterns. Blank entries
// and "#" comments are skipped; "!" negation is refused rather than ignored.
func compileDeny(list []string) ([]pattern, error) {
	var out []pattern
	for _, raw := range list {
		t := strings.TrimSpace(raw)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		if strings.HasPrefix(t, "!") {
			return nil, fmt.Errorf("deny pattern %q: negation is not supported", raw)
		}
		if strings.ContainsRune(t, 0) {
			return nil, fmt.Errorf("deny pattern %q: contains a NUL byte", raw)
		}
		p := pattern{text: t}
		// A trailing slash means "directories only" in gitignore. Without a
		// stat we cannot tell, so a file of that name is refused too.
		g := strings.TrimRight(filepath.ToSlash(t), "/")
		if vol := filepath.VolumeName(t); vol != "" {
			// A Windows absolute pattern: match it against the absolute path only.
			p.abs = fold(g)
		} else if strings.HasPrefix(g, "/") {
			p.abs = fold(g)
			g = strings.TrimLeft(g, "/")
		}
		if g == "" {
			return nil, fmt.Errorf("deny pattern %q: matches nothing", raw)
		}
		p.anchored = strings.Contains(g, "/") || p.abs != ""
		// Since parents are matched too, "x/**" denies what "x" denies, and
		// "**/x" what an unanchored "x" denies; the short forms are faster.
		for strings.HasSuffix(g, "/**") {
			g = strings.TrimSuffix(g, "/**")
		}
		if rest, ok := strings.CutPrefix(g, "**/"); ok && p.abs == "" && !strings.Contains(rest, "/") && rest != "**" {
			g, p.anchored = rest, false
		}
		p.glob = fold(g)
		p.depth, p.absDepth = depth(p.glob), depth(p.abs)
		if !doublestar.ValidatePattern(p.glob) || (p.abs != "" && !doublestar.ValidatePattern(p.abs)) {
			return nil, fmt.Errorf("deny pattern %q: invalid glob syntax", raw)
		}
		out = append(out, p)
	}
	return out, nil
}

func fold(s string) string {
	if foldCase {
		return strings.ToLower(s)
	}
	return s
}

// Denied reports whether an absolute path matches a deny pattern, relative to
// any root containing it or, for a pattern starting with "/", as an absolute
// path. A path is also denied when one of its parent directories matches, so
// that ".git" covers everything under it. Directory walkers use it to skip
// entries; Resolve and the operations check it themselves.
func (s *Set) Denied(abs string) bool {
	_, ok := s.deniedBy(abs)
	return ok || s.grants.hidden(abs)
}

// Allows reports whether real, an absolute path with every link resolved
// (as the kernel names an open file), lies inside a root and matches no
// deny pattern: what a walk checks of a directory it opened by path.
func (s *Set) Allows(real string) bool {
	_, _, in := s.Contains(real)
	if !in {
		_, in = s.granted(real)
		return in
	}
	return !s.Denied(real)
}

// deniedBy returns the first pattern that matches abs.
func (s *Set) deniedBy(abs string) (string, bool) {
	if len(s.deny) == 0 {
		return "", false
	}
	abs = filepath.Clean(abs)
	if !filepath.IsAbs(abs) {
		// Not absolute: the best we can do is read it as relative to a root.
		return s.matchRel(fold(filepath.ToSlash(abs)))
	}
	slash := fold(filepath.ToSlash(abs))
	for _, p := range s.deny {
		if p.abs != "" && matchPrefixes(p.abs, p.absDepth, slash) {
			return p.text, true
		}
	}
	for _, r := range s.roots {
		for _, dir := range []string{r.path, r.given} {
			if dir == "" {
				continue
			}
			if rel, ok := within(dir, abs); ok && rel != "." {
				if t, ok := s.matchRel(fold(rel)); ok {
					return t, true
				}
			}
		}
	}
	return "", false
}

// matchRel matches a slash path relative to a root.
func (s *Set) matchRel(rel string) (string, bool) {
	for _, p := range s.deny {
		if p.anchored {
			if matchPrefixes(p.glob, p.depth, rel) {
				return p.text, true
			}
			continue
		}
		for c := range strings.SplitSeq(rel, "/") {
			if doublestar.MatchUnvalidated(p.glob, c) {
				return p.text, true
			}
		}
	}
	return "", false
}

// depth returns the number of components every match of glob has, or 0.
func depth(glob string) int {
	if glob == "" || strings.Contains(glob, "**") || strings.ContainsAny(glob, "{[\\") {
		return 0
	}
	return strings.Count(strings.TrimPrefix(glob, "/"), "/") + 1
}

// matchPrefixes reports whether glob, which matches paths of depth
// components (0: any number), matches name or one of its parent directories
// ("a", "a/b", "a/b/c" for "a/b/c"; "/a", "/a/b" for "/a/b").
func matchPrefixes(glob string, depth int, name string) bool {
	if depth > 0 {
		// Only the prefix with as many components can match.
		i := 0
		if strings.HasPrefix(name, "/") {
			i = 1
		}
		for n := 0; ; n++ {
			j := strings.IndexByte(name[i:], '/')
			if n == depth-1 {
				if j >= 0 {
					name = name[:i+j]
				}
				return doublestar.MatchUnvalidated(glob, name)
			}
			if j < 0 {
				return false
			}
			i += j + 1
		}
	}
	for i := 1; i < len(name); i++ {
		if name[i] == '/' && doublestar.MatchUnvalidated(glob, name[:i]) {
			return true
		}
	}
	return doublestar.MatchUnvalidated(glob, name)
}
