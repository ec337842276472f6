package hands

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"sync"

	"github.com/hands-dev/hands/internal/jobs"
	"github.com/hands-dev/hands/internal/permission"
	"github.com/hands-dev/hands/internal/sandbox"
	"github.com/hands-dev/hands/internal/sandbox/confine"
	"github.com/hands-dev/hands/internal/tools"
	"github.com/hands-dev/hands/model"
	"github.com/hands-dev/hands/tool"
)

// Context is context.Context, named here so Options reads plainly.
type Context = context.Context

// Session is one conversation's state: working directory, read ledger,
// background jobs and a temporary directory. Close frees all of it.
type Session struct {
	rt    *Runtime
	state *tools.State
	exec  *tool.Executor
	dir   string   // the session's private directory
	tmp   string   // dir/tmp: the commands' TMPDIR
	saved *fileDir // saved results, the server's alone (sessionfiles.go)
	tasks *fileDir // background jobs' output, likewise
	perm  *permission.Policy
	ask   tool.AskFunc
	// agents runs the task tool's subagents.
	agents *subagents

	once     sync.Once
	closeErr error
	nsaved   int
	// preparing is the probe PrepareSandbox started, which Close waits
	// for: its spawner is set up in the session's directory.
	preparing sync.WaitGroup

	execID  string
	events  chan CoordEvent
	closing chan struct{}
	mu      sync.Mutex
}

// NewSession starts a session working in the first root.
func (r *Runtime) NewSession() (*Session, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil, errors.New("hands: runtime is closed")
	}
	dir := r.takeSpareDir() // made by the sandbox's probe, whose spawner is set up for it
	if dir == "" {
		var err error
		if dir, err = newSessionDir(r.tmp.path); err != nil {
			return nil, fmt.Errorf("hands: session temp dir: %w", err)
		}
	}
	tmp := filepath.Join(dir, "tmp")
	grants := &sandbox.Grants{}
	saved, tasks := r.sessionFiles(dir, grants)
	s := &Session{rt: r, dir: dir, tmp: tmp, saved: saved, tasks: tasks, state: tools.NewState(r.fs.WithGrants(grants), r.limits, tmp),
		execID: r.nextExecID(), closing: make(chan struct{})}
	if err := r.joinLoop(s); err != nil {
		removeAll(dir)
		return nil, fmt.Errorf("hands: %w", err)
	}
	s.state.Behavior = r.behavior
	s.state.Web = r.web
	s.state.Model = r.model
	s.state.Skills = r.skills
	s.agents = &subagents{parent: s}
	s.state.Agents = s.agents
	r.startShell(s.state, saved, tasks)
	r.startLSP(s.state)
	disabled := map[string]bool{}
	for _, d := range r.opts.DisabledTools {
		disabled[d] = true
	}
	// The plan file is inside the first root, where the tools may write
	// it (Claude Code keeps it in ~/.claude/plans).
	s.perm = r.perm.Session(s.state.Cwd, filepath.Join(r.fs.Roots()[0], ".claude", "plans", filepath.Base(dir)+".md"))
	s.state.Plan = s.perm
	s.ask = r.askUser()
	var policy tool.Policy = s.perm
	if r.opts.Policy != nil {
		policy = policies{s.perm, r.opts.Policy}
	}
	s.exec = &tool.Executor{
		Registry:   r.reg,
		Disabled:   disabled,
		Policy:     policy,
		Hooks:      r.opts.Hooks,
		Middleware: r.opts.Middleware,
		Render:     r.profile.RenderFuncSaving(r.fs.Roots(), s.save),
		Save:       s.save,
	}
	if r.opts.Ask != nil {
		s.exec.Ask = r.opts.Ask
	}
	r.sessions[s] = struct{}{}
	return s, nil
}

// SetModel sets the model that answers web_fetch's prompt in this session
// (the MCP server sets the client's, through sampling), replacing
// Options.Model. Call it before the session's first call.
func (s *Session) SetModel(m model.Model) { s.state.Model = m }

// Model returns the model that answers web_fetch's prompt in this session,
// nil when there is none.
func (s *Session) Model() model.Model { return s.state.Model }

// Executor returns the session's executor, for hosts that observe or extend
// it before the first call.
func (s *Session) Executor() *tool.Executor { return s.exec }

// Cwd returns the session's working directory.
func (s *Session) Cwd() string { return s.state.Cwd() }

// TempDir returns the session's temporary directory: the commands' TMPDIR,
// where the whole output of long commands is kept too.
func (s *Session) TempDir() string { return s.tmp }

func (s *Session) env() *tool.Env {
	return &tool.Env{Session: s.state, SessionID: filepath.Base(s.dir), Cwd: s.state.Cwd, Ask: s.ask, Progress: s.rt.opts.Progress}
}

// Call runs one call through the pipeline.
func (s *Session) Call(ctx context.Context, call tool.Call) tool.Result {
	return s.exec.Execute(ctx, s.env(), call)
}

