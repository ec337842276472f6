package ignore

import (
	"time"

	"golang.org/x/sys/unix"
)

// stamp identifies a file as it is: its device and inode, size, and
// modification and change times. A directory's times change when an entry
// is created, removed or renamed in it; a file's change times when it is
// written, replaced (a new inode) or its times are set. An absent file has
// the zero stamp.
type stamp struct {
	dev, ino, size uint64
	mtime, ctime   int64
}

// stampOf returns path's stamp (following a link: a config file may be
// one) and whether it can be trusted: the file is absent, or its last
// change is older than racyWindow.
func stampOf(path string) (stamp, bool) {
	var st unix.Stat_t
	for {
		err := unix.Stat(path, &st)
		if err == unix.EINTR {
			continue
		}
		if err == unix.ENOENT || err == unix.ENOTDIR {
			return stamp{}, true
		}
		if err != nil {
			return stamp{}, false
		}
		break
	}
	s := stamp{dev: uint64(st.Dev), ino: st.Ino, size: uint64(st.Size), mtime: st.Mtim.Nano(), ctime: st.Ctim.Nano()}
	last := max(s.mtime, s.ctime)
	return s, time.Now().UnixNano()-last > int64(racyWindow)
}
