package sandbox

import (
	"io/fs"
	"sync"

	"github.com/hands-dev/hands/internal/dirent"
	"golang.org/x/sys/unix"
)

// direntBufs holds the buffers ListDir reads directory entries into (the
// names are copied out).
var direntBufs = sync.Pool{New: func() any { b := make([]byte, 8<<10); return &b }}

// readEntries lists the directory open as fd, unsorted, with the types
// getdents reports; an lstat relative to fd only where it reports none.
// It leaves out what os.File.ReadDir leaves out: ".", "..", entries of
// inode 0 and ones gone before their lstat.
func readEntries(fd int) ([]listEntry, error) {
	bp := direntBufs.Get().(*[]byte)
	defer direntBufs.Put(bp)
	buf := *bp
	type span struct {
		end int
		typ fs.FileMode
	}
	var names []byte
	var spans []span
	for {
		n, err := unix.Getdents(fd, buf)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, err
		}
		if n <= 0 {
			break
		}
		var lerr error
		dirent.Each(buf[:n], func(ino uint64, typ uint8, name []byte) {
			if ino == 0 || lerr != nil {
				return
			}
			t, known := dirent.Type(typ)
			if !known {
				var st unix.Stat_t
				err := unix.Fstatat(fd, string(name), &st, unix.AT_SYMLINK_NOFOLLOW)
				for err == unix.EINTR {
					err = unix.Fstatat(fd, string(name), &st, unix.AT_SYMLINK_NOFOLLOW)
				}
				if err == unix.ENOENT {
					return
				}
				if err != nil {
					lerr = err
					return
				}
				t = dirent.StatType(st.Mode)
			}
			names = append(names, name...)
			spans = append(spans, span{len(names), t})
		})
		if lerr != nil {
			return nil, lerr
		}
	}
	all := string(names) // one allocation for every name
	ents := make([]listEntry, len(spans))
	start := 0
	for i, sp := range spans {
		ents[i] = listEntry{name: all[start:sp.end], typ: sp.typ}
		start = sp.end
	}
	return ents, nil
}
