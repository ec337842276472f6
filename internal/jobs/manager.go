package jobs

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Errors a Manager returns; the tool layer maps them to codes.
var (
	// ErrNotFound means no job has the id.
	ErrNotFound = errors.New("no such job")
	// ErrLimit means Config.MaxRunning jobs are already running.
	ErrLimit = errors.New("too many running jobs")
	// ErrNotRunning means the job has already finished.
	ErrNotRunning = errors.New("job is not running")
	// ErrClosed means the Manager has been closed.
	ErrClosed = errors.New("job manager closed")
)

// Defaults of Config.
const (
	DefaultTimeout     = 2 * time.Minute
	DefaultMaxTimeout  = 10 * time.Minute
	DefaultGrace       = 2 * time.Second
	DefaultMaxRunning  = 10
	DefaultOutputLimit = 30000
	DefaultFileLimit   = 256 << 20
)

// Config configures a Manager. The zero value means the defaults.
type Config struct {
	// Shell runs the commands: a path or a name looked up on PATH. Empty
	// means bash, or /bin/sh where there is no bash.
	Shell string
	// Env is the commands' environment, already built (see BuildEnv); nil
	// means BuildEnv(os.Environ()). TMPDIR is always set to TempDir.
	Env []string
	// TempDir is the session's temporary directory, for spill files and
	// the commands' TMPDIR. Empty means a new directory that Close removes;
	// a given one is kept, only the Manager's own files in it are removed.
	TempDir string
	// OutputDir, if set, is a directory only the server writes (never one
	// a command can, such as TempDir), opened once by NewManager: each
	// background job's whole merged output goes to ID.output in it, made
	// new (O_EXCL) through the directory's handle and written as the job
	// runs (see OutputFile). Close removes those files.
	OutputDir string
	// Output, if set, is used instead of OutputDir: a directory for the
	// output files already opened by the caller, who closes it. The
	// Manager removes the files it made there when it closes.
	Output OutputFiles
	// Spill, if set, is where a command's whole output goes once it
	// outgrows OutputLimit (PREFIX-N-STREAM.txt), instead of TempDir,
	// which commands may write: a directory opened by the caller, as
	// Output. The Manager removes its files there when it closes.
	Spill OutputFiles
	// TrimSpill makes a foreground command's whole merged output, once
	// it ends, drop its leading blank lines and trailing white space, as
	// Claude Code 2.1.7 saves a large Bash result.
	TrimSpill bool
	// Confine, if set, is called on a locked OS thread just before a
	// command is started from it, to restrict the thread so the command
	// inherits the restriction (confine.Confiner.RestrictThread). That
	// thread is then never unlocked, so it ends with the command. An error
	// stops the command from starting. A confinement policy must let
	// commands write TempDir (the wrapper writes the final directory
	// there), so make the directory first and give it to both.
	Confine func() error
	// NameByPath makes the shell's $0 (the name its own messages start
	// with: "/bin/bash: line 1: …") the path it was started by, not its
	// base name, as Claude Code runs it. With no Shell given, bash is then
	// found where $SHELL says, when $SHELL names bash.
	NameByPath bool
	// RawText renders output as Node decodes it for Claude Code: control
	// characters as they are and each byte that is not UTF-8 as U+FFFD,
	// instead of safe text's \xNN (see Truncate). (Node makes one U+FFFD
	// of a multi-byte sequence cut short; this makes one of each byte.)
	RawText bool
	// Spawner, if set, starts the commands instead (in a sandbox that
	// lives as long as the Manager); Confine is then not used. Commands with Options.Unconfined start as usual. Close closes
	// it.
	Spawner Spawner
	// MergeStreams sends stdout and stderr down one pipe: Merged is then
	// in the exact order of the writes, and Stdout and Stderr stay empty.
	// Otherwise each has its own pipe and Merged is in the order the
	// server read them (see Output).
	MergeStreams bool
	// Grace is how long a process group has between SIGTERM and SIGKILL.
	Grace time.Duration
	// DefaultTimeout applies to Run when it is given none; MaxTimeout
	// caps every timeout.
	DefaultTimeout, MaxTimeout time.Duration
	// MaxRunning is how many background jobs may run at once.
	MaxRunning int
	// OutputLimit is how many characters of each output a Text holds.
	OutputLimit int
	// FileLimit is how many bytes of one stream a spill file keeps.
	FileLimit int64
	// NoWarm starts each foreground command's shell when the command
	// comes, instead of ahead (see warm).
	NoWarm bool
}

