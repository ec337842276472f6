package dirent

import (
	"bytes"
	"encoding/binary"
	"os"
	"slices"
	"testing"

	"golang.org/x/sys/unix"
)

// record builds one linux_dirent64 record.
func record(ino uint64, typ uint8, name string, pad int) []byte {
	n := 19 + len(name) + 1 + pad
	b := make([]byte, n)
	binary.NativeEndian.PutUint64(b[0:8], ino)
	binary.NativeEndian.PutUint16(b[16:18], uint16(n))
	b[18] = typ
	copy(b[19:], name)
	return b
}

// TestEachReadsWhatGetdentsReads: the entries of a real directory, read
// with getdents64, are the names os.ReadDir lists, with its types.
func TestEachReadsWhatGetdentsReads(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"a", "b.txt", "sub"} {
		if n == "sub" {
			if err := os.Mkdir(dir+"/"+n, 0o700); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.WriteFile(dir+"/"+n, nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("a", dir+"/link"); err != nil {
		t.Fatal(err)
	}
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	got := map[string]os.FileMode{}
	buf := make([]byte, 4096)
	for {
		n, err := unix.Getdents(fd, buf)
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			break
		}
		Each(buf[:n], func(_ uint64, typ uint8, name []byte) {
			m, ok := Type(typ)
			if !ok {
				var st unix.Stat_t
				if err := unix.Fstatat(fd, string(name), &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
					t.Fatal(err)
				}
				m = StatType(st.Mode)
			}
			got[string(name)] = m
		})
	}
	want, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("read %v, os.ReadDir %v", got, want)
	}
	for _, e := range want {
		if m, ok := got[e.Name()]; !ok || m != e.Type() {
			t.Errorf("%s: read %v (%v), os.ReadDir %v", e.Name(), m, ok, e.Type())
		}
	}
}

// TestEachLeavesOut: ".", ".." and a record too short or too long for the
// buffer end or skip as they should; padding after the NUL is not name.
func TestEachLeavesOut(t *testing.T) {
	buf := slices.Concat(record(1, unix.DT_DIR, ".", 0), record(2, unix.DT_DIR, "..", 3), record(3, unix.DT_REG, "x", 5), record(0, unix.DT_REG, "gone", 0))
	var names []string
	var inos []uint64
	Each(buf, func(ino uint64, _ uint8, name []byte) { names, inos = append(names, string(name)), append(inos, ino) })
	if !slices.Equal(names, []string{"x", "gone"}) || !slices.Equal(inos, []uint64{3, 0}) {
		t.Errorf("names %q inodes %v, want [x gone] [3 0]", names, inos)
	}
	bad := record(4, unix.DT_REG, "y", 0)
	binary.NativeEndian.PutUint16(bad[16:18], 500) // longer than the buffer
	names = nil
	Each(slices.Concat(record(5, unix.DT_REG, "z", 0), bad), func(_ uint64, _ uint8, name []byte) { names = append(names, string(name)) })
	if !slices.Equal(names, []string{"z"}) {
		t.Errorf("with a record past the end: %q, want [z]", names)
	}
}

// FuzzEach: any bytes are walked without a panic, and every name given is
// non-empty, free of NUL, neither "." nor "..", and inside the buffer.
func FuzzEach(f *testing.F) {
	f.Add(slices.Concat(record(1, unix.DT_REG, "a", 0), record(2, unix.DT_DIR, "..", 2)))
	f.Add([]byte{})
	f.Add(make([]byte, 19))
	f.Fuzz(func(t *testing.T, buf []byte) {
		Each(buf, func(_ uint64, typ uint8, name []byte) {
			if len(name) == 0 || bytes.IndexByte(name, 0) >= 0 || string(name) == "." || string(name) == ".." {
				t.Fatalf("name %q", name)
			}
			if m, ok := Type(typ); !ok && m != 0 {
				t.Fatalf("Type(%d) = %v for an unknown type", typ, m)
			}
		})
	})
}
