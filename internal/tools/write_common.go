package tools

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/hands-dev/hands/internal/sandbox"
	"github.com/hands-dev/hands/internal/textedit"
	"github.com/hands-dev/hands/tool"
)

// This file holds what the tools that change files share: resolving a path
// to write, the read-before-write rule, loading a text file for an edit and
// writing the result back atomically.

// resolveTarget resolves a path a tool will write or edit. Beyond resolve, a
// path that cannot name a file (a NUL byte, "~", a trailing slash, a file
// used as a directory on the way) is an INVALID_INPUT that says why.
func resolveTarget(st *State, path string) (sandbox.Path, *tool.Error) {
	if strings.TrimSpace(path) == "" {
		return resolve(st, path)
	}
	if strings.HasSuffix(path, "/") || strings.HasSuffix(path, string(os.PathSeparator)) {
		return sandbox.Path{}, toolErr(tool.InvalidInput, "%s %q ends in a slash, which names a directory; give the path of a file", param("path"), path).With("path", path)
	}
	p, err := st.FS.Resolve(st.Cwd(), path)
	var se *sandbox.Error
	if errors.As(err, &se) && (se.Kind == sandbox.Invalid || se.Kind == sandbox.NotDir) {
		reason := se.Reason
		if reason == "" {
			reason = se.Error()
		}
		if se.Kind == sandbox.NotDir {
			reason += ", so it cannot hold other files; check the path"
		}
		return sandbox.Path{}, toolErr(tool.InvalidInput, "%s %q cannot name a file: %s", param("path"), path, reason).With("path", path)
	}
	if err != nil {
		return sandbox.Path{}, fsErr(err, "resolve", path).With("given", path)
	}
	return p, nil
}

// statTarget returns what is at p: nil when nothing exists there yet. A
// directory is an INVALID_INPUT; any other non-regular file an IO_ERROR
// naming op, the operation that needed a file.
func statTarget(st *State, p sandbox.Path, op string) (os.FileInfo, *tool.Error) {
	fi, err := st.FS.Stat(p)
	switch {
	case errors.Is(err, sandbox.ErrNotFound):
		return nil, nil
	case err != nil:
		return nil, fsErr(err, "stat", p.Abs)
	case fi.IsDir():
		return nil, toolErr(tool.InvalidInput, "%s is a directory, not a file; give the path of a file", p.Abs).With("path", p.Abs).With("kind", "directory")
	case !fi.Mode().IsRegular():
		return nil, notAFile(op, p.Abs, fi.Mode())
	}
	return fi, nil
}

// checkFresh enforces read-before-write on the existing file at p: this
// session must have read it (or written it), and it must not have changed
// since. data is the file's current content, or nil when it has not been
// read; checkFresh reads it when the hash must decide. It returns the
// content when it read it. verb is "overwrite" or "edit"; the session's
// Behavior may switch the rule off for either.
func checkFresh(st *State, p sandbox.Path, fi os.FileInfo, data []byte, verb string) ([]byte, *tool.Error) {
	if verb == "overwrite" && st.Behavior.WriteWithoutRead || verb == "edit" && st.Behavior.EditWithoutRead {
		return data, nil
	}
	seen, ok := st.Ledger.Lookup(p.Abs)
	if !ok {
		return nil, toolErr(tool.FileNotViewed, "%s has not been read in this session; read it first, then %s it", p.Abs, verb).With("path", p.Abs)
	}
	changed := false
	switch {
	case seen.Partial:
		// Only a window of a large file was read: size and time decide.
		changed = !seen.Unchanged(fi, nil)
	case fi.Size() != seen.Size:
		changed = true
	default:
		if data == nil {
			var err *tool.Error
			if data, err = readFile(st, p); err != nil {
				return nil, err
			}
		}
		changed = !seen.Unchanged(fi, data)
	}
	if changed {
		return nil, toolErr(tool.FileChanged, "%s has changed on disk since this session read it (%s); read it again, then %s it, so that those changes are not lost",
			p.Abs, changeNote(seen, fi), verb).With("path", p.Abs)
	}
	return data, nil
}

