package tools

import (
	"errors"
	"strings"

	"github.com/hands-dev/hands/internal/sandbox"
	"github.com/hands-dev/hands/tool"
)

// resolved is a path argument settled in the resolve stage. Embedded in an
// input, it carries the confined path to the later stages and reports it to
// permission rules and hooks (tool.Pather).
type resolved struct{ at sandbox.Path }

// Paths returns the resolved absolute path once the resolve stage ran.
func (r resolved) Paths() []string {
	if r.at.Abs == "" {
		return nil
	}
	return []string{r.at.Abs}
}

// resolve settles path for the resolve stage: a path to write when target
// (see resolveTarget), else any path.
func (r *resolved) resolve(env *tool.Env, path string, target bool) error {
	st := stateOf(env)
	var terr *tool.Error
	if target {
		r.at, terr = resolveTarget(st, path)
	} else {
		r.at, terr = resolve(st, path)
	}
	if terr != nil {
		return terr
	}
	return nil
}

// resolve turns a path argument into a confined path, or a coded error.
func resolve(st *State, p string) (sandbox.Path, *tool.Error) {
	if strings.TrimSpace(p) == "" {
		return sandbox.Path{}, toolErr(tool.InvalidInput, "%s is empty; give an absolute path or one relative to the working directory %s", param("path"), st.Cwd()).With("given", p)
	}
	sp, err := st.FS.Resolve(st.Cwd(), p)
	if err != nil {
		return sandbox.Path{}, fsErr(err, "resolve", p).With("given", p)
	}
	return sp, nil
}

// fsErr maps a sandbox or file-system error to a coded error naming path and
// the operation that failed. Its details let profiles word it their way:
// "path" always; "roots" when the path is outside every root; "kind" is
// "directory" when a directory was found where a file was needed.
func fsErr(err error, op, path string) *tool.Error {
	var se *sandbox.Error
	if errors.As(err, &se) && se.Path != "" {
		path = se.Path
	}
	switch {
	case errors.Is(err, sandbox.ErrDenied):
		te := toolErr(tool.AccessDenied, "%s", err.Error()).With("path", path)
		if se != nil && len(se.Roots) > 0 {
			// Outside every root (rather than matching a deny pattern).
			te = te.With("roots", se.Roots)
		}
		return te
	case errors.Is(err, sandbox.ErrNotFound):
		return toolErr(tool.PathNotFound, "%s does not exist; check the path, or glob for the file name", path).With("path", path)
	case errors.Is(err, sandbox.ErrInvalid):
		return toolErr(tool.InvalidInput, "%s; give an absolute path or one relative to the working directory", err.Error()).With("path", path)
	case errors.Is(err, sandbox.ErrNotDir):
		return toolErr(tool.InvalidInput, "%s: a part of the path is a file, not a directory; check the path", path).With("path", path)
	case errors.Is(err, sandbox.ErrIsDir):
		return toolErr(tool.InvalidInput, "%s is a directory, not a file; give a file's path", path).With("path", path).With("kind", "directory")
	}
	msg := err.Error()
	if se != nil && se.Err != nil {
		msg = se.Err.Error()
	}
	return toolErr(tool.IOError, "could not %s %s: %s", op, path, msg).With("path", path)
}