// A Manager runs one session's commands: it owns the working directory
// that `cd` moves and the background jobs. Its methods are safe for
// concurrent use. Close it to kill everything it started.
type Manager struct {
	cfg     Config
	shell   string
	wrapper string
	env     []string
	// warmWrapper is the wrapper of warm shells; warmOK says whether
	// commands get them (warmable).
	warmWrapper string
	warmOK      bool
	tmp         string
	ownTmp      bool
	fallback    string
	seq         atomic.Int64
	watch       watchdog
	outDir      OutputFiles // Config.Output, or Config.OutputDir opened, or nil
	ownOut      bool        // outDir is Config.OutputDir, closed by Close

	mu       sync.Mutex
	cwd      string
	closed   bool
	warm     *warm // the next command's shell, started or starting
	procs    map[*proc]struct{}
	jobs     map[string]*job
	starting int // jobs being started, counted against MaxRunning
	files    []string
	outFiles []string // names in outDir
	spilled  []string // names in Config.Spill
}

// NewManager returns a Manager whose commands start in dir; when dir
// disappears they start in fallback (the session's first root) instead.
// An empty fallback means dir.
func NewManager(cfg Config, dir, fallback string) (*Manager, error) {
	if cfg.Grace <= 0 {
		cfg.Grace = DefaultGrace
	}
	if cfg.MaxTimeout <= 0 {
		cfg.MaxTimeout = DefaultMaxTimeout
	}
	if cfg.DefaultTimeout <= 0 {
		cfg.DefaultTimeout = min(DefaultTimeout, cfg.MaxTimeout)
	}
	if cfg.MaxRunning <= 0 {
		cfg.MaxRunning = DefaultMaxRunning
	}
	if cfg.OutputLimit <= 0 {
		cfg.OutputLimit = DefaultOutputLimit
	}
	if cfg.FileLimit <= 0 {
		cfg.FileLimit = DefaultFileLimit
	}
	m := &Manager{cfg: cfg, procs: map[*proc]struct{}{}, jobs: map[string]*job{}}

	shell := cfg.Shell
	if shell == "" {
		shell = "bash"
		if _, err := exec.LookPath(shell); err != nil {
			shell = "/bin/sh"
		} else if sh := os.Getenv("SHELL"); cfg.NameByPath && filepath.IsAbs(sh) && filepath.Base(sh) == "bash" {
			if _, err := exec.LookPath(sh); err == nil {
				shell = sh
			}
		}
	}
	path, err := exec.LookPath(shell)
	if err == nil {
		path, err = filepath.Abs(path)
	}
	if err != nil {
		return nil, fmt.Errorf("finding the shell %q: %w", shell, err)
	}
	m.shell = path
	m.wrapper = wrapperScript(m.shellName())

	if cfg.TempDir == "" {
		if m.tmp, err = os.MkdirTemp("", "hands-"); err != nil {
			return nil, fmt.Errorf("making the session's temporary directory: %w", err)
		}
		m.ownTmp = true
	} else {
		if m.tmp, err = filepath.Abs(cfg.TempDir); err == nil {
			err = os.MkdirAll(m.tmp, 0o700)
		}
		if err != nil {
			return nil, fmt.Errorf("making the session's temporary directory: %w", err)
		}
	}

	if m.cwd, err = filepath.Abs(dir); err != nil {
		return nil, err
	}
	m.fallback = m.cwd
	if fallback != "" {
		if m.fallback, err = filepath.Abs(fallback); err != nil {
			return nil, err
		}
	}

	m.outDir = cfg.Output
	if m.outDir == nil && cfg.OutputDir != "" {
		out, err := filepath.Abs(cfg.OutputDir)
		var r *os.Root
		if err == nil {
			r, err = os.OpenRoot(out)
		}
		m.outDir, m.ownOut = rootFiles{r}, true
		if err != nil {
			if m.ownTmp {
				os.RemoveAll(m.tmp)
			}
			return nil, fmt.Errorf("opening the jobs' output directory: %w", err)
		}
	}

	env := cfg.Env
	if env == nil {
		env = BuildEnv(os.Environ())
	}
	m.env = setEnv(append([]string(nil), env...), "TMPDIR="+m.tmp)
	m.warmWrapper = warmScript(m.wrapper)
	m.warmOK = m.warmable()
	m.watch.start(m.shell)
	return m, nil
}

