package textedit

import "unicode/utf8"

// DecodeBinary decodes data that Decode refuses as binary so that it can be
// edited as text all the same (Gemini CLI 0.1.13's replace edits any
// file): valid UTF-8 as UTF-8, anything else as Latin1, whose every byte
// is one character. Encode with the returned Encoding gives back the same
// bytes for the text unchanged, so an edit changes only the bytes of what
// it replaced.
func DecodeBinary(b []byte) (string, Encoding) {
	if utf8.Valid(b) {
		return decodeLineEndings(b, Encoding{Kind: UTF8})
	}
	return decodeLineEndings(decodeLatin1(b), Encoding{Kind: Latin1})
}
