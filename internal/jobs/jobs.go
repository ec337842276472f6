package jobs

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// Status is where a background job stands.
type Status string

// The statuses of a job.
const (
	Running  Status = "running"
	Exited   Status = "exited"    // the shell exited by itself, with ExitCode
	Killed   Status = "killed"    // by Kill, by Close, or by a signal from elsewhere
	TimedOut Status = "timed out" // its timeout passed and it was killed
)

// job is one background command.
type job struct {
	id, command string
	file        string // the file that holds its whole output, or ""
	p           *proc
	sink        *sink
	start       time.Time
	done        chan struct{} // closed when the job has finished and its status is set

	mu       sync.Mutex
	status   Status
	exitCode int
	signal   string
	end      time.Time
	readPos  int64  // merged output before this has been returned
	cwdReset string // said once, with the first read
}

// JobOutput is what Output returns about a background job.
type JobOutput struct {
	// ID and Command are the job's id and its command.
	ID, Command string
	// Status is the job's status at the time of the read.
	Status Status
	// ExitCode is the shell's exit status once the job has finished (128
	// plus the signal's number if a signal ended it); -1 while it runs.
	ExitCode int
	// Signal names the signal that ended the shell, if one did.
	Signal string
	// Output is the merged output written since the previous Output call
	// (or the start); Output.Path holds all the job's output when this
	// read had to be cut.
	Output Text
	// CwdReset is the note, given once, that the job started in the
	// fallback directory because the working directory had vanished.
	CwdReset string
	// Duration is how long the job has run, or ran.
	Duration time.Duration
}

// Start runs command in the background from the working directory and
// returns its id at once; the job's `cd` does not move the session. A
// timeout of zero or less means none. At most Config.MaxRunning jobs run at
// once (finished ones do not count): past that Start fails with ErrLimit.
// The job's process group is killed by Kill, by its timeout, by Close, and
// by the kernel if the server dies.
func (m *Manager) Start(command string, timeout time.Duration) (string, error) {
	return m.StartWith(command, timeout, Options{})
}

// StartWith is Start with per-command options.
func (m *Manager) StartWith(command string, timeout time.Duration, o Options) (string, error) {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return "", ErrClosed
	}
	running := m.runningLocked()
	if running >= m.cfg.MaxRunning {
		m.mu.Unlock()
		return "", fmt.Errorf("%w: %d of %d", ErrLimit, running, m.cfg.MaxRunning)
	}
	m.starting++
	m.mu.Unlock()
	started := false
	defer func() {
		if !started {
			m.mu.Lock()
			m.starting--
			m.mu.Unlock()
		}
	}()

	dir, note, err := m.startDir(o)
	if err != nil {
		return "", err
	}
	n := m.seq.Add(1)
	s := m.prepare("job", n)
	id, file := m.keepOutput(s, n)
	// A job's final directory is of no use: it gets no pipe for it.
	p, err := m.spawn(command, dir, false, s, m.confine(o))
	if err != nil {
		s.close()
		return "", err
	}
	j := &job{
		id: id, command: command, file: file, p: p, sink: s,
		start: time.Now(), done: make(chan struct{}),
		status: Running, exitCode: -1, cwdReset: note,
	}

	m.mu.Lock()
	m.starting--
	started = true
	if m.closed {
		m.mu.Unlock()
		p.terminate(m.cfg.Grace)
		p.finish(m.cfg.Grace, false)
		s.close()
		return "", ErrClosed
	}
	m.jobs[j.id] = j
	m.procs[p] = struct{}{}
	m.mu.Unlock()
	go m.supervise(j, timeout)
	return j.id, nil
}

// adopt makes p, a foreground command numbered n that outlived its
// timeout, a background job (Options.DetachOnTimeout): it keeps running,
// its output so far and from now on in s, and is supervised like a job
// Start ran, with no timeout. It returns the job's id, or false when the
// Manager is closed or Config.MaxRunning jobs already run; the caller then
// ends the command as usual.
func (m *Manager) adopt(p *proc, s *sink, n int64, command string, start time.Time) (string, bool) {
	id, file := m.keepOutput(s, n)
	m.mu.Lock()
	if m.closed || m.runningLocked() >= m.cfg.MaxRunning {
		m.mu.Unlock()
		return "", false
	}
	j := &job{
		id: id, command: command, file: file, p: p, sink: s,
		start: start, done: make(chan struct{}), status: Running, exitCode: -1,
	}
	m.jobs[j.id] = j
	m.mu.Unlock()
	go m.supervise(j, 0)
	return j.id, true
}

