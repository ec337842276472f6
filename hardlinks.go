package hands

import (
	"context"
	"sync"

	"github.com/hands-dev/hands/internal/walk"
)

// HardLinks is what Runtime.HardLinks found.
type HardLinks struct {
	// Files counts the regular files with more than one hard link.
	Files int
	// Examples names a few of them.
	Examples []string
	// Scanned counts the entries looked at; Complete is false when the
	// scan stopped at its bound.
	Scanned  int
	Complete bool
}

// HardLinks scans the roots (hidden and ignored files included, .git
// left out) for regular files with more than one hard link, looking at
// up to max entries (0: no bound), for `hands doctor`.
//
// Hands keeps such files: tools read them like any other, though their
// content is also reachable by another name, possibly outside the roots;
// a write or edit replaces the file by rename, so it never changes what
// the other names hold. Refusing them would break pnpm's node_modules and
// the objects of a `git clone --local` (all hard links), so the choice is
// reported rather than enforced.
func (r *Runtime) HardLinks(ctx context.Context, max int) (HardLinks, error) {
	var mu sync.Mutex
	out := HardLinks{Complete: true}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	_, err := walk.Walk(ctx, r.fs.Roots(), walk.Options{Hidden: true, NoIgnore: true}, func(e walk.Entry) error {
		var info walk.Info
		var err error
		if e.IsRegular() {
			info, err = e.Stat()
		}
		mu.Lock()
		defer mu.Unlock()
		out.Scanned++
		if max > 0 && out.Scanned >= max {
			out.Complete = false
			cancel()
		}
		if err == nil && e.IsRegular() && info.Links > 1 {
			out.Files++
			if len(out.Examples) < 3 {
				out.Examples = append(out.Examples, e.Path)
			}
		}
		return nil
	})
	if err != nil && ctx.Err() != nil && !out.Complete {
		err = nil
	}
	return out, err
}
