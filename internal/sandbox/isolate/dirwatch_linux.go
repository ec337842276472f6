package isolate

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// The socket selection (sockets.go) lists /run and the temporary
// directories for every command; a shared /tmp holds hundreds of entries,
// and listing it was most of the selection's cost. dirWatch keeps each
// listing and reads the directory again only when inotify says its
// entries may have changed.
//
// Why a kept listing is never older than the directory as a finished
// command or any other process left it: the kernel queues an inotify
// event in the system call that creates, removes or renames an entry,
// before that call returns, so every change made before the queue is
// drained is in the queue when it is. A listing is marked fresh before
// the directory is read, and any change from then on (during the read
// too) queues an event that marks it stale at the next drain; readDir
// drains the queue every time, under the lock, before it answers. What it
// can miss is only a change made while it runs, after the drain, which a
// read of the directory at that moment would miss as well (the commands
// of a session start one at a time after this step, so none of them can
// be making it; another process could, just as before). If the queue
// overflows, every listing is stale. A listing is tied to the inode that
// was read (the path is stat-ed each time, a few microseconds): a
// directory moved away or replaced, or a path whose links now lead
// elsewhere, is read again. Where inotify cannot be had (its per-user
// limits reached), or cannot see every change (a directory on a network
// file system, changed from another host, or on /proc: localFS), each
// directory is read every time, as before.
//
// The selection also resolves tens of paths a command (/run, /var/run,
// the sockets the environment names, the directories under home, those
// /proc/net/unix lists), each a lstat per component. A resolution is kept
// on the same grounds: every directory the walk looked a name up in is
// watched before the lookup, and the resolution is kept only while none
// of them has had an event since (a name created, removed or renamed
// there, a link replaced), so it is what the walk would find now but for
// a change made while it runs.
//
// Modes are not watched (no IN_ATTRIB). Watching them on a directory
// makes the kernel mark every dentry it caches under it, negative ones
// included: on a long-lived /tmp, adding the watch took 27 ms, against
// 0.07 ms without it (2026-11-25), at every start of a server. A mode
// changes only whether a name can be looked up, not what it leads to, so
// what a resolution keeps does not depend on one, with one exception: a
// lookup refused (EACCES) may succeed once a mode changes, so such a
// failure is not kept. A success kept after a directory on the way
// became unsearchable names a path the spawner then cannot reach either
// (its mask step skips EACCES); a listing kept after its directory became
// unreadable lists what was there, and is masked the same way.
type dirWatch struct {
	mu   sync.Mutex
	fd   int // the inotify instance, or -1
	byWD map[int32]*watchedDir
	dirs map[string]*watchedDir // by path, for readDir
	res  map[string]*resolution // by the path resolved
	buf  []byte
}

// resolution is a kept resolution of a path: the real path, or that
// there is none, and the directories looked in with their generation
// then.
type resolution struct {
	real   string
	ok     bool
	looked []dirGen
}

type dirGen struct {
	d   *watchedDir
	gen uint64
}

// watchedDir is the kept listing of one directory.
type watchedDir struct {
	path     string
	wd       int32
	dev, ino uint64
	fresh    bool   // no event since the listing was read
	gen      uint64 // events so far
	entries  []os.DirEntry
	tmpSocks []string // tmpSockets of entries, if tmpDone
	tmpDone  bool
}

// watchMask is what changes the entries of a directory, or the directory
// itself; not its mode or theirs (IN_ATTRIB: see dirWatch).
const watchMask = unix.IN_CREATE | unix.IN_DELETE | unix.IN_MOVED_FROM | unix.IN_MOVED_TO |
	unix.IN_DELETE_SELF | unix.IN_MOVE_SELF | unix.IN_ONLYDIR | unix.IN_DONT_FOLLOW

// dirs is the process's one dirWatch: an inotify instance is a per-user
// resource (128 by default), and every Isolator reads the same
// directories.
var dirs = sync.OnceValue(func() *dirWatch {
	w := &dirWatch{fd: -1, byWD: map[int32]*watchedDir{}, dirs: map[string]*watchedDir{}, res: map[string]*resolution{}}
	if fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC); err == nil {
		w.fd = fd
		w.buf = make([]byte, 64*1024)
	}
	return w
})

// readDir lists d, unsorted, from the kept listing while it is fresh; nil
// if it cannot. The entries are shared: callers must not change them.
func readDir(d string) []os.DirEntry {
	l := lookups()
	defer l.done()
	return l.readDir(d)
}

// lookup is the view of one socket selection: the event queue is
// drained once, at its start (a change made while the selection runs
// can be missed, as by reading each directory once), and the lookups are
// made under the lock until done.
type lookup struct{ w *dirWatch }

func lookups() lookup {
	w := dirs()
	if w.fd >= 0 {
		w.mu.Lock()
		w.drain()
	}
	return lookup{w}
}

func (l lookup) done() {
	if l.w.fd >= 0 {
		l.w.mu.Unlock()
	}
}

func (l lookup) readDir(d string) []os.DirEntry {
	entries, _ := l.w.readDir(d)
	return entries
}

