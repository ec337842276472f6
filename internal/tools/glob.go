package tools

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/hands-dev/hands/internal/glob"
	"github.com/hands-dev/hands/internal/sandbox"
	"github.com/hands-dev/hands/internal/search"
	"github.com/hands-dev/hands/tool"
)

//go:embed glob.md
var globDescription string

// GlobInput is the input of the glob tool.
type GlobInput struct {
	Pattern string `json:"pattern" jsonschema:"the glob to match, e.g. **/*.go or src/**/*.{ts,tsx}"`
	Path    string `json:"path,omitempty" jsonschema:"the directory to search; default the working directory"`
	Type    string `json:"type,omitempty" jsonschema:"file (default), or dir (also directory) for directories"`
	// CaseSensitive defaults to true.
	CaseSensitive *bool `json:"case_sensitive,omitempty" jsonschema:"match case exactly; default true"`
	// RespectGitIgnore defaults to true.
	RespectGitIgnore *bool `json:"respect_git_ignore,omitempty" jsonschema:"leave out what .gitignore and .ignore exclude; default true"`
	resolved
	// match is the pattern below the resolved directory: Pattern without
	// a leading absolute or ../ directory part.
	match string
}

// GlobOutput is what the glob tool returns.
type GlobOutput struct {
	Pattern string `json:"pattern"`
	// Dir is the directory searched.
	Dir string `json:"dir"`
	// Paths are the matches shown, absolute, newest first (oldest first
	// under Behavior.GlobAll).
	Paths []string `json:"paths,omitempty"`
	// Total counts every match; Paths may hold fewer.
	Total int `json:"total"`
	// Ignored counts the entries the ignore files left out.
	Ignored int64 `json:"ignored,omitzero"`
}

// Glob returns the glob tool.
func Glob(lim Limits) tool.Tool {
	return tool.New(tool.Spec[GlobInput]{
		Name:           "glob",
		Enums:          map[string][]string{"type": {"file", "dir", "directory"}},
		Title:          "Find files by pattern",
		Description:    globDescription,
		ReadOnly:       true,
		Idempotent:     true,
		MaxResultChars: lim.GlobChars + 2000,
		Resolve: func(_ context.Context, env *tool.Env, in GlobInput) (GlobInput, error) {
			dir, match, terr := globBase(in.Path, in.Pattern)
			if terr != nil {
				return in, terr
			}
			p, terr := searchDir(stateOf(env), dir, false)
			if terr != nil {
				return in, terr
			}
			in.at, in.match = p, match
			return in, nil
		},
		Validate: func(_ context.Context, _ *tool.Env, in GlobInput) (GlobInput, error) {
			if strings.TrimSpace(in.Pattern) == "" {
				return in, toolErr(tool.InvalidInput, "%s is empty; give a glob such as **/*.go", param("pattern")).With("pattern", in.Pattern)
			}
			switch in.Type {
			case "", "file", "dir":
			case "directory":
				in.Type = "dir"
			default:
				return in, toolErr(tool.GlobInvalidType, "%s %q is not valid; use \"file\" or \"dir\" (also \"directory\"), or leave it out for files", param("type"), in.Type).With("type", in.Type)
			}
			if _, err := glob.Cached(in.Pattern, glob.Options{}); err != nil {
				return in, toolErr(tool.GlobInvalidPattern, "%s %q is not a valid glob: %v", param("pattern"), in.Pattern, globReason(err)).With("pattern", in.Pattern)
			}
			return in, nil
		},
	}, runGlob)
}

