package sandbox

import (
	"errors"
	"io/fs"
	"os"
	"strings"
	"syscall"
)

// Kind classifies an *Error so that callers can map it to their own codes.
type Kind int

const (
	// IO is any other failure of the file system; the zero Kind.
	IO Kind = iota
	// NotFound means the path, or a directory on the way to it, does not exist.
	NotFound
	// Denied means the path is outside every root or matches a deny pattern.
	Denied
	// NotDir means a directory was needed and the path names something else.
	NotDir
	// IsDir means the path names a directory where a file was needed.
	IsDir
	// Invalid means the input cannot name a file at all: empty, a NUL byte,
	// a relative working directory, "~".
	Invalid
)

var kindNames = [...]string{
	IO:       "io",
	NotFound: "not found",
	Denied:   "denied",
	NotDir:   "not a directory",
	IsDir:    "is a directory",
	Invalid:  "invalid",
}

// String returns the lower-case name of the kind.
func (k Kind) String() string {
	if k >= 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "unknown"
}

// Sentinel errors, one per Kind but IO: errors.Is(err, ErrDenied) reports
// whether err is or wraps an *Error of Kind Denied, and likewise for the others.
var (
	// ErrNotFound matches an *Error of Kind NotFound.
	ErrNotFound = errors.New("not found")
	// ErrDenied matches an *Error of Kind Denied.
	ErrDenied = errors.New("access denied")
	// ErrNotDir matches an *Error of Kind NotDir.
	ErrNotDir = errors.New("not a directory")
	// ErrIsDir matches an *Error of Kind IsDir.
	ErrIsDir = errors.New("is a directory")
	// ErrInvalid matches an *Error of Kind Invalid.
	ErrInvalid = errors.New("invalid path")
)

// sentinel returns the sentinel error of a Kind, nil for one without.
func sentinel(k Kind) error {
	switch k {
	case NotFound:
		return ErrNotFound
	case Denied:
		return ErrDenied
	case NotDir:
		return ErrNotDir
	case IsDir:
		return ErrIsDir
	case Invalid:
		return ErrInvalid
	}
	return nil
}

// Error is the error of every operation of a Set.
type Error struct {
	// Kind classifies the error.
	Kind Kind
	// Op is the operation that failed ("resolve", "open", "stat", "write",
	// "rename", ...). Messages of Kind Denied leave it out.
	Op string
	// Path is the absolute path involved, as requested or as resolved.
	Path string
	// Roots lists the allowed roots when the path lies outside all of them.
	Roots []string
	// Reason says why, in words; when empty the text of Err is used.
	Reason string
	// Err is the underlying error, if any.
	Err error
}

// Error returns a lower-case message naming the path and the reason, for
// example `access denied: /etc/passwd is outside the allowed roots (/a, /b)`
// or `open /a/x: no such file or directory`.
func (e *Error) Error() string {
	var b strings.Builder
	reason := e.reason()
	if e.Kind == Denied {
		b.WriteString("access denied: ")
		b.WriteString(e.Path)
		if reason != "" {
			b.WriteString(" ")
			b.WriteString(reason)
		}
		if len(e.Roots) > 0 {
			b.WriteString(" (")
			b.WriteString(strings.Join(e.Roots, ", "))
			b.WriteString(")")
		}
		return b.String()
	}
	b.WriteString(e.Op)
	if e.Op != "" && e.Path != "" {
		b.WriteString(" ")
	}
	b.WriteString(e.Path)
	if b.Len() > 0 {
		b.WriteString(": ")
	}
	b.WriteString(reason)
	return b.String()
}

func (e *Error) reason() string {
	if e.Reason != "" {
		return e.Reason
	}
	if e.Err != nil {
		// The path inside a *PathError is relative to an os.Root; ours is
		// absolute and already printed.
		return inner(e.Err).Error()
	}
	if e.Kind == Denied {
		return ""
	}
	return e.Kind.String()
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// Is reports whether target is the sentinel error of e's Kind.
func (e *Error) Is(target error) bool {
	s := sentinel(e.Kind)
	return s != nil && s == target
}

// errPathEscapes is the text of the unexported error os.Root returns when a
// path or a symlink leaves the root; TestOsRootEscapeDetected pins it.
const errPathEscapes = "path escapes from parent"

// fail maps an error of the os package to an *Error naming the absolute path.
func (s *Set) fail(op, abs string, err error) error {
	if err == nil {
		return nil
	}
	var se *Error
	if errors.As(err, &se) {
		return err
	}
	e := &Error{Kind: IO, Op: op, Path: abs, Err: err}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		e.Kind = NotFound
		e.Reason = "no such file or directory"
	case inner(err).Error() == errPathEscapes:
		e.Kind = Denied
		e.Reason = "escapes the allowed roots through a symlink"
		e.Roots = s.Roots()
	case errors.Is(err, syscall.ENOTDIR):
		e.Kind = NotDir
	case errors.Is(err, syscall.EISDIR):
		e.Kind = IsDir
	}
	return e
}

// inner returns the error inside a *fs.PathError or *os.LinkError, whose
// path is relative to an os.Root, or err itself.
func inner(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Err != nil {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) && le.Err != nil {
		return le.Err
	}
	return err
}

func denied(op, path, reason string, roots []string) *Error {
	return &Error{Kind: Denied, Op: op, Path: path, Reason: reason, Roots: roots}
}

func invalid(op, path, reason string) *Error {
	return &Error{Kind: Invalid, Op: op, Path: path, Reason: reason}
}
