package hands

import (
	"crypto/rand"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/hands-dev/hands/internal/claudedirs"
	"github.com/hands-dev/hands/internal/sandbox"
)

// A session keeps two kinds of files that the model is told about and may
// read back: oversized results, saved whole, and background jobs' output.
// They are in the session's private directory (results/ and tasks/, see
// tempdir.go), unless the profile keeps them where Claude Code 2.1.7 does
// (Behavior.ClaudeSessionFiles), so that the model sees the paths it was
// trained on:
//
//	CONFIG/projects/SLUG/SESSION/tool-results/NAME.txt
//	TEMP/claude/SLUG/tasks/ID.output
//
// CONFIG is Options.ClaudeConfigDir ($CLAUDE_CONFIG_DIR, else ~/.claude),
// TEMP is Options.ClaudeTempDir ($CLAUDE_CODE_TMPDIR, else /tmp), SLUG
// names the first root as Claude Code names a project (claudedirs.Slug),
// and SESSION is a random UUID per session.
//
// Each directory is made when first needed, mode 0700, and opened by
// handle, each component relative to its parent and refusing a symbolic
// link, a directory of another user and one its group or others may write
// (sandbox.OpenDir). Each file is made new through the handle (O_EXCL), so
// no command can redirect a write by planting a link. Where a directory is
// refused, the session keeps its files in its private directory and the
// log says so once per Runtime. The session's files, and its own SESSION
// directory, are removed when it closes.
//
// The files are granted to the session's tools (sandbox.Grants): Read,
// Grep and the others that read may open exactly these files, through the
// same handles, and nothing else in those directories; no tool may change
// them, and a shell command is not given them.

// fileDir is one directory of a session's files, opened when first used.
type fileDir struct {
	open    func() (*sandbox.Dir, error) // where the profile keeps the files; nil for private
	private func() (*sandbox.Dir, error) // the session's private directory
	refused func(error)                  // told when open fails
	grants  *sandbox.Grants
	cleanup func() // after the files are removed, at close
	// searchable grants searching the directory (Glob, Grep over it),
	// which must then be the session's alone.
	searchable bool

	mu     sync.Mutex
	opened bool
	dir    *sandbox.Dir
	err    error
	names  []string // made here, removed at close
}

// get opens the directory on first use.
func (d *fileDir) get() (*sandbox.Dir, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.opened {
		return d.dir, d.err
	}
	d.opened = true
	if d.open != nil {
		if d.dir, d.err = d.open(); d.err == nil {
			d.grantDir()
			return d.dir, nil
		}
		d.refused(d.err)
		d.cleanup = nil
	}
	d.dir, d.err = d.private()
	if d.err == nil {
		d.grantDir()
	}
	return d.dir, d.err
}

func (d *fileDir) grantDir() {
	if d.searchable {
		d.grants.AddDir(d.dir)
	}
}

// Create makes the file name new in the directory, grants it to the
// session, and returns it with its path.
func (d *fileDir) Create(name string) (*os.File, string, error) {
	dir, err := d.get()
	if err != nil {
		return nil, "", err
	}
	f, err := dir.Create(name, 0o600)
	if err != nil {
		return nil, "", err
	}
	d.mu.Lock()
	d.names = append(d.names, name)
	d.mu.Unlock()
	d.grants.Add(dir, name)
	return f, f.Name(), nil
}

// Append opens for appending the file name that Create made earlier in
// this session (never another session's), and returns it with its path.
func (d *fileDir) Append(name string) (*os.File, string, error) {
	d.mu.Lock()
	mine, dir := slices.Contains(d.names, name), d.dir
	d.mu.Unlock()
	if !mine || dir == nil {
		return nil, "", fmt.Errorf("appending to %s: not a file of this session: %w", name, os.ErrNotExist)
	}
	f, err := dir.Append(name)
	if err != nil {
		return nil, "", err
	}
	return f, f.Name(), nil
}

// Remove removes the file name, which Create made.
func (d *fileDir) Remove(name string) error {
	d.mu.Lock()
	i := slices.Index(d.names, name)
	if i >= 0 {
		d.names = slices.Delete(d.names, i, i+1)
	}
	dir := d.dir
	d.mu.Unlock()
	if i < 0 || dir == nil {
		return fmt.Errorf("removing %s: %w", name, os.ErrNotExist)
	}
	d.grants.Remove(dir, name)
	return dir.Remove(name)
}

// close removes the files Create made and closes the directory.
func (d *fileDir) close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.dir == nil {
		return nil
	}
	var errs []error
	for _, name := range d.names {
		d.grants.Remove(d.dir, name)
		if err := d.dir.Remove(name); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	d.names = nil
	d.grants.Remove(d.dir, ".")
	errs = append(errs, d.dir.Close())
	d.dir = nil
	if d.cleanup != nil {
		d.cleanup()
	}
	return errors.Join(errs...)
}

// sessionFiles makes a session's two fileDirs: for saved results and for
// jobs' output, in dir, the session's private directory, or where the
// profile keeps them.
func (r *Runtime) sessionFiles(dir string, grants *sandbox.Grants) (results, tasks *fileDir) {
	// The results directory is the session's alone, wherever it is; the
	// tasks directory Claude Code shares between a project's sessions.
	results = &fileDir{private: func() (*sandbox.Dir, error) { return sandbox.OpenDir(dir, "results") }, grants: grants, searchable: true}
	tasks = &fileDir{private: func() (*sandbox.Dir, error) { return sandbox.OpenDir(dir, "tasks") }, grants: grants}
	if !r.behavior.ClaudeSessionFiles {
		return results, tasks
	}
	refused := func(err error) {
		r.filesWarned.Do(func() {
			r.log.Warn("keeping results and background output in the session's private directory, not where Claude Code keeps them", "err", err)
		})
	}
	config, temp := claudedirs.Dirs(r.opts.ClaudeConfigDir, r.opts.ClaudeTempDir)
	slug := claudedirs.Slug(r.fs.Roots()[0])
	session := newUUID()
	var slugDir, sessionDir *sandbox.Dir
	results.refused, tasks.refused = refused, refused
	results.open = func() (*sandbox.Dir, error) {
		var err error
		if slugDir, err = sandbox.OpenDir(filepath.Dir(config), filepath.Base(config), "projects", slug); err != nil {
			return nil, err
		}
		if sessionDir, err = slugDir.Sub(session); err != nil {
			slugDir.Close()
			return nil, err
		}
		d, err := sessionDir.Sub("tool-results")
		if err != nil {
			sessionDir.Close()
			slugDir.RemoveDir(session)
			slugDir.Close()
		}
		return d, err
	}
	// The session's own directories go with it, when nothing else is
	// in them.
	results.cleanup = func() {
		sessionDir.RemoveDir("tool-results")
		sessionDir.Close()
		slugDir.RemoveDir(session)
		slugDir.Close()
	}
	tasks.open = func() (*sandbox.Dir, error) { return sandbox.OpenDir(temp, "claude", slug, "tasks") }
	return results, tasks
}

// newUUID returns a random (version 4) UUID, as Claude Code names its
// sessions.
func newUUID() string {
	var b [16]byte
	rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