// changeNote says how a file differs from what the ledger saw.
func changeNote(seen Seen, fi os.FileInfo) string {
	if fi.Size() != seen.Size {
		return fmt.Sprintf("it was %d bytes, now %d", seen.Size, fi.Size())
	}
	if !fi.ModTime().Equal(seen.ModTime) {
		return fmt.Sprintf("modified at %s", fi.ModTime().Format(time.RFC3339))
	}
	return "same size, different content"
}

// readFile reads the whole regular file at p.
func readFile(st *State, p sandbox.Path) ([]byte, *tool.Error) {
	f, terr := openRegular(st.FS, p)
	if terr != nil {
		return nil, terr
	}
	defer f.Close()
	data, err := readSized(f)
	if err != nil {
		return nil, toolErr(tool.IOError, "could not read %s: %v", p.Abs, err).With("path", p.Abs)
	}
	return data, nil
}

// readSized reads f to the end into a buffer sized by its length, as
// os.ReadFile does, so that a large file is not copied while the buffer
// grows.
func readSized(f *os.File) ([]byte, error) {
	size := 512
	if fi, err := f.Stat(); err == nil && fi.Size() > 0 && fi.Size() < 1<<40 {
		size = int(fi.Size()) + 1 // one more byte to see the end at once
	}
	if size >= collectBefore {
		// The buffer of an earlier large read (the read before an
		// edit) is garbage by now but not yet collected: collect it, so
		// that its memory holds this one instead of adding to the peak.
		runtime.GC()
	}
	data := make([]byte, 0, size)
	for {
		n, err := f.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return nil, err
		}
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)] // the file grew
		}
	}
}

// collectBefore is the file size from which readSized collects garbage
// before it allocates.
const collectBefore = 16 << 20

// textFile is a text file loaded for an edit: its decoded text and how to
// encode it back.
type textFile struct {
	p    sandbox.Path
	fi   os.FileInfo
	text string
	enc  textedit.Encoding
}

// editTarget is the file an edit changes: resolved by the resolve stage,
// loaded (and checked to have been read) by the validation stage.
type editTarget struct {
	resolved
	file *textFile
}

// load loads the resolved file for the edit.
func (t *editTarget) load(env *tool.Env) error {
	f, terr := loadText(stateOf(env), t.at)
	if terr != nil {
		return terr
	}
	t.file = f
	return nil
}

// current returns f if the file on disk is still the one validation
// loaded, else loads it again, with every check, so that nothing that
// changed between validation and execution (a hook ran, time passed) is
// overwritten.
func (f *textFile) current(st *State) (*textFile, *tool.Error) {
	if f == nil {
		return nil, toolErr(tool.InternalError, "the file to edit was not loaded by validation")
	}
	if fi, err := st.FS.Stat(f.p); err == nil && sameFile(f.fi, fi) {
		return f, nil
	}
	return loadText(st, f.p)
}

// prior is an existing file as validation saw it before a write: its
// metadata, and its content when the freshness check read it.
type prior struct {
	fi   os.FileInfo
	data []byte
}

// sameFile reports whether b is still the file a was: same size and
// modification time (and inode, where the platform has one).
func sameFile(a, b os.FileInfo) bool {
	return a.Size() == b.Size() && a.ModTime().Equal(b.ModTime()) && os.SameFile(a, b)
}