func (m *Manager) shellName() string { return filepath.Base(m.shell) }

// argv0 is the shell's $0: its path under Config.NameByPath, else its name.
func (m *Manager) argv0() string {
	if m.cfg.NameByPath {
		return m.shell
	}
	return m.shellName()
}

// cwdFD is the descriptor on which the wrapper writes the shell's final
// directory: a pipe the shell inherits, never a file in a directory a
// command can write (a FIFO or a link to /dev/zero planted there would
// hang or flood the server). 9 because POSIX shells (dash) take only one
// digit in a redirection, and scripts reach for 3 first.
const cwdFD = 9

// maxCwdLine bounds the final directory read from the pipe (PATH_MAX).
const maxCwdLine = 4096

// wrapperScript returns the script `sh -c` runs. The command comes in as
// $1 and is run by eval, never pasted into the script, so heredocs,
// trailing comments and quotes mean what they mean at a prompt; on one
// line, so the shell's messages give the command's own line numbers. The
// shell writes its final directory to descriptor cwdFD, when that is
// still a pipe (a command may have reused it): after eval returns, and
// from an EXIT trap (which runs on `exit` and on `set -e` failures) unless
// that report was made; the command may have replaced the trap.
func wrapperScript(shell string) string {
	builtin := "command"
	if shell == "bash" || shell == "zsh" {
		builtin = "builtin"
	}
	fd := strconv.Itoa(cwdFD)
	// The newline first ends whatever a command left unfinished there.
	report := `[ -p /dev/fd/` + fd + ` ] && { echo; ` + builtin + ` pwd -P; } >&` + fd + ` 2>/dev/null`
	return strings.Join([]string{
		`__hands_cmd=$1`,
		`set --`,
		`trap '[ -n "${__hands_done-}" ] || { ` + report + `; }' EXIT`,
		`eval "$__hands_cmd"`,
		`__hands_st=$?`,
		report,
		`__hands_done=1`,
		`exit $__hands_st`,
	}, "; ")
}

// TempDir returns the session's temporary directory.
func (m *Manager) TempDir() string { return m.tmp }

// Cwd returns the directory the next command starts in.
func (m *Manager) Cwd() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.cwd
}

// SetCwd makes dir, which must be an existing directory, the directory the
// next command starts in. Whether dir is inside the roots is the caller's
// business.
func (m *Manager) SetCwd(dir string) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	if fi, err := os.Stat(abs); err != nil {
		return err
	} else if !fi.IsDir() {
		return fmt.Errorf("%s is not a directory", abs)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.cwd = abs
	return nil
}

// dirForCall returns the directory a command starts in and, when the
// working directory has vanished, a note saying it fell back.
func (m *Manager) dirForCall() (dir, note string, err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return "", "", ErrClosed
	}
	note = m.checkCwdLocked()
	if !isDir(m.cwd) {
		return "", "", fmt.Errorf("the working directory %s and the fallback %s do not exist", m.cwd, m.fallback)
	}
	return m.cwd, note, nil
}

// checkCwdLocked falls back when the working directory no longer exists,
// and returns a note saying so.
func (m *Manager) checkCwdLocked() string {
	if isDir(m.cwd) || m.cwd == m.fallback {
		return ""
	}
	old := m.cwd
	m.cwd = m.fallback
	return fmt.Sprintf("the working directory %s no longer exists; now in %s", old, m.fallback)
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// endCwd takes the directory the shell ended in, as the wrapper reported
// it. A command that ended where it started leaves the working directory
// alone, so a concurrent command's `cd` is not undone.
func (m *Manager) endCwd(start, end string) (cwd, note string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if end != "" && end != start && filepath.IsAbs(end) && isDir(end) {
		m.cwd = end
	}
	return m.cwd, m.checkCwdLocked()
}

// newFile creates a file of the Manager's in its temporary directory.
// After Close it fails: Close has already removed the Manager's files.
func (m *Manager) newFile(name string) (*os.File, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, ErrClosed
	}
	if m.cfg.Spill != nil {
		name = strings.ReplaceAll(name, ".", "-") + ".txt"
		f, _, err := m.cfg.Spill.Create(name)
		if err == nil {
			m.spilled = append(m.spilled, name)
		}
		return f, err
	}
	f, err := os.OpenFile(filepath.Join(m.tmp, name), os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, err
	}
	m.files = append(m.files, f.Name())
	return f, nil
}

