package tools

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/hands-dev/hands/internal/textedit"

	"github.com/hands-dev/hands/tool"
)

// FuzzEditTool runs the edit tool through the executor on arbitrary file
// bytes and arguments. It checks that no call panics or fails with an
// internal error, that a failed call leaves the file's bytes alone, and
// that a successful one writes exactly what textedit computes, in the
// file's own encoding.
func FuzzEditTool(f *testing.F) {
	f.Add([]byte("a\r\nb\r\n"), "a\nb", "c", false, 0)
	f.Add([]byte("x x x\n"), "x", "y", true, 0)
	f.Add([]byte("x x\n"), "x", "y", false, 2)
	f.Add([]byte("\xEF\xBB\xBFkey = 1\n"), "key = 1", "key = 2", false, 0)
	f.Add([]byte("\xff\xfea\x00\n\x00"), "a", "é", false, 0)
	f.Add([]byte("caf\xe9\n"), "café", "☕", false, 0)
	f.Add([]byte("  1\tfoo\n"), "1\tfoo", "bar", false, 0)
	f.Add([]byte("“q”\n"), "\"q\"", "\"r\"", false, 0)
	f.Add([]byte{0, 1, 2}, "\x01", "x", false, 0)
	fx := newFixture(f)
	f.Fuzz(func(t *testing.T, file []byte, old, new string, all bool, expected int) {
		fx.t = t
		fx.put("f.txt", file, 0o644)
		args, err := json.Marshal(map[string]any{"path": "f.txt", "old_str": old, "new_str": new, "replace_all": all, "expected_replacements": expected % 4})
		if err != nil {
			t.Skip()
		}
		var in EditInput // what the tool sees: JSON has no invalid UTF-8
		if err := json.Unmarshal(args, &in); err != nil {
			t.Fatal(err)
		}
		if r := fx.call("read", map[string]any{"path": "f.txt"}); r.Code == tool.InternalError {
			t.Fatalf("read: %s", r.TextOf())
		}
		res := fx.call("edit", string(args))
		got := fx.get("f.txt")
		if res.IsError {
			if res.Code == tool.InternalError {
				t.Fatalf("internal error: %s", res.TextOf())
			}
			if !bytes.Equal(got, file) {
				t.Fatalf("failed call (%s) changed the file from %q to %q", res.Code, file, got)
			}
			return
		}
		text, enc, err := textedit.Decode(file)
		if err != nil {
			t.Fatalf("edited a file Decode refuses: %q", file)
		}
		want, err := textedit.Apply(text, textedit.Edit{Old: in.OldStr, New: in.NewStr, ReplaceAll: in.ReplaceAll, Expected: in.ExpectedReplacements})
		if err != nil {
			t.Fatalf("the tool succeeded where Apply fails: %v", err)
		}
		wantBytes, err := textedit.Encode(want.Text, enc)
		if err != nil || !bytes.Equal(got, wantBytes) {
			t.Fatalf("file is %q, want %q (%v)", got, wantBytes, err)
		}
		if out := res.Structured.(*EditOutput); out.Replacements != want.Count || out.Normalization != want.Normalization {
			t.Fatalf("output %+v, want %+v", out, want)
		}
	})
}
