// Package textedit is the engine behind the read and edit tools: it decodes a
// file's bytes into text, applies exact string replacements to that text, and
// encodes the result back so that everything the edit did not touch stays
// byte for byte as it was.
//
// The package promises:
//
//   - Decode turns UTF-8 (with or without a byte order mark), UTF-16 LE/BE with
//     a byte order mark and Latin-1 (Windows-1252) into UTF-8 text whose line
//     endings are LF, and reports binary data as ErrBinary. Encode is its
//     inverse: Encode(Decode(b)) == b for every accepted b, including files
//     with mixed line endings.
//   - Apply replaces an exact string. When the exact string is absent it tries
//     a fixed list of deterministic normalisations (line endings, trailing
//     whitespace, line-number prefixes copied from read output, typographic
//     quotes) and uses one only when it gives an unambiguous answer; it never
//     guesses. Errors are typed values carrying what the caller needs to tell
//     the model how to fix its call.
//   - Diff renders a unified diff in time and memory proportional to the
//     changed region plus one linear scan, so that editing one line of a
//     100 MB file stays cheap.
//
// The package does not read or write files, does not know about tools or
// their parameters, and keeps no state between calls.
package textedit