// prepare makes the sink of command number n.
func (m *Manager) prepare(prefix string, n int64) *sink {
	return newSink(m.cfg.OutputLimit, m.cfg.FileLimit, m.cfg.MergeStreams, m.cfg.RawText, func(stream string) (*os.File, error) {
		return m.newFile(fmt.Sprintf("%s-%d.%s", prefix, n, stream))
	})
}

// track records a running process so Close can kill it; it fails once the
// Manager is closed, and then kills the process itself.
func (m *Manager) track(p *proc) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		p.requestKill()
		return ErrClosed
	}
	m.procs[p] = struct{}{}
	return nil
}

func (m *Manager) untrack(p *proc) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.procs, p)
}

// Output is the result of a command run in the foreground.
type Output struct {
	// Merged is stdout and stderr together. With Config.MergeStreams they
	// shared one pipe and this is the exact order of the writes; otherwise
	// it is the order in which the server read the two pipes, which groups
	// by stream writes made close together (see the package doc).
	Merged Text
	// Stdout and Stderr are each stream alone (empty with MergeStreams).
	Stdout, Stderr Text
	// ExitCode is the shell's exit status; when a signal ended the shell
	// it is 128 plus the signal's number, as a shell reports it.
	ExitCode int
	// Signal names the signal that ended the shell ("SIGKILL"), if one did.
	Signal string
	// TimedOut and Canceled say the command was killed for running out of
	// time or because its context ended.
	TimedOut, Canceled bool
	// Cwd is the working directory after the command.
	Cwd string
	// CwdReset is a note for the model when the working directory
	// vanished and commands now start in the fallback directory.
	CwdReset string
	// PGID is the process group the command ran in, as the command saw it
	// (inside its PID namespace when the sandbox gave it one).
	PGID int
	// Duration is how long the command ran.
	Duration time.Duration
	// JobID is the background job the command became when it outlived its
	// timeout under Options.DetachOnTimeout; ExitCode, Signal and TimedOut
	// are then unset, and the output is what it wrote so far. JobFile is
	// the file that holds its whole output as it runs (see
	// Config.OutputDir), or "".
	JobID, JobFile string
}

// Run runs command in the foreground from the working directory, with
// stdin from /dev/null, in a process group of its own, and returns its
// output and exit status; a non-zero exit is not an error. A timeout of
// zero or less means Config.DefaultTimeout, and none may exceed
// Config.MaxTimeout. When the timeout passes or ctx ends, the group gets
// SIGTERM, then SIGKILL after Config.Grace, and Run returns the output so
// far with TimedOut or Canceled set; on cancellation the error is ctx's
// error, next to that output. When the shell exits, whatever it left
// running in its group is killed too: only Start runs something that
// outlives its call. A `cd` carries over to the next call.
//
// An error with a nil Output means the command could not be started.
func (m *Manager) Run(ctx context.Context, command string, timeout time.Duration) (*Output, error) {
	return m.RunWith(ctx, command, timeout, Options{})
}

// Options adjust one command.
type Options struct {
	// Dir, when set, is the directory the command starts in instead of the
	// working directory; the directory it ends in is not carried over.
	Dir string
	// Unconfined starts the command without Config.Confine.
	Unconfined bool
	// DetachOnTimeout makes a command that outlives its timeout go on as
	// a background job instead of being killed (Claude Code's Bash): Run
	// returns at the timeout with Output.JobID set, and the job is read,
	// waited for and killed like one Start ran. When Config.MaxRunning
	// jobs already run, the command is killed as usual.
	DetachOnTimeout bool
	// Tail, when set, lets the caller read the command's last line of
	// output while it runs.
	Tail *Tail
}

func (m *Manager) confine(o Options) func(*exec.Cmd) error {
	if o.Unconfined || m.cfg.Confine == nil && m.cfg.Spawner == nil {
		return nil
	}
	return func(*exec.Cmd) error {
		if m.cfg.Confine != nil {
			return m.cfg.Confine()
		}
		return nil
	}
}

// startDir is the directory a command of o starts in.
func (m *Manager) startDir(o Options) (dir, note string, err error) {
	if o.Dir == "" {
		return m.dirForCall()
	}
	if !isDir(o.Dir) {
		return "", "", fmt.Errorf("directory %s does not exist", o.Dir)
	}
	return o.Dir, "", nil
}