// keepOutput names the job numbered n and gives it its output file,
// ID.output in the output directory, made new (O_EXCL) through the
// directory's handle, so never through a link planted at the name, and
// makes s write the whole merged output there. A name already taken (the
// directory may be shared with other sessions) moves the job to the next
// free number. It returns the job's id and the file's path: "" without an
// output directory or when the file cannot be made (the job runs all the
// same, its output kept as any command's).
func (m *Manager) keepOutput(s *sink, n int64) (id, path string) {
	id = fmt.Sprintf("job-%d", n)
	if m.outDir == nil {
		return id, ""
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for range 100 {
		if m.closed {
			return id, ""
		}
		name := id + ".output"
		f, path, err := m.outDir.Create(name)
		if errors.Is(err, fs.ErrExist) {
			id = fmt.Sprintf("job-%d", m.seq.Add(1))
			continue
		}
		if err != nil {
			return id, ""
		}
		m.outFiles = append(m.outFiles, name)
		s.keepIn(f, path)
		return id, path
	}
	return id, ""
}

// OutputFiles is a directory the server alone writes, held open, where
// background jobs' output files are made (see Config.Output).
type OutputFiles interface {
	// Create makes the file name new, never through a link planted at
	// the name (an error matching fs.ErrExist when the name is taken),
	// and returns it open for reading and writing, with its path.
	Create(name string) (*os.File, string, error)
	// Remove removes the file name.
	Remove(name string) error
}

// rootFiles is Config.OutputDir opened.
type rootFiles struct{ *os.Root }

func (r rootFiles) Create(name string) (*os.File, string, error) {
	f, err := r.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	return f, filepath.Join(r.Name(), name), err
}

// OutputFile returns the file that holds the whole output of job id as it
// runs (see Config.OutputDir): "" when it has none. An unknown id is
// ErrNotFound.
func (m *Manager) OutputFile(id string) (string, error) {
	j, err := m.job(id)
	if err != nil {
		return "", err
	}
	return j.file, nil
}

// jobFile is OutputFile without the error.
func (m *Manager) jobFile(id string) string {
	f, _ := m.OutputFile(id)
	return f
}

// runningLocked counts the jobs running and being started; the caller
// holds m.mu.
func (m *Manager) runningLocked() int {
	running := m.starting
	for _, j := range m.jobs {
		if !j.finished() {
			running++
		}
	}
	return running
}

func (j *job) finished() bool {
	select {
	case <-j.done:
		return true
	default:
		return false
	}
}

// supervise waits for the job to end, by itself, by its timeout or by a
// kill, and records how it ended.
func (m *Manager) supervise(j *job, timeout time.Duration) {
	p := j.p
	var expired <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		expired = t.C
	}
	status := Exited
	switch p.await(expired, nil, m.cfg.Grace) {
	case endedTimeout:
		status = TimedOut
	case endedKill:
		status = Killed
	}
	code, sig := p.exitStatus()
	if status == Exited && sig != "" {
		status = Killed
	}
	j.mu.Lock()
	j.status, j.exitCode, j.signal, j.end = status, code, sig, time.Now()
	j.mu.Unlock()
	m.untrack(p)
	close(j.done)
}

func (m *Manager) job(id string) (*job, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, ErrClosed
	}
	j, ok := m.jobs[id]
	if !ok {
		return nil, fmt.Errorf("%w: %q", ErrNotFound, id)
	}
	return j, nil
}

// Output returns the job's status and the output it wrote since the
// previous call. With block, it first waits for the job to finish, for
// timeout (zero or less: no limit) or for ctx to end, whichever comes
// first; a job still running then is no error, its status says so. An
// unknown id is ErrNotFound.
func (m *Manager) Output(ctx context.Context, id string, block bool, timeout time.Duration) (*JobOutput, error) {
	return m.output(ctx, id, block, timeout, false)
}

// OutputAll is Output with all the job's output from its start, not only
// what the previous call left unread.
func (m *Manager) OutputAll(ctx context.Context, id string, block bool, timeout time.Duration) (*JobOutput, error) {
	return m.output(ctx, id, block, timeout, true)
}

func (m *Manager) output(ctx context.Context, id string, block bool, timeout time.Duration, all bool) (*JobOutput, error) {
	j, err := m.job(id)
	if err != nil {
		return nil, err
	}
	if block {
		var expired <-chan time.Time
		if timeout > 0 {
			t := time.NewTimer(timeout)
			defer t.Stop()
			expired = t.C
		}
		select {
		case <-j.done:
		case <-expired:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	// The status first: if the job had finished, all its output is in.
	j.mu.Lock()
	defer j.mu.Unlock()
	out := &JobOutput{ID: j.id, Command: j.command, Status: j.status, ExitCode: j.exitCode, Signal: j.signal, CwdReset: j.cwdReset}
	j.cwdReset = ""
	if j.end.IsZero() {
		out.Duration = time.Since(j.start)
	} else {
		out.Duration = j.end.Sub(j.start)
	}
	from := j.readPos
	if all {
		from = 0
	}
	out.Output, j.readPos = j.sink.since(from, m.cfg.OutputLimit)
	return out, nil
}

// Kill kills the job's whole process group (SIGTERM, then SIGKILL after
// Config.Grace) and returns once it is gone. An unknown id is ErrNotFound;
// a job that has already finished is ErrNotRunning.
func (m *Manager) Kill(id string) error {
	j, err := m.job(id)
	if err != nil {
		return err
	}
	if j.finished() {
		return fmt.Errorf("%w: %s %s", ErrNotRunning, j.id, j.statusNow())
	}
	j.p.requestKill()
	<-j.done
	return nil
}

func (j *job) statusNow() Status {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.status
}