// loadText loads the existing text file at path for an edit: inside the
// roots, within the size limit, read by this session and unchanged since,
// and text rather than binary.
func loadText(st *State, p sandbox.Path) (*textFile, *tool.Error) {
	fi, terr := statTarget(st, p, "edit")
	if terr != nil {
		return nil, terr
	}
	if fi == nil {
		return nil, toolErr(tool.PathNotFound, "%s does not exist; check the path, or to create a new file write it whole instead of editing", p.Abs).With("path", p.Abs)
	}
	if fi.Size() > st.Limits.MaxFileSize {
		return nil, toolErr(tool.FileTooLarge, "%s is %d bytes, over the %d-byte limit for edits; edit a smaller file, or change it with a shell command", p.Abs, fi.Size(), st.Limits.MaxFileSize).With("path", p.Abs)
	}
	data, terr := readFile(st, p)
	if terr != nil {
		return nil, terr
	}
	if _, terr := checkFresh(st, p, fi, data, "edit"); terr != nil {
		return nil, terr
	}
	// The text shares data's memory where it can: a large file is held
	// once, not twice.
	text, enc, err := textedit.DecodeOwned(data)
	if err != nil && st.Behavior.EditBinary {
		text, enc = textedit.DecodeBinary(data)
		err = nil
	}
	if err != nil {
		return nil, toolErr(tool.BinaryFile, "%s is a binary file (%d bytes) and cannot be edited as text", p.Abs, len(data)).With("path", p.Abs)
	}
	releaseRaw(len(data), enc)
	return &textFile{p: p, fi: fi, text: text, enc: enc}, nil
}

// encode turns the edited text, given in parts (textedit.ApplyParts),
// back into the file's encoding: its size, checked against the limit, and
// the function that writes it.
func (f *textFile) encode(parts []string, st *State) (int64, func(io.Writer) error, *tool.Error) {
	size, write, err := textedit.EncodeParts(parts, f.enc)
	if err != nil {
		return 0, nil, toolErr(tool.InvalidInput, "the edit cannot be written to %s without changing its encoding (%s): %v; nothing was changed",
			f.p.Abs, f.enc, err).With("path", f.p.Abs)
	}
	if size > st.Limits.MaxFileSize {
		return 0, nil, toolErr(tool.FileTooLarge, "the edit would make %s %d bytes, over the %d-byte limit; nothing was changed", f.p.Abs, size, st.Limits.MaxFileSize).With("path", f.p.Abs)
	}
	return size, write, nil
}

// commit writes data to p atomically (keeping an existing file's mode and
// owner, writing through a symlink) and records the new content in the
// ledger, so that the session may edit the file again without reading it.
func commit(st *State, p sandbox.Path, data []byte) (created bool, terr *tool.Error) {
	return commitFrom(st, p, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// commitFrom is commit for content that write produces, hashed for the
// ledger as it is written.
func commitFrom(st *State, p sandbox.Path, write func(io.Writer) error) (created bool, terr *tool.Error) {
	h := &hashingWriter{h: sha256.New()}
	created, err := st.FS.WriteFileFrom(p, 0, func(w io.Writer) error {
		h.w = w
		return write(h)
	})
	if err != nil {
		if errors.Is(err, sandbox.ErrIsDir) {
			return false, toolErr(tool.InvalidInput, "%s is a directory, not a file; give the path of a file", p.Abs).With("path", p.Abs).With("kind", "directory")
		}
		return false, fsErr(err, "write", p.Abs)
	}
	if fi, err := st.FS.Stat(p); err == nil {
		st.Ledger.RecordHash(p.Abs, fi, [sha256.Size]byte(h.h.Sum(nil)))
	} else {
		st.Ledger.Forget(p.Abs)
	}
	return created, nil
}

// hashingWriter writes to w and hashes what it writes; a string is hashed
// a chunk at a time, not copied whole.
type hashingWriter struct {
	w   io.Writer
	h   hash.Hash
	buf [32 << 10]byte
}

func (hw *hashingWriter) Write(b []byte) (int, error) {
	hw.h.Write(b)
	return hw.w.Write(b)
}

func (hw *hashingWriter) WriteString(s string) (int, error) {
	for rest := s; rest != ""; {
		n := copy(hw.buf[:], rest)
		hw.h.Write(hw.buf[:n])
		rest = rest[n:]
	}
	return io.WriteString(hw.w, s)
}

// encodingLabel names an encoding for results: "" for plain UTF-8 with LF
// endings, the usual case.
func encodingLabel(e textedit.Encoding) string {
	if e.Kind == textedit.UTF8 && !e.BOM && !e.CRLF && !e.Mixed {
		return ""
	}
	return e.String()
}
