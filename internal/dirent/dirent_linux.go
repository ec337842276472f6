package dirent

import (
	"bytes"
	"encoding/binary"
	"io/fs"

	"golang.org/x/sys/unix"
)

// Each calls f for each entry in buf, the bytes one getdents64 call read,
// with its inode number, type (a d_type: DT_UNKNOWN when the file system
// gives none) and name; "." and ".." are left out. The name is valid only
// during the call. A malformed record ends the walk through buf.
func Each(buf []byte, f func(ino uint64, typ uint8, name []byte)) {
	// d_ino at 0, d_reclen at 16, d_type at 18, the name from 19.
	for len(buf) >= 19 {
		reclen := int(binary.NativeEndian.Uint16(buf[16:18]))
		if reclen < 19 || reclen > len(buf) {
			return
		}
		ino := binary.NativeEndian.Uint64(buf[0:8])
		typ, name := buf[18], buf[19:reclen]
		if i := bytes.IndexByte(name, 0); i >= 0 {
			name = name[:i]
		}
		buf = buf[reclen:]
		if len(name) == 0 || string(name) == "." || string(name) == ".." {
			continue
		}
		f(ino, typ, name)
	}
}

// Type returns the type bits of a d_type, as os.File.ReadDir gives them;
// false for DT_UNKNOWN (the entry needs an lstat).
func Type(t uint8) (fs.FileMode, bool) {
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

// StatType returns the type bits of a st_mode, as os.Lstat gives them.
func StatType(m uint32) fs.FileMode {
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
