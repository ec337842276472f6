package textedit

import (
	"bytes"
	"testing"
)

// FuzzDecodeBinaryRoundTrips checks that any bytes decoded by DecodeBinary
// encode back to themselves, so an edit of a binary file changes nothing
// but what it replaced.
func FuzzDecodeBinaryRoundTrips(f *testing.F) {
	for _, s := range []string{"", "\x00\x01\xffTODO binary\n", "a\r\nb\nc\r", "\x89PNG\r\n\x1a\n\x00", "é\x00ü", "\x80\x81\x8d\x8f\x90\x9d"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		text, enc := DecodeBinary(b)
		got, err := Encode(text, enc)
		if err != nil {
			t.Fatalf("Encode(DecodeBinary(%q)): %v", b, err)
		}
		if !bytes.Equal(got, b) {
			t.Fatalf("DecodeBinary(%q) encodes back as %q", b, got)
		}
	})
}

func TestDecodeBinaryEditKeepsOtherBytes(t *testing.T) {
	in := []byte("\x00\x01\xffTODO binary\r\n\x9d")
	text, enc := DecodeBinary(in)
	res, err := Apply(text, Edit{Old: "TODO binary", New: "DONE binary"})
	if err != nil {
		t.Fatal(err)
	}
	got, err := Encode(res.Text, enc)
	if err != nil {
		t.Fatal(err)
	}
	if want := bytes.Replace(in, []byte("TODO"), []byte("DONE"), 1); !bytes.Equal(got, want) {
		t.Fatalf("edited bytes %q, want %q", got, want)
	}
	// A character the file's encoding cannot hold is refused, not mangled.
	res, err = Apply(text, Edit{Old: "TODO", New: "✓"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Encode(res.Text, enc); err == nil {
		t.Fatal("Encode accepted a character Latin1 cannot hold")
	}
}
