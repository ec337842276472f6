package tools

import (
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/hands-dev/hands/internal/sandbox"
)

// maxListEntries bounds a directory listing.
const maxListEntries = 1000

// listTree renders the directory p depth levels deep, directories marked with
// a trailing slash, entries the deny patterns name or .gitignore files ignore
// left out.
func listTree(ctx context.Context, st *State, p sandbox.Path, depth int) (string, string, error) {
	var b strings.Builder
	b.WriteString(p.Abs + "/\n")
	n, more := 0, 0
	var walk func(dir sandbox.Path, git *gitIgnores, prefix string, level int) error
	walk = func(dir sandbox.Path, git *gitIgnores, prefix string, level int) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		entries, err := st.FS.ReadDirTypes(dir)
		if err != nil {
			return fsErr(err, "list", dir.Abs)
		}
		for _, e := range entries {
			if e.Name() == ".git" {
				continue
			}
			abs := path.Join(dir.Abs, e.Name())
			if st.FS.Denied(abs) || git.ignored(abs, e.IsDir()) {
				continue
			}
			if n >= maxListEntries {
				more++
				continue
			}
			n++
			name := e.Name()
			if e.IsDir() {
				name += "/"
			}
			fmt.Fprintf(&b, "%s- %s\n", prefix, name)
			if e.IsDir() && level < depth {
				child, err := st.FS.Resolve(dir.Abs, e.Name())
				if err != nil {
					continue
				}
				if err := walk(child, git.child(st, child.Abs), prefix+"  ", level+1); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := walk(p, gitIgnoresFor(st, p), "  ", 1); err != nil {
		return "", "", err
	}
	note := ""
	if more > 0 {
		note = fmt.Sprintf("(listing cut at %d entries; %d more not shown; read a subdirectory to see them)", maxListEntries, more)
	}
	return strings.TrimSuffix(b.String(), "\n"), note, nil
}
