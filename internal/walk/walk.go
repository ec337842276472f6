// Package walk lists the files below a set of roots in parallel, leaving
// out what ripgrep leaves out by default: entries matched by ignore files
// (package ignore), hidden entries, and .git directories.
//
// Walk promises: every entry is reported at most once; the callback runs
// concurrently on several goroutines and in no particular order (callers
// sort); entry types come from the directory listing, with no stat per
// entry; symbolic links to directories are not followed unless
// Options.Follow allows their target; the walk stops early when the context
// is cancelled or the callback returns an error.
//
// On Linux, everything below a root is opened relative to its parent
// directory's descriptor with O_NOFOLLOW (Entry.Open, Entry.Stat), so a
// directory or file swapped for a symbolic link while the walk runs is
// neither entered nor opened: the walk never leaves the trees it was given
// except through links Follow allows, and Options.Confine checks where each
// root really is when it is opened.
package walk

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/hands-dev/hands/internal/ignore"
)

// Entry is one file, directory or other entry found by Walk.
type Entry struct {
	// Path is the entry's absolute path: its root joined with the names
	// below it (symbolic links are not resolved).
	Path string
	// Root is the root the entry was found under, made absolute.
	Root string
	// Type holds the type bits of the entry's mode (fs.ModeDir,
	// fs.ModeSymlink, 0 for a regular file, ...). A followed symbolic
	// link has the type of its target.
	Type fs.FileMode
	// Depth is 0 for a root, 1 for its entries, and so on.
	Depth int
	// Symlink reports whether the entry is a followed symbolic link.
	Symlink bool

	dir     *dirRef                // the open directory listing the entry; nil for a root or a followed link
	target  string                 // a followed link's resolved target
	confine func(real string) bool // Options.Confine, for a root opened by path
}

// name returns the entry's name in the directory that lists it.
func (e Entry) name() string { return e.Path[strings.LastIndexByte(e.Path, filepath.Separator)+1:] }

// IsDir reports whether the entry is a directory.
func (e Entry) IsDir() bool { return e.Type.IsDir() }

// IsRegular reports whether the entry is a regular file.
func (e Entry) IsRegular() bool { return e.Type&fs.ModeType == 0 }

// Rel returns the entry's slash-separated path relative to its root, or
// "." for a root.
func (e Entry) Rel() string {
	if len(e.Path) <= len(e.Root) {
		return "."
	}
	r := e.Path[len(e.Root):]
	if len(r) > 0 && r[0] == filepath.Separator {
		r = r[1:]
	}
	return filepath.ToSlash(r)
}

// Options tunes Walk. The zero value walks like ripgrep with no flags.
type Options struct {
	// Hidden includes hidden entries (names starting with '.'); .git is
	// skipped regardless.
	Hidden bool
	// NoIgnore disables every ignore file (ripgrep's --no-ignore).
	NoIgnore bool
	// Ignore selects the ignore files in finer detail.
	Ignore ignore.Config
	// Overrides are glob filters that rank above ignore files.
	Overrides *ignore.Overrides
	// Types filters files by type after the ignore files.
	Types *ignore.Types
	// Follow, when set, is asked about each symbolic link met below a
	// root with the absolute path of its target (all links resolved); the
	// link is followed when it returns true. A nil Follow follows none.
	// Roots are always resolved.
	Follow func(target string) bool
	// Confine, when set, is asked about the real path (every link
	// resolved) of each root as it is opened, and of a root that is a
	// file; a root it refuses is not walked (a file root is not opened).
	// Below the roots no link is followed but by Follow, so a caller that
	// confines the roots and Follow's targets confines the walk.
	Confine func(real string) bool
	// Skip, when set, leaves out an entry (and for a directory, all below
	// it) when it returns true. It runs after the other filters.
	Skip func(path string, isDir bool) bool
	// MaxDepth limits the depth of the entries reported; 0 means none.
	MaxDepth int
	// Workers is the number of goroutines; 0 means GOMAXPROCS.
	Workers int
}

// Stats counts what a walk saw.
type Stats struct {
	Dirs    int64 // directories read
	Files   int64 // entries reported that are not directories
	Ignored int64 // entries left out by ignore files
	Hidden  int64 // hidden entries left out
	Filter  int64 // entries left out by overrides, types or Skip
}

// Func is called for each entry. Returning SkipDir for a directory skips
// its contents (for a file it is ignored); SkipAll ends the walk without error; any other error ends
// the walk and is returned by Walk. Func is called concurrently.
type Func func(Entry) error

// SkipDir and SkipAll have the meaning they have in io/fs.
var (
	SkipDir = fs.SkipDir
	SkipAll = fs.SkipAll
)

// job is a directory to read, or a batch of entries to report. A job
// holds one reference to the dirRef it uses.
type job struct {
	dir    string
	root   string
	node   *ignore.Node
	depth  int
	d      *dirRef // the directory, already open; or
	parent *dirRef // the directory that lists it, to open it from
	batch  []Entry // when set, the job reports these entries, listed by d
}