// globBase splits an absolute pattern, or one that starts by climbing
// with .., into the directory it names (joined to dir) and the pattern
// below it, so that "/src/app/*.go" searches /src/app, and a pattern that
// reaches outside the roots is refused like a path that does. A .. after a
// wildcard cannot be followed and is refused.
func globBase(dir, pattern string) (string, string, *tool.Error) {
	segs := strings.Split(filepath.ToSlash(pattern), "/")
	static := 0
	for static < len(segs)-1 && !strings.ContainsAny(segs[static], `*?[{\`) {
		static++
	}
	for _, s := range segs[static:] {
		if s == ".." {
			return "", "", toolErr(tool.GlobInvalidPattern, "%s %q climbs with .. after a wildcard, which cannot be followed; give the directory to search in %s instead", param("pattern"), pattern, param("path")).With("pattern", pattern)
		}
	}
	if !filepath.IsAbs(pattern) && !slices.Contains(segs[:static], "..") {
		return dir, pattern, nil
	}
	base := strings.Join(segs[:static], "/")
	if base == "" {
		base = "/"
	}
	if !filepath.IsAbs(base) && dir != "" {
		base = filepath.Join(dir, base)
	}
	return base, strings.Join(segs[static:], "/"), nil
}

func globReason(err error) string {
	var ge *glob.Error
	if errors.As(err, &ge) {
		return ge.Error()
	}
	return err.Error()
}

// searchDir resolves the directory (or file, when files are allowed) a
// search starts from.
func searchDir(st *State, path string, allowFile bool) (sandbox.Path, *tool.Error) {
	if path == "" {
		path = "."
	}
	p, terr := resolve(st, path)
	if terr != nil {
		return p, terr
	}
	fi, err := st.FS.Stat(p)
	if err != nil {
		return p, fsErr(err, "stat", p.Abs)
	}
	if !fi.IsDir() && !allowFile {
		return p, toolErr(tool.InvalidInput, "%s %s is a file, not a directory; give the directory to search", param("path"), p.Abs).With("path", p.Abs).With("kind", "file")
	}
	return p, nil
}

func runGlob(ctx context.Context, env *tool.Env, in GlobInput) (*GlobOutput, error) {
	st := stateOf(env)
	dir := in.at.Abs
	typ := search.Files
	if in.Type == "dir" {
		typ = search.Dirs
	}
	counts := &search.Counts{}
	rep := startProgress(ctx, env, st.Limits.SearchProgressAfter, searchProgress(counts, "entries"))
	opts := search.GlobOptions{
		Paths:    []string{dir},
		Pattern:  in.match,
		FoldCase: in.CaseSensitive != nil && !*in.CaseSensitive,
		Type:     typ,
		Links:    st.Behavior.GlobLinks && typ == search.Files,
		Hidden:   st.Behavior.GlobAll || st.Behavior.GlobHidden || namesHidden(in.match),
		NoIgnore: st.Behavior.GlobAll || in.RespectGitIgnore != nil && !*in.RespectGitIgnore,
		Skip:     searchSkip(st, st.Behavior.GlobHidden),
		Confine:  st.FS.Allows,
		Counts:   counts,
	}
	res, err := search.Glob(ctx, opts)
	rep.finish(searchProgress(counts, "entries"))
	if err == nil && st.Behavior.GlobIgnoredMatches && !opts.NoIgnore {
		res.Ignored, err = ignoredMatches(ctx, opts, res)
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, toolErr(tool.IOError, "could not search %s: %v", dir, err).With("path", dir)
	}
	if st.Behavior.GlobRecentThenByName {
		sortRecentThenByName(res.Entries, time.Now())
	}
	if st.Behavior.GlobAll {
		slices.SortStableFunc(res.Entries, func(a, b search.Entry) int {
			if c := a.ModTime.Compare(b.ModTime); c != 0 {
				return c
			}
			return strings.Compare(a.Path, b.Path)
		})
	}
	out := &GlobOutput{Pattern: in.Pattern, Dir: dir, Total: len(res.Entries), Ignored: res.Ignored, Paths: []string{}}
	size := 0
	for _, e := range res.Entries {
		size += len(e.Path) + 1
		if size > stateOf(env).Limits.GlobChars {
			break
		}
		out.Paths = append(out.Paths, e.Path)
	}
	return out, nil
}

// namesHidden reports whether a pattern names a hidden component (".github/**",
// "**/.env"), so the walk must not skip hidden entries.
func namesHidden(pattern string) bool {
	return strings.HasPrefix(pattern, ".") || strings.Contains(pattern, "/.") || strings.Contains(pattern, "{.") || strings.Contains(pattern, ",.")
}

// Content renders the output as the native profile shows it.
func (o *GlobOutput) Content() []tool.Content {
	if o.Total == 0 {
		return []tool.Content{tool.Text(fmt.Sprintf("no files match %q in %s", o.Pattern, o.Dir))}
	}
	text := strings.Join(o.Paths, "\n")
	if more := o.Total - len(o.Paths); more > 0 {
		text += fmt.Sprintf("\n\n(%d of %d matches shown, newest first; %d more not shown: narrow the pattern or the path)", len(o.Paths), o.Total, more)
	}
	return []tool.Content{tool.Text(text)}
}
