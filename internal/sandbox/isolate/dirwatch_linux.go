package isolate

import (
	"encoding/binary"
	"errors"
	"os"
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
// limits reached), each directory is read every time, as before.
type dirWatch struct {
	mu   sync.Mutex
	fd   int // the inotify instance, or -1
	byWD map[int32]*watchedDir
	dirs map[string]*watchedDir // by path
	buf  []byte
}

// watchedDir is the kept listing of one directory.
type watchedDir struct {
	path     string
	wd       int32
	dev, ino uint64
	fresh    bool // no event since the listing was read
	entries  []os.DirEntry
}

// watchMask is what changes the entries of a directory, or the directory
// itself.
const watchMask = unix.IN_CREATE | unix.IN_DELETE | unix.IN_MOVED_FROM | unix.IN_MOVED_TO |
	unix.IN_DELETE_SELF | unix.IN_MOVE_SELF | unix.IN_ONLYDIR | unix.IN_DONT_FOLLOW

// dirs is the process's one dirWatch: an inotify instance is a per-user
// resource (128 by default), and every Isolator reads the same
// directories.
var dirs = sync.OnceValue(func() *dirWatch {
	w := &dirWatch{fd: -1, byWD: map[int32]*watchedDir{}, dirs: map[string]*watchedDir{}}
	if fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC); err == nil {
		w.fd = fd
		w.buf = make([]byte, 64*1024)
	}
	return w
})

// readDir lists d, unsorted, from the kept listing while it is fresh; nil
// if it cannot. The entries are shared: callers must not change them.
func readDir(d string) []os.DirEntry {
	return dirs().readDir(d)
}

func (w *dirWatch) readDir(d string) []os.DirEntry {
	if w.fd < 0 {
		entries, _ := readDirNow(d)
		return entries
	}
	var st syscall.Stat_t
	if err := syscall.Stat(d, &st); err != nil {
		return nil // as readDirNow: not there, or out of reach
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.drain()
	wd := w.dirs[d]
	if wd != nil && (wd.dev != st.Dev || wd.ino != st.Ino) {
		w.forget(wd) // another directory there now
		wd = nil
	}
	if wd == nil {
		n, err := unix.InotifyAddWatch(w.fd, d, watchMask)
		if err != nil {
			entries, _ := readDirNow(d) // no watch (limits, permissions): read it each time
			return entries
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
		var err error
		wd.entries, err = readDirNow(d)
		var now syscall.Stat_t
		if err != nil || syscall.Stat(d, &now) != nil || now.Dev != st.Dev || now.Ino != st.Ino {
			// Unreadable (a change of its mode queues no event watched
			// here), or replaced while it was read: read it again next
			// time.
			wd.fresh = false
		}
	}
	return wd.entries
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
				}
				continue
			}
			d := w.byWD[wd]
			if d == nil {
				continue
			}
			d.fresh = false
			if mask&unix.IN_IGNORED != 0 {
				delete(w.byWD, wd)
				if w.dirs[d.path] == d {
					delete(w.dirs, d.path)
				}
			}
		}
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
