package sandbox

import (
	"os"
	"path/filepath"
	"sync"
)

// Grants are the files outside the roots that one session may read: the
// oversized results and background jobs' output the server saved for it,
// each in a Dir. A Set made by WithGrants resolves the exact path of a
// granted file (as the Dir was named, or as the kernel names it) to a
// Path that Open, OpenFile (to read), Stat and Lstat serve through the
// Dir's handle; every other operation refuses it (Kind Denied), and
// nothing else in those directories becomes reachable. The zero value is
// empty and ready; Grants are safe for concurrent use.
type Grants struct {
	mu    sync.Mutex
	files map[string]*grant
}

type grant struct {
	dir  *Dir
	name string
}

// Add grants reading the file name of d.
func (g *Grants) Add(d *Dir, name string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.files == nil {
		g.files = map[string]*grant{}
	}
	gr := &grant{dir: d, name: name}
	g.files[filepath.Join(d.path, name)] = gr
	g.files[filepath.Join(d.real, name)] = gr
}

// AddDir grants searching the directory d (Glob, Grep): a walk of it
// sees only its granted files, the other entries being denied. Grant
// only a directory that is the session's alone.
func (g *Grants) AddDir(d *Dir) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.files == nil {
		g.files = map[string]*grant{}
	}
	gr := &grant{dir: d, name: "."}
	g.files[d.path] = gr
	g.files[d.real] = gr
}

// Remove withdraws the grant of the file name of d.
func (g *Grants) Remove(d *Dir, name string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	delete(g.files, filepath.Join(d.path, name))
	delete(g.files, filepath.Join(d.real, name))
}

func (g *Grants) find(abs string) (*grant, bool) {
	if g == nil {
		return nil, false
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	gr, ok := g.files[abs]
	return gr, ok
}

// WithGrants returns a view of s that also lets the files of g be read.
// The view shares s's roots: Close s, not the view (whose Close does
// nothing).
func (s *Set) WithGrants(g *Grants) *Set {
	return &Set{roots: s.roots, deny: s.deny, beforeRename: s.beforeRename, log: s.log, grants: g, view: true}
}

// granted resolves a clean absolute path outside the roots that names a
// granted file.
func (s *Set) granted(req string) (Path, bool) {
	gr, ok := s.grants.find(req)
	if !ok {
		return Path{}, false
	}
	if _, ok := s.deniedBy(req); ok {
		return Path{}, false
	}
	return Path{Abs: req, Req: req, Root: -1, Rel: gr.name, Exists: true, grant: gr}, true
}

// hidden reports whether abs is an entry of a granted directory that is
// not granted itself.
func (g *Grants) hidden(abs string) bool {
	if g == nil {
		return false
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.files) == 0 {
		return false // no path to clean: a listing asks this of every entry
	}
	abs = filepath.Clean(abs)
	if _, ok := g.files[abs]; ok {
		return false
	}
	gr, ok := g.files[filepath.Dir(abs)]
	return ok && gr.name == "."
}

// openGrant opens a granted file to read it.
func openGrant(p Path) (*os.File, error) {
	if p.grant.name == "." {
		return nil, &Error{Kind: IsDir, Op: "open", Path: p.Abs, Reason: "is a directory"}
	}
	return p.grant.dir.Open(p.grant.name)
}

// statGrant describes a granted file or directory.
func statGrant(p Path) (os.FileInfo, error) {
	if p.grant.name == "." {
		return p.grant.dir.stat()
	}
	f, err := openGrant(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.Stat()
}

// refuseGrant is the error of an operation other than reading on a
// granted file.
func refuseGrant(op string, p Path) error {
	return denied(op, p.Abs, "is a file the server saved for this session: it can be read, not changed", nil)
}
