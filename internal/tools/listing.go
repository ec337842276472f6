package tools

import (
	"context"
	"fmt"
	"os"
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
	// Each directory is opened through its parent's handle and listed
	// once; whether it is a repository, and its .gitignore, are read from
	// that listing rather than looked up by path.
	var walk func(dir *sandbox.ListDir, entries []os.DirEntry, git *gitIgnores, prefix string, level int) error
	walk = func(dir *sandbox.ListDir, entries []os.DirEntry, git *gitIgnores, prefix string, level int) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		base := dir.Path().Abs
		if !strings.HasSuffix(base, "/") {
			base += "/" // an entry's name is one plain element: no Join needed
		}
		for _, e := range entries {
			if e.Name() == ".git" {
				continue
			}
			abs := base + e.Name()
			if st.FS.Denied(abs) || git.ignored(abs, e.IsDir()) {
				continue
			}
			if n >= maxListEntries {
				more++
				continue
			}
			n++
			b.WriteString(prefix)
			b.WriteString("- ")
			b.WriteString(e.Name())
			if e.IsDir() {
				b.WriteByte('/')
			}
			b.WriteByte('\n')
			if e.IsDir() && level < depth {
				if err := walkSub(st, dir, e.Name(), git, func(sub *sandbox.ListDir, entries []os.DirEntry, git *gitIgnores) error {
					return walk(sub, entries, git, prefix+"  ", level+1)
				}); err != nil {
					return err
				}
			}
		}
		return nil
	}
	top, err := st.FS.OpenListDir(p)
	if err != nil {
		return "", "", fsErr(err, "list", p.Abs)
	}
	defer top.Close()
	entries, err := top.ReadDir()
	if err != nil {
		return "", "", fsErr(err, "list", p.Abs)
	}
	if err := walk(top, entries, gitIgnoresFor(st, p, entries), "  ", 1); err != nil {
		return "", "", err
	}
	note := ""
	if more > 0 {
		note = fmt.Sprintf("(listing cut at %d entries; %d more not shown; read a subdirectory to see them)", maxListEntries, more)
	}
	return strings.TrimSuffix(b.String(), "\n"), note, nil
}

// walkSub opens the subdirectory name of dir, lists it and calls f with
// its entries and the .gitignore rules that apply in it. A subdirectory
// that cannot be opened (it went away, or was swapped for a link) is
// skipped, as a listing shows what it finds.
func walkSub(st *State, dir *sandbox.ListDir, name string, git *gitIgnores, f func(*sandbox.ListDir, []os.DirEntry, *gitIgnores) error) error {
	sub, err := dir.Sub(name)
	if err != nil {
		return nil
	}
	defer sub.Close()
	entries, err := sub.ReadDir()
	if err != nil {
		return fsErr(err, "list", sub.Path().Abs)
	}
	return f(sub, entries, git.childIn(st, sub, entries))
}