// Batch runs calls as one batch: consecutive concurrency-safe calls in
// parallel, others alone, results in call order.
func (s *Session) Batch(ctx context.Context, calls []tool.Call) []tool.Result {
	return s.exec.Batch(ctx, s.env(), calls)
}

// Stream accepts calls one by one as a model streams them.
func (s *Session) Stream(ctx context.Context) *tool.Stream {
	return s.exec.Stream(ctx, s.env())
}

// save keeps the whole text of an oversized result in the session's
// results directory (sessionfiles.go) and returns its path. The file is
// made new through the directory's handle (O_EXCL: a link planted at the
// name is refused, never written through), in a directory commands cannot
// write.
func (s *Session) save(callID, text string) (string, error) {
	for range 100 {
		s.mu.Lock()
		s.nsaved++
		n := s.nsaved
		s.mu.Unlock()
		name := fmt.Sprintf("result-%03d.txt", n)
		if callID != "" && tool.ValidName(callID) {
			name = fmt.Sprintf("result-%03d-%s.txt", n, callID)
		}
		f, path, err := s.saved.Create(name)
		if errors.Is(err, fs.ErrExist) {
			continue // something is in the way: take the next number
		}
		if err != nil {
			return "", err
		}
		_, err = f.WriteString(text)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return path, err
	}
	return "", errors.New("no free name for a saved result")
}

// Close ends the session: its jobs are killed and its temporary files
// removed. It is safe to call more than once.
func (s *Session) Close() error {
	s.once.Do(func() {
		s.agents.close()
		s.rt.mu.Lock()
		delete(s.rt.sessions, s)
		s.rt.mu.Unlock()
		s.mu.Lock()
		close(s.closing) // under mu: PrepareSandbox adds to preparing only before
		s.mu.Unlock()
		s.preparing.Wait()
		var left error
		if c := s.state.Coordination; c != nil && c.Member != nil {
			left = c.Member.Leave()
		}
		var spare error
		if sp := s.rt.probedSpawner(s.tmp); sp != nil {
			spare = sp.Close() // the probe's, set up for this session, which ran no command
		}
		s.closeErr = errors.Join(left, spare, s.state.Close(), s.saved.close(), s.tasks.close(), removeAll(s.dir))
	})
	return s.closeErr
}

// newSessionDir makes a session's directory in the runtime's, with tmp/
// in it (results/ and tasks/ are made when first used).
func newSessionDir(parent string) (string, error) {
	dir, err := os.MkdirTemp(parent, sessionDirPrefix)
	if err != nil {
		return "", err
	}
	if err := os.Mkdir(filepath.Join(dir, "tmp"), 0o700); err != nil {
		os.RemoveAll(dir)
		return "", err
	}
	return dir, nil
}

// startShell lets a session make its job manager, confined as the options
// say, when its first shell command runs.
func (r *Runtime) startShell(st *tools.State, saved, tasks *fileDir) {
	st.StartJobs = func(dir string) (*jobs.Manager, error) {
		var extra []string
		for k, v := range r.opts.Env {
			extra = append(extra, k+"="+v)
		}
		sort.Strings(extra)
		cfg := jobs.Config{
			Shell:          r.opts.Shell,
			Env:            jobs.BuildEnv(os.Environ(), extra...),
			TempDir:        st.TempDir,
			Output:         tasks,
			Spill:          saved,
			TrimSpill:      st.Behavior.ClaudeSessionFiles,
			MergeStreams:   !st.Behavior.SeparateStreams,
			NameByPath:     st.Behavior.ShellNamedByPath,
			RawText:        st.Behavior.ShellRawText,
			DefaultTimeout: r.limits.BashTimeout,
			MaxTimeout:     r.limits.BashMaxTimeout,
			MaxRunning:     r.limits.MaxJobs,
			OutputLimit:    r.limits.BashOutputChars,
			NoWarm:         r.opts.NoWarmShell,
		}
		if err := r.sandboxFor(&cfg, st.TempDir); err != nil {
			return nil, err
		}
		m, err := jobs.NewManager(cfg, dir, r.fs.Roots()[0])
		if err != nil {
			return nil, fmt.Errorf("starting the shell: %w", err)
		}
		return m, nil
	}
}

func (r *Runtime) confinePolicy(tempDir string) confine.Policy {
	return confine.Policy{Disabled: r.opts.NoSandbox, Roots: r.fs.Roots(), TempDir: tempDir, Writable: r.opts.Writable, DenyRead: r.opts.Deny,
		ResolveUnix: r.masksUnixSockets(), UnixSockets: r.opts.UnixSockets}
}

// Todo is one task of a session's list (the todo_write tool's).
type Todo = tools.Todo

// Todos returns the session's task list, as the model last wrote it.
func (s *Session) Todos() []Todo { return s.state.Todos.List() }
