package hands

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/hands-dev/hands/internal/sandbox"
)

// The server's temporary files live in one private directory per Runtime,
// $TMPDIR/hands-PID-RANDOM (mode 0700), held under an exclusive flock for
// the Runtime's life. Each session has a directory in it,
// hands-session-RANDOM, holding:
//
//	tmp/      the commands' TMPDIR, the one place besides the roots that
//	          confined commands may write; job output spill files.
//	results/  oversized results saved whole, written by the server only,
//	          through a handle on the directory, with O_EXCL (so never
//	          through a link a command planted) — commands cannot write it.
//	tasks/    each background job's whole output, ID.output, written as
//	          it runs, made the same way.
//
// A server killed with SIGKILL cannot remove its directory; the next
// Runtime removes every hands-PID-* directory whose lock it can take and
// whose PID is dead (or that is over an hour old: PIDs are reused), and
// first the temporary files its temps.log names: the sandbox logs each
// write's temporary file there in the instant before it gets a name, the
// only moment a killed write can leave one beside its target.

const (
	runtimeDirPrefix = "hands-"
	sessionDirPrefix = "hands-session-"
	lockName         = ".lock"
	tempLogName      = "temps.log"
	maxTempLog       = 64 << 20
	staleAge         = time.Hour
)

// runtimeDir is a Runtime's private temporary directory.
type runtimeDir struct {
	path    string
	lock    *os.File // holds the flock
	tempLog *os.File // the sandbox's log of temporary files (see sandbox.Set.SetTempLog)
}

// newRuntimeDir removes stale runtime directories under parent, then makes
// and locks a new one.
func newRuntimeDir(parent string) (*runtimeDir, error) {
	removeStaleDirs(parent)
	dir, err := os.MkdirTemp(parent, runtimeDirPrefix+strconv.Itoa(os.Getpid())+"-")
	if err != nil {
		return nil, err
	}
	lock, err := os.OpenFile(filepath.Join(dir, lockName), os.O_RDONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err == nil {
		err = flock(lock, true)
	}
	if err != nil {
		if lock != nil {
			lock.Close()
		}
		os.RemoveAll(dir)
		return nil, err
	}
	tempLog, err := os.OpenFile(filepath.Join(dir, tempLogName), os.O_WRONLY|os.O_CREATE|os.O_EXCL|os.O_APPEND, 0o600)
	if err != nil {
		lock.Close()
		os.RemoveAll(dir)
		return nil, err
	}
	return &runtimeDir{path: dir, lock: lock, tempLog: tempLog}, nil
}

// close removes the directory and releases the lock.
func (d *runtimeDir) close() error {
	d.tempLog.Close()
	err := removeAll(d.path)
	d.lock.Close()
	return err
}

// removeStaleDirs removes the runtime directories under parent left by
// servers that died without closing them. A directory is stale when its
// lock can be taken (nobody holds it) and the PID in its name is dead or
// it is over staleAge old; a directory still being made has a live PID.
func removeStaleDirs(parent string) {
	ents, err := os.ReadDir(parent)
	if err != nil {
		return
	}
	uid := os.Getuid()
	for _, e := range ents {
		name := e.Name()
		pid, ok := runtimeDirPID(name)
		if !ok || !e.IsDir() || pid == os.Getpid() {
			continue
		}
		dir := filepath.Join(parent, name)
		fi, err := os.Lstat(dir)
		if err != nil || !fi.IsDir() || !ownedBy(fi, uid) {
			continue
		}
		if processAlive(pid) && time.Since(fi.ModTime()) < staleAge {
			continue
		}
		lock, err := os.Open(filepath.Join(dir, lockName))
		if err != nil {
			continue // not ours, or not finished being made
		}
		if flock(lock, false) == nil {
			// A write killed between linking its temporary file in and
			// renaming it left that file beside its target.
			if f, err := os.Open(filepath.Join(dir, tempLogName)); err == nil {
				log, _ := io.ReadAll(io.LimitReader(f, maxTempLog))
				f.Close()
				sandbox.RemoveLoggedTemps(log)
			}
			removeAll(dir)
		}
		lock.Close()
	}
}

// runtimeDirPID reads the PID out of a runtime directory's name,
// hands-PID-RANDOM.
func runtimeDirPID(name string) (int, bool) {
	rest, ok := strings.CutPrefix(name, runtimeDirPrefix)
	if !ok {
		return 0, false
	}
	num, _, ok := strings.Cut(rest, "-")
	if !ok {
		return 0, false
	}
	pid, err := strconv.Atoi(num)
	return pid, err == nil && pid > 0
}

// removeAll removes dir like os.RemoveAll, and also what a command made
// unwritable inside it (`chmod -w`, Go's read-only module cache): it makes
// directories writable again where removal was refused, and retries when
// something still running added entries meanwhile.
func removeAll(dir string) error {
	var err error
	for range 5 {
		if err = os.RemoveAll(dir); err == nil {
			return nil
		}
		// WalkDir calls back on a directory before reading it, so each
		// is writable and readable by the time it is read.
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if d != nil && d.IsDir() && err == nil {
				chmodDir(p)
			}
			return nil
		})
	}
	return fmt.Errorf("removing %s: %w", dir, err)
}