func (l lookup) resolve(p string) (string, bool) { return l.w.resolve(p) }

// tmpSockets lists the sockets and socket directories (isTmpSocketDir)
// a temporary directory holds, from its kept listing; what it says of a
// listing is kept with it.
func (l lookup) tmpSockets(tmp string) []string {
	entries, wd := l.w.readDir(tmp)
	if wd != nil && wd.tmpDone {
		return wd.tmpSocks
	}
	var out []string
	for _, e := range entries {
		if e.Type()&os.ModeSocket != 0 || e.IsDir() && isTmpSocketDir(e.Name()) {
			out = append(out, filepath.Join(tmp, e.Name()))
		}
	}
	if wd != nil {
		wd.tmpSocks, wd.tmpDone = out, true
	}
	return out
}

// readDir lists d, and returns the kept listing it comes from if it is
// fresh; under the lock.
func (w *dirWatch) readDir(d string) ([]os.DirEntry, *watchedDir) {
	if w.fd < 0 {
		entries, _ := readDirNow(d)
		return entries, nil
	}
	var st syscall.Stat_t
	if err := syscall.Stat(d, &st); err != nil {
		return nil, nil // as readDirNow: not there, or out of reach
	}
	wd := w.dirs[d]
	if wd != nil && (wd.dev != st.Dev || wd.ino != st.Ino) {
		w.forget(wd) // another directory there now
		wd = nil
	}
	if wd == nil {
		n, err := unix.InotifyAddWatch(w.fd, d, watchMask)
		if err == nil && !localFS(d) {
			unix.InotifyRmWatch(w.fd, uint32(n))
			err = syscall.EREMOTE
		}
		if err != nil {
			entries, _ := readDirNow(d) // no watch (limits, permissions, not local): read it each time
			return entries, nil
		}
		wd = w.byWD[int32(n)]
		if wd == nil || wd.path != d {
			if wd != nil {
				delete(w.dirs, wd.path) // the same inode by another path
			}
			wd = &watchedDir{path: d, wd: int32(n)}
			w.byWD[wd.wd] = wd
		}
		w.dirs[d] = wd
		wd.fresh = false
	}
	if !wd.fresh {
		// Fresh from before the read: a change during it marks it stale.
		wd.fresh = true
		wd.dev, wd.ino = st.Dev, st.Ino
		wd.tmpSocks, wd.tmpDone = nil, false
		var err error
		wd.entries, err = readDirNow(d)
		var now syscall.Stat_t
		if err != nil || syscall.Stat(d, &now) != nil || now.Dev != st.Dev || now.Ino != st.Ino {
			// Unreadable (a change of its mode queues no event watched
			// here), or replaced while it was read: read it again next
			// time.
			wd.fresh = false
			return wd.entries, nil
		}
	}
	return wd.entries, wd
}

// drain reads the queued events and marks stale the listings they are
// about; a watch that ended (its directory deleted or unmounted) is
// forgotten, and all listings are stale if events were lost.
func (w *dirWatch) drain() {
	for {
		n, err := syscall.Read(w.fd, w.buf)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil || n <= 0 {
			return // EAGAIN: nothing more queued
		}
		for b := w.buf[:n]; len(b) >= unix.SizeofInotifyEvent; {
			wd := int32(binary.NativeEndian.Uint32(b[0:]))
			mask := binary.NativeEndian.Uint32(b[4:])
			size := unix.SizeofInotifyEvent + int(binary.NativeEndian.Uint32(b[12:]))
			if size > len(b) {
				size = len(b)
			}
			b = b[size:]
			if mask&unix.IN_Q_OVERFLOW != 0 {
				for _, d := range w.byWD {
					d.fresh = false
					d.gen++
				}
				clear(w.res)
				continue
			}
			d := w.byWD[wd]
			if d == nil {
				continue
			}
			d.fresh = false
			d.gen++
			if mask&unix.IN_IGNORED != 0 {
				delete(w.byWD, wd)
				if w.dirs[d.path] == d {
					delete(w.dirs, d.path)
				}
			}
		}
	}
}

// resolved is filepath.EvalSymlinks(p) for the socket selection, and
// whether it succeeded, kept while nothing it looked at has changed.
func resolved(p string) (string, bool) {
	l := lookups()
	defer l.done()
	return l.resolve(p)
}

// maxLinks bounds the links a resolution follows, as the kernel's ELOOP.
const maxLinks = 40

