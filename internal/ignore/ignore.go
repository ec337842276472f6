// Package ignore decides which paths a search leaves out, the way git and
// ripgrep do.
//
// Rules holds the patterns of one ignore file (.gitignore, .ignore,
// .git/info/exclude, the global excludes file) and matches paths relative
// to the directory the file applies to, with git's semantics: the last
// matching pattern wins, "!" re-includes, a leading or inner "/" anchors
// the pattern to the file's directory, a trailing "/" matches directories
// only, "**" spans directories, "\" escapes, and unescaped trailing spaces
// are dropped.
//
// Node stacks the Rules of nested directories so that a deeper file
// overrides a shallower one, and ranks the kinds of file as ripgrep does
// (.ignore over .gitignore over .git/info/exclude over the global file).
// Overrides (ripgrep's -g) and Types (ripgrep's -t) are the filters that
// come before and after them.
//
// The package reads files only when asked to (Node.Child, LoadGlobal); it
// does not walk directories: see package walk.
package ignore

import (
	"bytes"
	"strings"

	"github.com/hands-dev/hands/internal/glob"
)

// Match is the verdict of a rule set on one path.
type Match uint8

const (
	// None means no pattern matched: the decision is left to others.
	None Match = iota
	// Ignore means the path is left out.
	Ignore
	// Include means a pattern re-included the path ("!pattern" in an
	// ignore file, a plain glob among overrides).
	Include
)

func (m Match) String() string {
	switch m {
	case Ignore:
		return "ignore"
	case Include:
		return "include"
	}
	return "none"
}

// Rules is the compiled content of one ignore file. The zero value and nil
// match nothing. It is safe for concurrent use.
type Rules struct {
	rules []rule
	// names maps a literal base-name pattern to the indexes (ascending)
	// of the rules with that name, so that most rules are found without
	// a scan.
	names map[string][]int
	other []int // indexes of the rules not in names, ascending
}

type rule struct {
	g        *glob.Glob
	negate   bool // "!": re-include
	dirOnly  bool // trailing "/"
	basename bool // no '/': matches the base name at any depth
	text     string
}

// ParseOptions tunes Parse.
type ParseOptions struct {
	// Braces enables "{a,b}" alternatives, which git does not have but
	// ripgrep's -g globs do.
	Braces bool
	// Invert swaps the meaning of patterns: a plain pattern includes and
	// "!pattern" ignores, as ripgrep's -g globs do.
	Invert bool
}

// Parse compiles the content of an ignore file. Lines that are not valid
// patterns are skipped, as git does; their errors are returned for
// diagnostics.
func Parse(data []byte) (*Rules, []error) {
	return ParseWith(data, ParseOptions{})
}

// ParseWith is Parse with options.
func ParseWith(data []byte, opts ParseOptions) (*Rules, []error) {
	r := &Rules{}
	var errs []error
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		if err := r.add(string(line), opts); err != nil {
			errs = append(errs, err)
		}
	}
	r.index()
	return r, errs
}

// add compiles one line.
func (r *Rules) add(line string, opts ParseOptions) error {
	line = strings.TrimSuffix(line, "\r")
	if line == "" || line[0] == '#' {
		return nil
	}
	// Drop trailing spaces unless escaped.
	for strings.HasSuffix(line, " ") && !strings.HasSuffix(line, `\ `) {
		line = line[:len(line)-1]
	}
	if line == "" {
		return nil
	}
	ru := rule{text: line}
	if line[0] == '!' {
		ru.negate = true
		line = line[1:]
	}
	if opts.Invert {
		ru.negate = !ru.negate
	}
	if strings.HasSuffix(line, "/") && !strings.HasSuffix(line, `\/`) {
		ru.dirOnly = true
		line = strings.TrimRight(line, "/")
	}
	if line == "" {
		return nil
	}
	if strings.HasPrefix(line, "/") {
		line = line[1:]
	} else if !strings.Contains(line, "/") {
		ru.basename = true
	}
	g, err := glob.CompileOptions(line, glob.Options{NoBraces: !opts.Braces})
	if err != nil {
		return err
	}
	ru.g = g
	r.rules = append(r.rules, ru)
	return nil
}

func (r *Rules) index() {
	for i, ru := range r.rules {
		if ru.basename && isLiteral(ru.g.String(), ru.g) {
			if r.names == nil {
				r.names = map[string][]int{}
			}
			r.names[ru.g.String()] = append(r.names[ru.g.String()], i)
			continue
		}
		r.other = append(r.other, i)
	}
}

// isLiteral reports whether the pattern has no wildcard.
func isLiteral(p string, g *glob.Glob) bool {
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '*', '?', '[', '{', '\\':
			return false
		}
	}
	return g.Match(p)
}

// Len returns the number of patterns.
func (r *Rules) Len() int {
	if r == nil {
		return 0
	}
	return len(r.rules)
}

// Match returns the verdict of the last pattern matching rel, a
// slash-separated path relative to the directory the rules apply to.
// isDir tells whether rel names a directory.
func (r *Rules) Match(rel string, isDir bool) Match {
	if r == nil || len(r.rules) == 0 {
		return None
	}
	name := rel[strings.LastIndexByte(rel, '/')+1:]
	best := -1
	if idx, ok := r.names[name]; ok {
		for k := len(idx) - 1; k >= 0; k-- {
			if i := idx[k]; isDir || !r.rules[i].dirOnly {
				best = i
				break
			}
		}
	}
	for k := len(r.other) - 1; k >= 0; k-- {
		i := r.other[k]
		if i < best {
			break
		}
		ru := &r.rules[i]
		if ru.dirOnly && !isDir {
			continue
		}
		subject := rel
		if ru.basename {
			subject = name
		}
		if ru.g.Match(subject) {
			best = i
			break
		}
	}
	if best < 0 {
		return None
	}
	if r.rules[best].negate {
		return Include
	}
	return Ignore
}
