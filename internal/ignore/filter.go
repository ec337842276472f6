package ignore

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/hands-dev/hands/internal/glob"
)

// Overrides are ripgrep's -g/--glob filters: gitignore-syntax globs
// matched against paths relative to the search root (a glob without '/'
// matches the base name at any depth), where a plain glob includes and a
// glob starting with '!' excludes; the last matching glob wins. When there
// is at least one including glob, a file that matches none is excluded;
// directories are never excluded that way. Overrides rank above ignore
// files and hidden-file filtering: an included path is searched even if
// ignored or hidden. The nil *Overrides matches nothing.
type Overrides struct {
	rules      *Rules
	includes   int
	hasExclude bool
}

// NewOverrides compiles globs; braces are allowed.
func NewOverrides(globs []string) (*Overrides, error) {
	if len(globs) == 0 {
		return nil, nil
	}
	o := &Overrides{rules: &Rules{}}
	for _, g := range globs {
		if strings.TrimSpace(g) == "" || g[0] == '#' {
			return nil, fmt.Errorf("invalid glob %q: empty or comment", g)
		}
		if err := o.rules.add(g, ParseOptions{Braces: true, Invert: true}); err != nil {
			return nil, err
		}
		if strings.HasPrefix(g, "!") {
			o.hasExclude = true
		} else {
			o.includes++
		}
	}
	o.rules.index()
	return o, nil
}

// Match returns Include, Ignore or None for rel, slash-separated and
// relative to the search root.
func (o *Overrides) Match(rel string, isDir bool) Match {
	if o == nil {
		return None
	}
	m := o.rules.Match(rel, isDir)
	if m == None && o.includes > 0 && !isDir {
		return Ignore
	}
	return m
}

// Types are ripgrep's -t/--type and -T/--type-not filters over file base
// names, with ripgrep's type definitions (see TypeNames). A file matching a
// selected type is included even if hidden (as in ripgrep); with at least
// one selected type, other files are excluded; a file matching a negated
// type is excluded. Directories are never matched. The nil *Types matches
// nothing.
type Types struct {
	selected []*glob.Glob
	negated  []*glob.Glob
}

// ErrUnknownType is wrapped by NewTypes' error for an unknown type name.
var ErrUnknownType = errors.New("unknown file type")

// NewTypes compiles the named types. Names are ripgrep's (go, js, ts, py,
// rust, ...; see TypeNames); "all" selects every type.
func NewTypes(selected, negated []string) (*Types, error) {
	if len(selected) == 0 && len(negated) == 0 {
		return nil, nil
	}
	t := &Types{}
	var err error
	if t.selected, err = typeGlobs(selected); err != nil {
		return nil, err
	}
	if t.negated, err = typeGlobs(negated); err != nil {
		return nil, err
	}
	return t, nil
}

func typeGlobs(names []string) ([]*glob.Glob, error) {
	var out []*glob.Glob
	for _, name := range names {
		var pats []string
		if name == "all" {
			for _, d := range typeDefs {
				pats = append(pats, d.globs...)
			}
		} else {
			var ok bool
			if pats, ok = typeGlobsOf(name); !ok {
				return nil, fmt.Errorf("%w %q; known types: %s", ErrUnknownType, name, strings.Join(TypeNames(), ", "))
			}
		}
		for _, p := range pats {
			g, err := glob.Compile(p)
			if err != nil {
				return nil, err
			}
			out = append(out, g)
		}
	}
	return out, nil
}

// Match returns the verdict for a file's base name.
func (t *Types) Match(name string, isDir bool) Match {
	if t == nil || isDir {
		return None
	}
	for _, g := range t.negated {
		if g.Match(name) {
			return Ignore
		}
	}
	for _, g := range t.selected {
		if g.Match(name) {
			return Include
		}
	}
	if len(t.selected) > 0 {
		return Ignore
	}
	return None
}

// typeDef is one of ripgrep's file types: its name and the globs of its
// files.
type typeDef struct {
	name  string
	globs []string
}

// typeGlobsOf returns the globs of the type named name.
func typeGlobsOf(name string) ([]string, bool) {
	i, ok := slices.BinarySearchFunc(typeDefs[:], name, func(d typeDef, name string) int {
		return strings.Compare(d.name, name)
	})
	if !ok {
		return nil, false
	}
	return typeDefs[i].globs, true
}

// TypeNames returns the known type names, sorted.
func TypeNames() []string {
	names := make([]string, len(typeDefs))
	for i, d := range typeDefs {
		names[i] = d.name
	}
	return names
}