// release drops the job's reference.
func (j job) release() {
	switch {
	case j.d != nil:
		j.d.release()
	case j.parent != nil:
		j.parent.release()
	}
}

// batchSize is the number of files of a directory reported as one job:
// the files of a large directory are spread over the workers.
const batchSize = 16

type walker struct {
	ctx  context.Context
	opts Options
	fn   Func

	mu      sync.Mutex
	cond    *sync.Cond
	stack   []job
	pending int // jobs pushed and not finished
	stop    atomic.Bool
	err     error

	visited sync.Map // real paths of followed directories

	stats Stats
}

// Walk walks the roots, which it makes absolute. A root that is a file is reported as is, with no
// filter applied (as ripgrep searches a file it is given); a root that is
// a directory is not reported itself. A root that does not exist is an
// error; errors below the roots (unreadable directories) are skipped.
func Walk(ctx context.Context, roots []string, opts Options, fn Func) (Stats, error) {
	w := &walker{ctx: ctx, opts: opts, fn: fn}
	w.cond = sync.NewCond(&w.mu)
	if opts.NoIgnore {
		w.opts.Ignore.NoIgnoreFiles = true
		w.opts.Ignore.NoVCS = true
	}
	stopWatch := context.AfterFunc(ctx, func() {
		w.stop.Store(true)
		w.mu.Lock()
		w.cond.Broadcast()
		w.mu.Unlock()
	})
	defer stopWatch()

	defer func() {
		// Jobs left when the walk stopped early still hold directories.
		for _, j := range w.stack {
			j.release()
		}
		w.stack = nil
	}()
	for _, root := range roots {
		root, err := filepath.Abs(root)
		if err != nil {
			return w.stats, err
		}
		fi, err := os.Stat(root)
		if err != nil {
			return w.stats, err
		}
		if !fi.IsDir() {
			if err := w.emit(Entry{Path: root, Root: root, Type: fi.Mode().Type(), confine: opts.Confine}); err != nil {
				return w.stats, nilIfSkip(err)
			}
			continue
		}
		d, real, err := openRootDir(root)
		if err != nil {
			return w.stats, err
		}
		if opts.Confine != nil && !opts.Confine(real) {
			d.release()
			continue
		}
		node := ignore.NewRoot(root, w.opts.Ignore)
		w.visited.Store(real, true)
		w.push([]job{{dir: root, root: root, node: node, depth: 0, d: d}})
	}
	if w.pending == 0 {
		return w.stats, w.result()
	}
	n := opts.Workers
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	var wg sync.WaitGroup
	for range n {
		wg.Go(w.work)
	}
	wg.Wait()
	return w.stats, w.result()
}

func (w *walker) result() error {
	if w.err != nil {
		return nilIfSkip(w.err)
	}
	return w.ctx.Err()
}

func nilIfSkip(err error) error {
	if errors.Is(err, SkipAll) || errors.Is(err, SkipDir) {
		return nil
	}
	return err
}

func (w *walker) emit(e Entry) error {
	if e.IsDir() {
		return w.fn(e)
	}
	atomic.AddInt64(&w.stats.Files, 1)
	return w.fn(e)
}

// fail records the first error and wakes every worker so that they stop.
func (w *walker) fail(err error) {
	w.mu.Lock()
	if w.err == nil {
		w.err = err
	}
	w.stop.Store(true)
	w.cond.Broadcast()
	w.mu.Unlock()
}

func (w *walker) push(jobs []job) {
	if len(jobs) == 0 {
		return
	}
	w.mu.Lock()
	w.stack = append(w.stack, jobs...)
	w.pending += len(jobs)
	if len(jobs) == 1 {
		w.cond.Signal()
	} else {
		w.cond.Broadcast()
	}
	w.mu.Unlock()
}

func (w *walker) work() {
	var subdirs []job
	bp := direntBufs.Get().(*[]byte)
	defer direntBufs.Put(bp)
	buf := *bp
	for {
		w.mu.Lock()
		for len(w.stack) == 0 && w.pending > 0 && !w.stop.Load() {
			w.cond.Wait()
		}
		if w.stop.Load() || len(w.stack) == 0 {
			w.mu.Unlock()
			return
		}
		j := w.stack[len(w.stack)-1]
		w.stack = w.stack[:len(w.stack)-1]
		w.mu.Unlock()

		if j.batch != nil {
			subdirs = subdirs[:0]
			for _, e := range j.batch {
				if w.stop.Load() {
					break
				}
				if err := w.emit(e); err != nil && err != SkipDir {
					w.fail(err)
					break
				}
			}
			j.release()
		} else {
			subdirs = w.readDir(j, subdirs[:0], buf)
		}

		w.mu.Lock()
		w.stack = append(w.stack, subdirs...)
		w.pending += len(subdirs) - 1
		if w.pending == 0 || len(subdirs) > 1 {
			w.cond.Broadcast()
		} else if len(subdirs) == 1 {
			w.cond.Signal()
		}
		w.mu.Unlock()
	}
}

