package tools

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/hands-dev/hands/internal/glob"
	"github.com/hands-dev/hands/tool"
)

//go:embed list.md
var listDescription string

// ListInput is the input of the list tool.
type ListInput struct {
	Path string `json:"path" jsonschema:"the directory to list: absolute, or relative to the working directory"`
	// Ignore are globs matched against entry names.
	Ignore []string `json:"ignore,omitempty" jsonschema:"glob patterns of entry names to leave out, such as *.log or node_modules"`
	// RespectGitIgnore, nil meaning true, leaves out what .gitignore files
	// ignore.
	RespectGitIgnore *bool `json:"respect_git_ignore,omitempty" jsonschema:"leave out entries that .gitignore files ignore (and .git itself); default true"`
	resolved
}

// ListEntry is one entry of a directory listing.
type ListEntry struct {
	Name string `json:"name"`
	// Dir reports a directory, or a symbolic link to one inside the roots.
	Dir bool `json:"dir,omitzero"`
	// Symlink reports a symbolic link.
	Symlink bool `json:"symlink,omitzero"`
	// Size is a file's size in bytes.
	Size int64 `json:"size,omitzero"`
}

// ListOutput is what the list tool returns.
type ListOutput struct {
	Path string `json:"path"`
	// Entries are sorted by name.
	Entries []ListEntry `json:"entries"`
	// Ignored counts the entries left out by the ignore globs and
	// .gitignore files; deny patterns hide entries without counting.
	Ignored int `json:"ignored,omitzero"`
	// GitIgnored counts those of them .gitignore files (and the rule that
	// hides .git) left out.
	GitIgnored int `json:"git_ignored,omitzero"`
	// More counts the entries not shown past the listing's bound.
	More int `json:"more,omitzero"`
}

// List returns the list tool (ls, LS or list_directory in later profiles;
// the native profile lists directories through read).
func List() tool.Tool {
	return tool.New(tool.Spec[ListInput]{
		Name:        "list",
		Title:       "List a directory",
		Description: listDescription,
		ReadOnly:    true,
		Idempotent:  true,
		Resolve: func(_ context.Context, env *tool.Env, in ListInput) (ListInput, error) {
			err := in.resolve(env, in.Path, false)
			return in, err
		},
		Validate: func(_ context.Context, _ *tool.Env, in ListInput) (ListInput, error) {
			_, err := compileIgnore(in.Ignore)
			return in, err
		},
	}, runList)
}

// compileIgnore compiles the ignore globs of a list call.
func compileIgnore(pats []string) ([]*glob.Glob, error) {
	var out []*glob.Glob
	for i, p := range pats {
		if strings.TrimSpace(p) == "" {
			return nil, toolErr(tool.InvalidInput, "%s is empty; give a glob such as *.log, or leave it out", param(fmt.Sprintf("ignore[%d]", i)))
		}
		g, err := glob.Compile(strings.TrimSuffix(p, "/"))
		if err != nil {
			var ge *glob.Error
			if errors.As(err, &ge) {
				return nil, toolErr(tool.InvalidInput, "%s %q is not a valid glob: %s at offset %d; fix the pattern", param(fmt.Sprintf("ignore[%d]", i)), p, ge.Msg, ge.Pos).With("pattern", p)
			}
			return nil, toolErr(tool.InvalidInput, "%s %q is not a valid glob: %v; fix the pattern", param(fmt.Sprintf("ignore[%d]", i)), p, err).With("pattern", p)
		}
		out = append(out, g)
	}
	return out, nil
}

func runList(ctx context.Context, env *tool.Env, in ListInput) (*ListOutput, error) {
	st := stateOf(env)
	p := in.at
	globs, err := compileIgnore(in.Ignore)
	if err != nil {
		return nil, err
	}
	fi, err := st.FS.Stat(p)
	if err != nil {
		return nil, fsErr(err, "stat", p.Abs)
	}
	if !fi.IsDir() {
		return nil, toolErr(tool.InvalidInput, "%s is a file, not a directory; read it to see its content, or list its directory %s", p.Abs, filepath.Dir(p.Abs)).With("path", p.Abs).With("kind", "file")
	}
	entries, err := st.FS.ReadDir(p)
	if err != nil {
		return nil, fsErr(err, "list", p.Abs)
	}
	respectGit := in.RespectGitIgnore == nil || *in.RespectGitIgnore
	var git *gitIgnores
	// inIgnored: the directory itself, or one above it, is ignored, and so
	// is everything in it, as in git.
	inIgnored := false
	if respectGit {
		git = gitIgnoresFor(st, p, entries)
		root := strings.TrimSuffix(st.FS.Roots()[p.Root], string(filepath.Separator))
		for d := p.Abs; d != root && strings.HasPrefix(d, root+string(filepath.Separator)); d = filepath.Dir(d) {
			if filepath.Base(d) == ".git" || git.ignored(d, true) {
				inIgnored = true
				break
			}
		}
	}
	out := &ListOutput{Path: p.Abs, Entries: []ListEntry{}}
	for _, e := range entries {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		abs := filepath.Join(p.Abs, e.Name())
		if st.FS.Denied(abs) {
			continue
		}
		le := ListEntry{Name: e.Name(), Dir: e.IsDir(), Symlink: e.Type()&fs.ModeSymlink != 0}
		if le.Symlink {
			le.Dir = symlinkToDir(st, abs)
		} else if info, err := e.Info(); err == nil && info.Mode().IsRegular() {
			le.Size = info.Size()
		}
		if matchAny(globs, e.Name()) {
			out.Ignored++
			continue
		}
		if respectGit && (inIgnored || e.Name() == ".git" || git.ignored(abs, le.Dir && !st.Behavior.ListGitIgnoreAsFiles)) {
			out.Ignored++
			out.GitIgnored++
			continue
		}
		if len(out.Entries) >= maxListEntries {
			out.More++
			continue
		}
		out.Entries = append(out.Entries, le)
	}
	return out, nil
}

// symlinkToDir reports whether the symlink abs leads to a directory inside
// the roots.
func symlinkToDir(st *State, abs string) bool {
	p, err := st.FS.Resolve("", abs)
	if err != nil || !p.Exists {
		return false
	}
	fi, err := st.FS.Stat(p)
	return err == nil && fi.IsDir()
}

func matchAny(globs []*glob.Glob, name string) bool {
	for _, g := range globs {
		if g.Match(name) {
			return true
		}
	}
	return false
}

// Content renders the output as a plain listing: the directory, then one
// entry a line, directories marked with a trailing slash.
func (o *ListOutput) Content() []tool.Content {
	var b strings.Builder
	b.WriteString(strings.TrimSuffix(o.Path, string(filepath.Separator)) + "/")
	if len(o.Entries) == 0 {
		b.WriteString(" is empty")
		if o.Ignored > 0 {
			b.WriteString(" once ignored entries are left out")
		}
	}
	for _, e := range o.Entries {
		b.WriteString("\n- " + e.Name)
		if e.Dir {
			b.WriteString("/")
		}
	}
	if o.More > 0 {
		fmt.Fprintf(&b, "\n\n(listing cut at %d entries; %d more not shown; use glob to find specific files)", maxListEntries, o.More)
	}
	if o.Ignored > 0 {
		if o.Ignored == 1 {
			b.WriteString("\n\n(1 ignored entry not shown)")
		} else {
			fmt.Fprintf(&b, "\n\n(%d ignored entries not shown)", o.Ignored)
		}
	}
	return []tool.Content{tool.Text(b.String())}
}
