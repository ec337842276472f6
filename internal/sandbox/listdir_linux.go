package sandbox

import (
	"bytes"
	"encoding/binary"
	"io/fs"
	"sync"

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
		// struct linux_dirent64: d_ino at 0, d_reclen at 16, d_type at
		// 18, the name from 19.
		for b := buf[:n]; len(b) >= 19; {
			reclen := int(binary.NativeEndian.Uint16(b[16:18]))
			if reclen < 19 || reclen > len(b) {
				break
			}
			ino := binary.NativeEndian.Uint64(b[0:8])
			typ, name := b[18], b[19:reclen]
			if i := bytes.IndexByte(name, 0); i >= 0 {
				name = name[:i]
			}
			b = b[reclen:]
			if ino == 0 || len(name) == 0 || string(name) == "." || string(name) == ".." {
				continue
			}
			t, known := direntType(typ)
			if !known {
				var st unix.Stat_t
				err := unix.Fstatat(fd, string(name), &st, unix.AT_SYMLINK_NOFOLLOW)
				for err == unix.EINTR {
					err = unix.Fstatat(fd, string(name), &st, unix.AT_SYMLINK_NOFOLLOW)
				}
				if err == unix.ENOENT {
					continue
				}
				if err != nil {
					return nil, err
				}
				t = statType(st.Mode)
			}
			names = append(names, name...)
			spans = append(spans, span{len(names), t})
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

// direntType returns the type bits of a d_type, as os.File.ReadDir gives
// them; false for DT_UNKNOWN.
func direntType(t uint8) (fs.FileMode, bool) {
	switch t {
	case unix.DT_REG:
		return 0, true
	case unix.DT_DIR:
		return fs.ModeDir, true
	case unix.DT_LNK:
		return fs.ModeSymlink, true
	case unix.DT_FIFO:
		return fs.ModeNamedPipe, true
	case unix.DT_SOCK:
		return fs.ModeSocket, true
	case unix.DT_CHR:
		return fs.ModeDevice | fs.ModeCharDevice, true
	case unix.DT_BLK:
		return fs.ModeDevice, true
	}
	return 0, false
}

// statType returns the type bits of a st_mode, as os.Lstat gives them.
func statType(m uint32) fs.FileMode {
	switch m & unix.S_IFMT {
	case unix.S_IFDIR:
		return fs.ModeDir
	case unix.S_IFLNK:
		return fs.ModeSymlink
	case unix.S_IFIFO:
		return fs.ModeNamedPipe
	case unix.S_IFSOCK:
		return fs.ModeSocket
	case unix.S_IFCHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFBLK:
		return fs.ModeDevice
	}
	return 0
}