// direntBufs holds the buffers workers read directory entries into (the
// names are copied out): a walk of a small tree, as a glob of one
// package is, would otherwise allocate 32 KiB per worker for a few
// directories.
var direntBufs = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

// readDir reports the entries of one directory and returns its
// subdirectories to walk, appended to out.
func (w *walker) readDir(j job, out []job, buf []byte) []job {
	d := j.d
	if d == nil {
		var err error
		d, err = j.parent.openDir(filepath.Base(j.dir))
		j.parent.release()
		if err != nil {
			return out // gone, unreadable, or swapped for a link
		}
	}
	defer d.release()
	ents, _ := d.readDir(buf)
	atomic.AddInt64(&w.stats.Dirs, 1)

	node := j.node
	if j.depth > 0 {
		var files ignore.Files
		for _, e := range ents {
			files |= ignore.FileFlag(e.name)
		}
		if files != 0 {
			node = node.Child(j.dir, files)
		}
	}
	useRules := !node.Empty()
	depth := j.depth + 1
	prefix := j.dir + string(filepath.Separator)
	if strings.HasSuffix(j.dir, string(filepath.Separator)) {
		prefix = j.dir
	}
	var ignored, hidden, filtered int64
	batch := make([]Entry, 0, batchSize)
	flush := func() {
		d.acquire()
		out = append(out, job{batch: batch, d: d})
	}
	defer func() {
		atomic.AddInt64(&w.stats.Ignored, ignored)
		atomic.AddInt64(&w.stats.Hidden, hidden)
		atomic.AddInt64(&w.stats.Filter, filtered)
	}()
	for _, e := range ents {
		if w.stop.Load() {
			return out
		}
		name := e.name
		typ := e.typ
		if name == ignore.GitDirName {
			continue
		}
		path := prefix + name
		isDir := typ.IsDir()
		symlink := false
		var target string
		if typ&fs.ModeSymlink != 0 && w.opts.Follow != nil {
			t, real, ok := w.follow(path)
			if !ok {
				continue
			}
			typ, isDir, symlink, target = t, t.IsDir(), true, real
		}

		// The precedence of ripgrep's ignore crate: overrides, ignore
		// files, types, then hidden.
		whitelisted := false
		if w.opts.Overrides != nil {
			switch w.opts.Overrides.Match(filepath.ToSlash(path[len(j.root)+1:]), isDir) {
			case ignore.Ignore:
				filtered++
				continue
			case ignore.Include:
				whitelisted = true
			}
		}
		if !whitelisted {
			if useRules {
				switch node.Match(path, isDir) {
				case ignore.Ignore:
					ignored++
					continue
				case ignore.Include:
					whitelisted = true
				}
			}
			if w.opts.Types != nil {
				switch w.opts.Types.Match(name, isDir) {
				case ignore.Ignore:
					filtered++
					continue
				case ignore.Include:
					whitelisted = true
				}
			}
			if !whitelisted && !w.opts.Hidden && name[0] == '.' {
				hidden++
				continue
			}
		}
		if w.opts.Skip != nil && w.opts.Skip(path, isDir) {
			filtered++
			continue
		}
		if w.opts.MaxDepth > 0 && depth > w.opts.MaxDepth {
			continue
		}
		ent := Entry{Path: path, Root: j.root, Type: typ, Depth: depth, Symlink: symlink, dir: d, target: target}
		if symlink {
			ent.dir = nil
		}
		if !isDir {
			batch = append(batch, ent)
			if len(batch) == batchSize {
				flush()
				batch = make([]Entry, 0, batchSize)
			}
			continue
		}
		if err := w.emit(ent); err != nil {
			if err == SkipDir && isDir {
				continue
			}
			w.fail(err)
			return out
		}
		if w.opts.MaxDepth == 0 || depth < w.opts.MaxDepth {
			sub := job{dir: path, root: j.root, node: node, depth: depth}
			if symlink {
				sd, real, err := openRootDir(target)
				if err != nil {
					continue
				}
				if real != target { // the target moved since it was checked
					sd.release()
					continue
				}
				sub.d = sd
			} else {
				d.acquire()
				sub.parent = d
			}
			out = append(out, sub)
		}
	}
	if len(batch) > 0 {
		flush()
	}
	return out
}

// follow resolves a symbolic link and asks Options.Follow; it returns the
// target's type and path. A directory already visited (a loop) is not
// followed.
func (w *walker) follow(path string) (fs.FileMode, string, bool) {
	real, err := filepath.EvalSymlinks(path)
	if err != nil || !w.opts.Follow(real) {
		return 0, "", false
	}
	fi, err := os.Lstat(real)
	if err != nil {
		return 0, "", false
	}
	if fi.IsDir() {
		if _, loaded := w.visited.LoadOrStore(real, true); loaded {
			return 0, "", false
		}
	}
	return fi.Mode().Type(), real, true
}
