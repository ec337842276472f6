package sandbox

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

func TestWriteFile(t *testing.T) {
	base := tempBase(t)
	mkTree(t, base,
		"root/exec.sh=old",
		"root/plain.txt=old",
		"root/link -> plain.txt",
		"root/link_other -> ../other/o.txt",
		"root/dangling -> made/by/write.txt",
		"root/adir/",
		"other/o.txt=old",
	)
	must(t, os.Chmod(filepath.Join(base, "root/exec.sh"), 0o755))
	s := newSet(t, []string{filepath.Join(base, "root"), filepath.Join(base, "other")}, nil)
	root := filepath.Join(base, "root")

	tests := []struct {
		name    string
		p       string
		created bool
		file    string      // where the content lands, relative to base
		mode    fs.FileMode // 0: not checked
		link    string      // a symlink that must still be one, relative to base
		kind    Kind        // for failures; -1 for success
	}{
		{"new file", "new.txt", true, "root/new.txt", 0, "", -1},
		{"new file in new dirs", "x/y/z.txt", true, "root/x/y/z.txt", 0, "", -1},
		{"keeps mode 0755", "exec.sh", false, "root/exec.sh", 0o755, "", -1},
		{"through symlink", "link", false, "root/plain.txt", 0o644, "root/link", -1},
		{"through symlink into other root", "link_other", false, "other/o.txt", 0, "root/link_other", -1},
		{"dangling symlink creates target", "dangling", true, "root/made/by/write.txt", 0, "root/dangling", -1},
		{"directory", "adir", false, "", 0, "", IsDir},
		{"root", ".", false, "", 0, "", IsDir},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := s.Resolve(root, tt.p)
			must(t, err)
			data := []byte("new content of " + tt.name)
			created, err := s.WriteFile(p, data, 0o644)
			noTemp(t, filepath.Dir(p.Abs))
			if tt.kind >= 0 {
				if k, ok := kindOf(err); !ok || k != tt.kind {
					t.Fatalf("WriteFile = %v, want an *Error of kind %v", err, tt.kind)
				}
				return
			}
			must(t, err)
			if created != tt.created {
				t.Errorf("created = %v, want %v", created, tt.created)
			}
			got, err := os.ReadFile(filepath.Join(base, tt.file))
			must(t, err)
			if !bytes.Equal(got, data) {
				t.Errorf("%s = %q, want %q", tt.file, got, data)
			}
			if tt.mode != 0 {
				fi, err := os.Stat(filepath.Join(base, tt.file))
				must(t, err)
				if fi.Mode().Perm() != tt.mode {
					t.Errorf("mode = %v, want %v", fi.Mode().Perm(), tt.mode)
				}
			}
			if tt.link != "" {
				fi, err := os.Lstat(filepath.Join(base, tt.link))
				must(t, err)
				if fi.Mode()&fs.ModeSymlink == 0 {
					t.Errorf("%s is no longer a symlink", tt.link)
				}
			}
		})
	}
}

// A failure after the temporary file is written (here: the rename, because
// the target became a directory) removes the temporary file.
func TestWriteFileFailureLeavesNoTemp(t *testing.T) {
	base := tempBase(t)
	mkTree(t, base, "root/f.txt=old")
	s := newSet(t, []string{filepath.Join(base, "root")}, nil)
	p, err := s.Resolve("", "f.txt")
	must(t, err)
	target := filepath.Join(base, "root/f.txt")
	s.beforeRename = func() {
		must(t, os.Remove(target))
		must(t, os.MkdirAll(filepath.Join(target, "child"), 0o755))
	}
	_, err = s.WriteFile(p, []byte("new"), 0o644)
	var e *Error
	if !errors.As(err, &e) || e.Op != "rename" {
		t.Fatalf("WriteFile = %v, want a rename error", err)
	}
	noTemp(t, filepath.Join(base, "root"))
	if got := names(t, filepath.Join(base, "root")); !slices.Equal(got, []string{"f.txt"}) {
		t.Errorf("root holds %v, want [f.txt]", got)
	}
}

func TestWriteFileKeepsOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("changing a file's owner needs root")
	}
	base := tempBase(t)
	mkTree(t, base, "root/f.txt=old")
	f := filepath.Join(base, "root/f.txt")
	must(t, os.Chown(f, 1234, 5678))
	s := newSet(t, []string{filepath.Join(base, "root")}, nil)
	p, err := s.Resolve("", "f.txt")
	must(t, err)
	_, err = s.WriteFile(p, []byte("new"), 0o644)
	must(t, err)
	fi, err := os.Stat(f)
	must(t, err)
	if uid, gid, _ := owner(fi); uid != 1234 || gid != 5678 {
		t.Errorf("owner = %d:%d, want 1234:5678", uid, gid)
	}
}

// Concurrent writes of the same file leave one complete content, never a mix.
func TestWriteFileConcurrent(t *testing.T) {
	base := tempBase(t)
	mkTree(t, base, "root/")
	s := newSet(t, []string{filepath.Join(base, "root")}, nil)
	p, err := s.Resolve("", "f.txt")
	must(t, err)
	const writers = 8
	contents := make([][]byte, writers)
	for i := range contents {
		contents[i] = bytes.Repeat([]byte(fmt.Sprint(i)), 1<<16)
	}
	var wg sync.WaitGroup
	for i := range writers {
		wg.Go(func() {
			for range 5 {
				if _, err := s.WriteFile(p, contents[i], 0o644); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	got, err := os.ReadFile(p.Abs)
	must(t, err)
	if !slices.ContainsFunc(contents, func(c []byte) bool { return bytes.Equal(c, got) }) {
		t.Errorf("content is a mix of writes (%d bytes, starts %q)", len(got), got[:min(8, len(got))])
	}
	noTemp(t, filepath.Join(base, "root"))
}

// A writer killed mid-way leaves nothing beside the target: the temporary
// file has no name until the instant before the rename, and that name is
// logged first, for RemoveLoggedTemps.
func TestWriteFileTempUnnamedAndLogged(t *testing.T) {
	base := tempBase(t)
	mkTree(t, base, "root/f.txt=old")
	s := newSet(t, []string{filepath.Join(base, "root")}, nil)
	log, err := os.Create(filepath.Join(base, "temps.log"))
	must(t, err)
	defer log.Close()
	s.SetTempLog(log)
	p, err := s.Resolve("", "f.txt")
	must(t, err)
	var during []string
	s.beforeRename = func() { during = names(t, filepath.Join(base, "root")) }
	_, err = s.WriteFile(p, []byte("new"), 0o644)
	must(t, err)
	if !slices.Equal(during, []string{"f.txt"}) {
		t.Errorf("while writing, the directory held %v: the temporary file had a name", during)
	}
	logged, _ := os.ReadFile(log.Name())
	line := strings.TrimSuffix(string(logged), "\n")
	if filepath.Dir(line) != filepath.Join(base, "root") || !strings.Contains(filepath.Base(line), ".f.txt.hands-") {
		t.Fatalf("log %q", logged)
	}
	// As if the writer died between the link and the rename.
	must(t, os.WriteFile(line, []byte("half"), 0o600))
	must(t, os.Symlink("f.txt", filepath.Join(base, "root", ".x.hands-1.tmp")))
	RemoveLoggedTemps([]byte(line + "\n" + filepath.Join(base, "root", ".x.hands-1.tmp") + "\n" + filepath.Join(base, "root", "f.txt") + "\n"))
	if got := names(t, filepath.Join(base, "root")); !slices.Equal(got, []string{".x.hands-1.tmp", "f.txt"}) {
		t.Errorf("after RemoveLoggedTemps: %v", got)
	}
}
