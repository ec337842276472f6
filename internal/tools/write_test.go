package tools

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/hands-dev/hands/tool"
)

func TestWriteRefusesAFileChangedSinceItWasRead(t *testing.T) {
	f := newFixture(t)
	f.put("a.txt", []byte("one\n"), 0o644)
	f.read("a.txt")
	f.put("a.txt", []byte("one\ntwo\n"), 0o644) // another process writes
	res := f.fail(tool.FileChanged, "write", map[string]any{"path": "a.txt", "content": "mine\n"})
	if msg := res.TextOf(); !strings.Contains(msg, f.path("a.txt")) || !strings.Contains(msg, "read it again") {
		t.Errorf("message %q must name the file and say to read it again", msg)
	}
	if got := f.get("a.txt"); string(got) != "one\ntwo\n" {
		t.Errorf("file changed to %q", got)
	}
	f.read("a.txt")
	f.ok("write", map[string]any{"path": "a.txt", "content": "mine\n"})
	if got := f.get("a.txt"); string(got) != "mine\n" {
		t.Errorf("after a fresh read the write gave %q", got)
	}
}

func TestWriteRefusesSameSizeChangeByHash(t *testing.T) {
	f := newFixture(t)
	f.put("a.txt", []byte("aaaa\n"), 0o644)
	f.read("a.txt")
	fi, _ := os.Stat(f.path("a.txt"))
	f.put("a.txt", []byte("bbbb\n"), 0o644)
	// Same size and, as on a coarse-grained file system, the same time.
	if err := os.Chtimes(f.path("a.txt"), fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	f.fail(tool.FileChanged, "write", map[string]any{"path": "a.txt", "content": "x\n"})
}

func TestWriteAcceptsATouchedButUnchangedFile(t *testing.T) {
	f := newFixture(t)
	f.put("a.txt", []byte("same\n"), 0o644)
	f.read("a.txt")
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(f.path("a.txt"), later, later); err != nil {
		t.Fatal(err)
	}
	f.ok("write", map[string]any{"path": "a.txt", "content": "new\n"})
}

func TestWriteKeepsModeAndWritesThroughSymlinks(t *testing.T) {
	f := newFixture(t)
	f.put("run.sh", []byte("#!/bin/sh\necho old\n"), 0o750)
	if err := os.Symlink("run.sh", f.path("link.sh")); err != nil {
		t.Fatal(err)
	}
	f.read("link.sh")
	res := f.ok("write", map[string]any{"path": "link.sh", "content": "#!/bin/sh\necho new\n"})
	out := res.Structured.(*WriteOutput)
	if out.Action != "overwrote" || out.Path != f.path("run.sh") || out.Bytes != 19 {
		t.Errorf("output %+v", out)
	}
	fi, err := os.Lstat(f.path("link.sh"))
	if err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the symlink was replaced: %v %v", fi.Mode(), err)
	}
	fi, err = os.Stat(f.path("run.sh"))
	if err != nil || fi.Mode().Perm() != 0o750 {
		t.Errorf("mode %v, want 0750 (%v)", fi.Mode(), err)
	}
	if got := f.get("run.sh"); string(got) != "#!/bin/sh\necho new\n" {
		t.Errorf("content %q", got)
	}
	// The edit tool keeps the mode too.
	f.ok("edit", map[string]any{"path": "link.sh", "old_str": "new", "new_str": "newer"})
	if fi, _ := os.Stat(f.path("run.sh")); fi.Mode().Perm() != 0o750 {
		t.Errorf("after edit: mode %v", fi.Mode())
	}
}

func TestWriteLeavesNoTemporaryFiles(t *testing.T) {
	f := newFixture(t)
	f.ok("write", map[string]any{"path": "d/a.txt", "content": "1\n"})
	f.ok("write", map[string]any{"path": "d/a.txt", "content": "2\n"})
	f.ok("edit", map[string]any{"path": "d/a.txt", "old_str": "2", "new_str": "3"})
	entries, err := os.ReadDir(f.path("d"))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Name() != "a.txt" {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("directory holds %v, want only a.txt", names)
	}
}

func TestWriteRecordsWhatItWroteInTheLedger(t *testing.T) {
	f := newFixture(t)
	f.ok("write", map[string]any{"path": "a.txt", "content": "hello\n"})
	seen, ok := f.st.Ledger.Lookup(f.path("a.txt"))
	fi, _ := os.Stat(f.path("a.txt"))
	if !ok || seen.Partial || seen.Size != 6 || !seen.ModTime.Equal(fi.ModTime()) || !seen.Unchanged(fi, []byte("hello\n")) {
		t.Errorf("ledger entry %+v, %v", seen, ok)
	}
}

func TestWriteKeepsUTF16AndFallsBackFromLatin1(t *testing.T) {
	f := newFixture(t)
	// UTF-16LE with BOM and CRLF: "hi\r\n".
	f.put("u16.txt", []byte{0xFF, 0xFE, 'h', 0, 'i', 0, '\r', 0, '\n', 0}, 0o644)
	f.read("u16.txt")
	res := f.ok("write", map[string]any{"path": "u16.txt", "content": "é\n"})
	want := []byte{0xFF, 0xFE, 0xE9, 0, '\r', 0, '\n', 0}
	if got := f.get("u16.txt"); !bytes.Equal(got, want) {
		t.Errorf("UTF-16 file written as % x, want % x", got, want)
	}
	if enc := res.Structured.(*WriteOutput).Encoding; enc != "UTF-16LE with BOM, CRLF" {
		t.Errorf("encoding %q", enc)
	}

	f.put("l1.txt", []byte("caf\xe9\n"), 0o644)
	f.read("l1.txt")
	f.ok("write", map[string]any{"path": "l1.txt", "content": "thé\n"})
	if got := f.get("l1.txt"); string(got) != "th\xe9\n" {
		t.Errorf("Latin-1 file written as %q", got)
	}
	res = f.ok("write", map[string]any{"path": "l1.txt", "content": "→ arrow\n"})
	if got := f.get("l1.txt"); string(got) != "→ arrow\n" {
		t.Errorf("content Latin-1 cannot hold written as %q", got)
	}
	if out := res.Structured.(*WriteOutput); !strings.Contains(out.Note, "now UTF-8") {
		t.Errorf("note %q must say the encoding changed", out.Note)
	}
}

func TestWriteOverABinaryFileWritesTheContentAsGiven(t *testing.T) {
	f := newFixture(t)
	f.put("blob.bin", []byte{0, 1, 2, 3}, 0o644)
	f.fail(tool.FileNotViewed, "write", map[string]any{"path": "blob.bin", "content": "text\n"})
	// Reading it is refused, but the session has now seen it.
	f.fail(tool.BinaryFile, "read", map[string]any{"path": "blob.bin"})
	f.fail(tool.BinaryFile, "edit", map[string]any{"path": "blob.bin", "old_str": "\u0001", "new_str": "x"})
	if got := f.get("blob.bin"); !bytes.Equal(got, []byte{0, 1, 2, 3}) {
		t.Errorf("binary file changed to %q", got)
	}
	f.ok("write", map[string]any{"path": "blob.bin", "content": "text\n"})
	if got := f.get("blob.bin"); string(got) != "text\n" {
		t.Errorf("binary file overwritten with %q", got)
	}
}
