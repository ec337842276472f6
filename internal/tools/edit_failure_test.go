package tools

import (
	"crypto/sha256"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hands-dev/hands/tool"
)

// entry is what a snapshot records of one file.
type entry struct {
	mode    fs.FileMode
	size    int64
	modTime time.Time
	hash    [32]byte
	link    string
}

// snapshot records every file under root: mode, size, time, content and
// symlink target.
func snapshot(t *testing.T, root string) map[string]entry {
	t.Helper()
	snap := map[string]entry{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		e := entry{mode: fi.Mode(), size: fi.Size(), modTime: fi.ModTime()}
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			e.link, err = os.Readlink(p)
		case fi.Mode().IsRegular():
			var b []byte
			b, err = os.ReadFile(p)
			e.hash = sha256.Sum256(b)
		case fi.IsDir():
			e.modTime = time.Time{} // reading a directory's entries is fine
		}
		snap[p] = e
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

// TestFailingCallsChangeNothingOnDisk runs every file tool with bad input
// of every kind and checks that each call fails with a coded error (never
// an internal one), that its message starts with the code, and that the
// workspace is byte for byte, mode for mode, as it was.
func TestFailingCallsChangeNothingOnDisk(t *testing.T) {
	f := newFixture(t, ".env", "secrets/**")
	f.put("a.txt", []byte("alpha\nbeta\nalpha\n"), 0o640)
	f.put("win.txt", []byte("one\r\ntwo\r\n"), 0o644)
	f.put("l1.txt", []byte("caf\xe9\n"), 0o644)
	f.put("blob.bin", []byte{0, 1, 2, 0xff}, 0o644)
	f.put("unread.txt", []byte("never read\n"), 0o644)
	f.put("changed.txt", []byte("v1\n"), 0o644)
	f.put(".env", []byte("SECRET=1\n"), 0o600)
	f.put("secrets/key", []byte("k\n"), 0o600)
	f.put("dir/inner.txt", []byte("inner\n"), 0o644)
	f.put("nb.ipynb", []byte(`{"cells":[{"cell_type":"code","id":"c1","metadata":{},"outputs":[],"source":["x"],"execution_count":null}],"metadata":{},"nbformat":4,"nbformat_minor":5}`), 0o644)
	f.put("huge.txt", []byte(strings.Repeat("x\n", 100)), 0o644)
	if err := os.Symlink("/etc/passwd", f.path("out-link")); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"a.txt", "win.txt", "l1.txt", "changed.txt", "nb.ipynb", "huge.txt"} {
		f.read(name)
	}
	f.fail(tool.BinaryFile, "read", map[string]any{"path": "blob.bin"})
	f.put("changed.txt", []byte("v2 from elsewhere\n"), 0o644)

	big := strings.Repeat("x", int(DefaultLimits().MaxFileSize)+1)
	outside := "/etc/hands-should-not-exist.txt"
	type call struct {
		name, tool string
		in         any
		code       tool.Code
	}
	calls := []call{
		// Arguments that do not decode.
		{"write no args", "write", `{}`, tool.InvalidInput},
		{"write not an object", "write", `["a.txt"]`, tool.InvalidInput},
		{"write not JSON", "write", `{"path": `, tool.InvalidInput},
		{"write mistyped content", "write", `{"path":"a.txt","content":{"x":1}}`, tool.InvalidInput},
		{"write null path", "write", `{"path":null,"content":"x"}`, tool.InvalidInput},
		{"edit mistyped replace_all", "edit", `{"path":"a.txt","old_str":"beta","new_str":"x","replace_all":1}`, tool.InvalidInput},
		{"edit missing new_str", "edit", `{"path":"a.txt","old_str":"beta"}`, tool.InvalidInput},
		{"multi_edit edits object", "multi_edit", `{"path":"a.txt","edits":{"old_str":"beta","new_str":"x"}}`, tool.InvalidInput},
		{"multi_edit item mistyped", "multi_edit", `{"path":"a.txt","edits":[{"old_str":"beta","new_str":2}]}`, tool.InvalidInput},
		{"notebook mistyped index", "notebook_edit", `{"path":"nb.ipynb","cell_index":"0","new_source":"y"}`, tool.InvalidInput},
		{"list mistyped ignore", "list", `{"path":".","ignore":[1]}`, tool.InvalidInput},
		{"read mistyped offset", "read", `{"path":"a.txt","offset":"1"}`, tool.InvalidInput},

		// Paths.
		{"write empty path", "write", map[string]any{"path": "", "content": "x"}, tool.InvalidInput},
		{"write blank path", "write", map[string]any{"path": "   ", "content": "x"}, tool.InvalidInput},
		{"write absolute outside", "write", map[string]any{"path": outside, "content": "x"}, tool.AccessDenied},
		{"write relative outside", "write", map[string]any{"path": "../../../../../../../../../../etc/hands-x.txt", "content": "x"}, tool.AccessDenied},
		{"write through escaping link", "write", map[string]any{"path": "out-link", "content": "x"}, tool.AccessDenied},
		{"write denied", "write", map[string]any{"path": ".env", "content": "x"}, tool.AccessDenied},
		{"write denied dir", "write", map[string]any{"path": "secrets/new", "content": "x"}, tool.AccessDenied},
		{"write a directory", "write", map[string]any{"path": "dir", "content": "x"}, tool.InvalidInput},
		{"write a root", "write", map[string]any{"path": f.root, "content": "x"}, tool.InvalidInput},
		{"write under a file", "write", map[string]any{"path": "a.txt/b.txt", "content": "x"}, tool.InvalidInput},
		{"write trailing slash", "write", map[string]any{"path": "newdir/", "content": "x"}, tool.InvalidInput},
		{"write tilde", "write", map[string]any{"path": "~/x", "content": "x"}, tool.InvalidInput},
		{"write NUL", "write", map[string]any{"path": "a\x00b", "content": "x"}, tool.InvalidInput},
		{"edit outside", "edit", map[string]any{"path": "/etc/passwd", "old_str": "root", "new_str": "x"}, tool.AccessDenied},
		{"edit denied", "edit", map[string]any{"path": ".env", "old_str": "1", "new_str": "2"}, tool.AccessDenied},
		{"edit missing file", "edit", map[string]any{"path": "nope.txt", "old_str": "a", "new_str": "b"}, tool.PathNotFound},
		{"edit a directory", "edit", map[string]any{"path": "dir", "old_str": "a", "new_str": "b"}, tool.InvalidInput},
		{"multi_edit a directory", "multi_edit", map[string]any{"path": "dir", "edits": []any{map[string]any{"old_str": "a", "new_str": "b"}}}, tool.InvalidInput},
		{"notebook a directory", "notebook_edit", map[string]any{"path": "dir", "cell_index": 0, "new_source": "y"}, tool.InvalidInput},
		{"list a file", "list", map[string]any{"path": "a.txt"}, tool.InvalidInput},
		{"list outside", "list", map[string]any{"path": "/etc"}, tool.AccessDenied},
		{"list denied", "list", map[string]any{"path": "secrets"}, tool.AccessDenied},
		{"list missing", "list", map[string]any{"path": "nope"}, tool.PathNotFound},
		{"read outside", "read", map[string]any{"path": "/etc/passwd"}, tool.AccessDenied},

		// Read before write.
		{"write unread", "write", map[string]any{"path": "unread.txt", "content": "x"}, tool.FileNotViewed},
		{"write changed", "write", map[string]any{"path": "changed.txt", "content": "x"}, tool.FileChanged},
		{"edit unread", "edit", map[string]any{"path": "unread.txt", "old_str": "never", "new_str": "x"}, tool.FileNotViewed},
		{"edit changed", "edit", map[string]any{"path": "changed.txt", "old_str": "v2", "new_str": "x"}, tool.FileChanged},
		{"multi_edit unread", "multi_edit", map[string]any{"path": "unread.txt", "edits": []any{map[string]any{"old_str": "never", "new_str": "x"}}}, tool.FileNotViewed},

		// Content.
		{"write enormous", "write", map[string]any{"path": "new.txt", "content": big}, tool.FileTooLarge},
		{"write enormous over existing", "write", map[string]any{"path": "a.txt", "content": big}, tool.FileTooLarge},
		{"edit enormous", "edit", map[string]any{"path": "a.txt", "old_str": "beta", "new_str": big}, tool.FileTooLarge},
		{"edit binary", "edit", map[string]any{"path": "blob.bin", "old_str": "\x01", "new_str": "x"}, tool.BinaryFile},
		{"edit not in encoding", "edit", map[string]any{"path": "l1.txt", "old_str": "café", "new_str": "日本"}, tool.InvalidInput},
		{"edit not found", "edit", map[string]any{"path": "a.txt", "old_str": "gamma", "new_str": "x"}, tool.StrReplaceNotFound},
		{"edit ambiguous", "edit", map[string]any{"path": "a.txt", "old_str": "alpha", "new_str": "x"}, tool.StrReplaceAmbiguous},
		{"edit wrong count", "edit", map[string]any{"path": "a.txt", "old_str": "alpha", "new_str": "x", "expected_replacements": 3}, tool.StrReplaceAmbiguous},
		{"edit identical", "edit", map[string]any{"path": "a.txt", "old_str": "beta", "new_str": "beta"}, tool.InvalidInput},
		{"edit empty old", "edit", map[string]any{"path": "a.txt", "old_str": "", "new_str": "x"}, tool.InvalidInput},
		{"edit crlf not found", "edit", map[string]any{"path": "win.txt", "old_str": "one\ntwo\nthree", "new_str": "x"}, tool.StrReplaceNotFound},
		{"multi_edit empty", "multi_edit", map[string]any{"path": "a.txt", "edits": []any{}}, tool.InvalidInput},
		{"multi_edit second fails", "multi_edit", map[string]any{"path": "a.txt", "edits": []any{
			map[string]any{"old_str": "beta", "new_str": "BETA"},
			map[string]any{"old_str": "beta", "new_str": "x"},
		}}, tool.StrReplaceNotFound},
		{"multi_edit net zero", "multi_edit", map[string]any{"path": "a.txt", "edits": []any{
			map[string]any{"old_str": "beta", "new_str": "gamma"},
			map[string]any{"old_str": "gamma", "new_str": "beta"},
		}}, tool.InvalidInput},
		{"notebook unknown cell", "notebook_edit", map[string]any{"path": "nb.ipynb", "cell_id": "zz", "new_source": "y"}, tool.InvalidInput},
		{"notebook bad mode", "notebook_edit", map[string]any{"path": "nb.ipynb", "cell_id": "c1", "new_source": "y", "edit_mode": "move"}, tool.InvalidInput},
		{"notebook not a notebook", "notebook_edit", map[string]any{"path": "a.txt", "cell_index": 0, "new_source": "y"}, tool.InvalidInput},
		{"list bad glob", "list", map[string]any{"path": ".", "ignore": []string{"[a"}}, tool.InvalidInput},
	}
	for _, c := range calls {
		t.Run(c.name, func(t *testing.T) {
			before := snapshot(t, f.root)
			res := f.call(c.tool, c.in)
			if !res.IsError || res.Code != c.code {
				t.Fatalf("want %s, got %s: %.300s", c.code, res.Code, res.TextOf())
			}
			if msg := res.TextOf(); !strings.HasPrefix(msg, "["+c.code.String()+"] ") || len(msg) < 30 {
				t.Errorf("message %q", msg)
			}
			after := snapshot(t, f.root)
			for p, e := range before {
				if a, ok := after[p]; !ok {
					t.Errorf("%s disappeared", p)
				} else if a != e {
					t.Errorf("%s changed: %+v → %+v", p, e, a)
				}
			}
			for p := range after {
				if _, ok := before[p]; !ok {
					t.Errorf("%s appeared", p)
				}
			}
		})
	}
	if _, err := os.Stat(outside); err == nil {
		t.Errorf("%s was created", outside)
	}
}