func (w *dirWatch) resolve(p string) (string, bool) {
	if w.fd < 0 || !filepath.IsAbs(p) {
		r, err := filepath.EvalSymlinks(p)
		return r, err == nil
	}
	// Not cleaned first: "x/.." needs x to exist, as for the kernel.
	if r := w.res[p]; r != nil {
		if w.current(r.looked) {
			return r.real, r.ok
		}
		delete(w.res, p)
	}
	var looked []dirGen
	keep := true
	real, ok := "/", true
	rest := strings.Split(p[1:], "/")
	links := 0
	for len(rest) > 0 {
		c := rest[0]
		rest = rest[1:]
		switch c {
		case "", ".":
			continue
		case "..":
			real = filepath.Dir(real)
			continue
		}
		// Watched before the lookup: a change after it queues an event.
		if d := w.watch(real); d != nil {
			looked = append(looked, dirGen{d, d.gen})
		} else {
			keep = false
		}
		next := filepath.Join(real, c)
		var st syscall.Stat_t
		if err := syscall.Lstat(next, &st); err != nil {
			// A name missing, or not a directory, stays so until a
			// name changes; a refusal may end with a mode change,
			// which queues no event here (see dirWatch).
			keep = keep && (errors.Is(err, syscall.ENOENT) || errors.Is(err, syscall.ENOTDIR))
			ok = false
			break
		}
		if st.Mode&syscall.S_IFMT != syscall.S_IFLNK {
			real = next
			continue
		}
		if links++; links > maxLinks {
			ok = false
			break
		}
		target, err := os.Readlink(next)
		if err != nil {
			keep = false // replaced since the lstat
			ok = false
			break
		}
		if filepath.IsAbs(target) {
			real = "/"
		}
		rest = append(strings.Split(target, "/"), rest...)
	}
	if !ok {
		real = ""
	}
	if keep && len(w.res) < maxResolutions {
		w.res[p] = &resolution{real: real, ok: ok, looked: looked}
	}
	return real, ok
}

// maxResolutions bounds the resolutions kept (the paths /proc/net/unix
// lists come and go).
const maxResolutions = 4096

// current reports whether none of the directories looked in has had an
// event since.
func (w *dirWatch) current(looked []dirGen) bool {
	for _, l := range looked {
		if w.byWD[l.d.wd] != l.d || l.d.gen != l.gen {
			return false
		}
	}
	return true
}

// watch watches the directory at path d (resolved), or returns nil if it
// cannot. It asks the kernel every time: the path may name another
// directory than the one watched by it before (one above was renamed).
func (w *dirWatch) watch(d string) *watchedDir {
	if !localFS(d) {
		return nil
	}
	n, err := unix.InotifyAddWatch(w.fd, d, watchMask)
	if err != nil {
		return nil
	}
	wd := w.byWD[int32(n)]
	if wd == nil {
		wd = &watchedDir{path: d, wd: int32(n)}
		w.byWD[wd.wd] = wd
	}
	return wd
}

// localFiles are the file systems whose changes all go through this
// kernel, which reports them to inotify.
var localFiles = []int64{unix.EXT4_SUPER_MAGIC, unix.XFS_SUPER_MAGIC, unix.BTRFS_SUPER_MAGIC, unix.TMPFS_MAGIC,
	unix.OVERLAYFS_SUPER_MAGIC, unix.F2FS_SUPER_MAGIC, 0x2fc12fc1 /* zfs */, unix.BCACHEFS_SUPER_MAGIC}

// localFS reports whether d is on one of localFiles.
func localFS(d string) bool {
	var st unix.Statfs_t
	for {
		err := unix.Statfs(d, &st)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		return err == nil && slices.Contains(localFiles, int64(st.Type))
	}
}

// forget removes d's watch and listing.
func (w *dirWatch) forget(d *watchedDir) {
	unix.InotifyRmWatch(w.fd, uint32(d.wd))
	delete(w.byWD, d.wd)
	delete(w.dirs, d.path)
}

// readDirNow lists d unsorted (a shared /tmp holds hundreds of entries,
// and the masks are sorted at the end): what it could read, and why not
// all.
func readDirNow(d string) ([]os.DirEntry, error) {
	f, err := os.Open(d)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.ReadDir(-1)
}

// procUnix is /proc/net/unix, kept open.
var procUnix struct {
	mu   sync.Mutex
	path string
	f    *os.File
	buf  []byte
}

// readUnixSockets lists the sockets bound by a path in the table at path
// (/proc/net/unix). A table under /proc is kept open and read from its
// start each time (the kernel writes it anew for a read from offset 0),
// which saves an open and a close a command.
func readUnixSockets(path string) []string {
	if !strings.HasPrefix(path, "/proc/") {
		f, err := os.Open(path)
		if err != nil {
			return nil
		}
		defer f.Close()
		return parseUnixSockets(f)
	}
	procUnix.mu.Lock()
	defer procUnix.mu.Unlock()
	if procUnix.f == nil || procUnix.path != path {
		if procUnix.f != nil {
			procUnix.f.Close()
		}
		f, err := os.Open(path)
		if err != nil {
			procUnix.f = nil
			return nil
		}
		procUnix.f, procUnix.path = f, path
	}
	b := procUnix.buf[:0]
	for {
		if len(b) == cap(b) {
			b = slices.Grow(b, 64*1024)
		}
		n, err := procUnix.f.ReadAt(b[len(b):cap(b)], int64(len(b)))
		b = b[:len(b)+n]
		if err != nil || n == 0 {
			break // io.EOF: the whole table
		}
	}
	procUnix.buf = b
	return parseUnixSockets(bytes.NewReader(b))
}