// RunWith is Run with per-command options.
func (m *Manager) RunWith(ctx context.Context, command string, timeout time.Duration, o Options) (*Output, error) {
	if timeout <= 0 {
		timeout = m.cfg.DefaultTimeout
	}
	timeout = min(timeout, m.cfg.MaxTimeout)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	dir, note, err := m.startDir(o)
	if err != nil {
		return nil, err
	}
	n := m.seq.Add(1)
	s := m.prepare("bash", n)
	start := time.Now()
	p := m.takeWarm(command, dir, o, s)
	if p == nil {
		if p, err = m.spawn(command, dir, true, s, m.confine(o)); err != nil {
			s.close()
			return nil, err
		}
	}
	if err := m.track(p); err != nil {
		m.untrack(p)
		p.terminate(m.cfg.Grace)
		p.finish(m.cfg.Grace, false)
		s.close()
		return nil, err
	}

	if o.Tail != nil {
		o.Tail.s.Store(s)
	}
	out := &Output{PGID: p.pgid, CwdReset: note}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	why := p.wait(timer.C, ctx.Done())
	if why == endedTimeout && o.DetachOnTimeout {
		if id, ok := m.adopt(p, s, n, command, start); ok {
			// The job's supervisor untracks it when it ends.
			out.JobID, out.JobFile = id, m.jobFile(id)
			out.Duration = time.Since(start)
			out.Merged, out.Stdout, out.Stderr = s.texts(m.cfg.OutputLimit)
			out.Cwd = m.Cwd()
			return out, nil
		}
	}
	defer m.untrack(p)
	why = p.settle(why, m.cfg.Grace)
	if err := p.openErr(); err != nil {
		s.close()
		return nil, fmt.Errorf("confining the command: %w", err)
	}
	out.TimedOut, out.Canceled = why == endedTimeout, why == endedCancel
	out.Duration = time.Since(start)
	out.ExitCode, out.Signal = p.exitStatus()
	out.Merged, out.Stdout, out.Stderr = s.texts(m.cfg.OutputLimit)
	if m.cfg.TrimSpill {
		s.trimSpill()
	}
	s.close()
	var cwd, endNote string
	if o.Dir != "" {
		cwd = m.Cwd()
	} else {
		cwd, endNote = m.endCwd(dir, p.cwd.last())
	}
	out.Cwd = cwd
	if endNote != "" {
		out.CwdReset = endNote
	}
	m.prewarm()
	if out.Canceled {
		return out, ctx.Err()
	}
	return out, nil
}

// Close kills every process group the Manager started, foreground and
// background, waits for them, and removes its files. Later calls fail with
// ErrClosed; Close itself may be called again.
func (m *Manager) Close() error {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil
	}
	m.closed = true
	procs := make([]*proc, 0, len(m.procs))
	for p := range m.procs {
		procs = append(procs, p)
	}
	jobs := make([]*job, 0, len(m.jobs))
	for _, j := range m.jobs {
		jobs = append(jobs, j)
	}
	m.mu.Unlock()

	for _, p := range procs {
		p.requestKill()
	}
	m.dropWarm()
	for _, p := range procs {
		<-p.finished
	}
	for _, j := range jobs {
		<-j.done
		j.sink.close()
	}

	m.watch.stop()
	if m.cfg.Spawner != nil {
		m.cfg.Spawner.Close()
	}

	m.mu.Lock()
	files := m.files
	m.files = nil
	outFiles := m.outFiles
	m.outFiles = nil
	spilled := m.spilled
	m.spilled = nil
	m.mu.Unlock()
	var errs []error
	for _, name := range spilled {
		if err := m.cfg.Spill.Remove(name); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	if m.outDir != nil {
		for _, name := range outFiles {
			if err := m.outDir.Remove(name); err != nil && !errors.Is(err, os.ErrNotExist) {
				errs = append(errs, err)
			}
		}
		if m.ownOut {
			errs = append(errs, m.outDir.(rootFiles).Close())
		}
	}
	if m.ownTmp {
		errs = append(errs, os.RemoveAll(m.tmp))
	} else {
		for _, f := range files {
			if err := os.Remove(f); err != nil && !errors.Is(err, os.ErrNotExist) {
				errs = append(errs, err)
			}
		}
	}
	return errors.Join(errs...)
}
