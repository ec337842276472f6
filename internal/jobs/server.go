package jobs

import (
	"fmt"
	"os"
	"os/exec"
	"sync"
	"syscall"
)

// serverStderrKeep is how many bytes of a server's stderr are kept, the
// last ones, to say why it died.
const serverStderrKeep = 8 << 10

// A Server is a program that lives as long as the session and talks over
// its stdin and stdout, such as a language server. Like a command, it runs
// in a process group of its own with the parent-death signal, the
// Manager's watchdog knows the group, and Kill, the Manager's Close or the
// server's own death ends the whole group: nothing it started outlives it.
// Unlike a command it gets neither the wrapper nor Config.Confine nor
// Config.Spawner: it is the user's configured program, not the model's.
type Server struct {
	p      *proc
	stdin  *os.File
	stdout *os.File
	done   chan struct{}

	mu     sync.Mutex
	stderr []byte // the last serverStderrKeep bytes
}

// StartServer starts argv (argv[0] looked up on PATH) in dir with the
// Manager's environment plus env (NAME=value entries that override).
// The error wraps exec.ErrNotFound when argv[0] is not installed.
func (m *Manager) StartServer(argv []string, dir string, env []string) (*Server, error) {
	if len(argv) == 0 {
		return nil, fmt.Errorf("starting a server: no command")
	}
	path, err := exec.LookPath(argv[0])
	if err != nil {
		return nil, err
	}
	if err := m.checkOpen(); err != nil {
		return nil, err
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		outR.Close()
		outW.Close()
		return nil, err
	}
	e := append([]string(nil), m.env...)
	for _, kv := range env {
		e = setEnv(e, kv)
	}
	cmd := &exec.Cmd{Path: path, Args: argv, Dir: dir, Env: e, Stdin: inR, Stdout: outW, Stderr: errW, SysProcAttr: sysProcAttr()}
	p := &proc{
		cmd:      cmd,
		watch:    &m.watch,
		exited:   make(chan struct{}),
		drained:  make(chan struct{}),
		killReq:  make(chan struct{}),
		finished: make(chan struct{}),
		pipes:    []*os.File{errR},
	}
	started := make(chan error, 1)
	go p.run(nil, started)
	err = <-started
	inR.Close()
	outW.Close()
	errW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		errR.Close()
		return nil, fmt.Errorf("starting %s: %w", argv[0], err)
	}
	s := &Server{p: p, stdin: inW, stdout: outR, done: make(chan struct{})}
	go func() {
		s.keepStderr(errR)
		close(p.drained)
	}()
	tracked := m.track(p) == nil
	go func() {
		p.await(nil, nil, m.cfg.Grace)
		if tracked {
			m.untrack(p)
		}
		s.stdin.Close()
		close(s.done)
	}()
	if !tracked {
		<-s.done
		s.stdout.Close()
		return nil, ErrClosed
	}
	return s, nil
}

// checkOpen fails with ErrClosed once the Manager is closed.
func (m *Manager) checkOpen() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return ErrClosed
	}
	return nil
}

// keepStderr reads the server's stderr to its end, keeping the last bytes.
func (s *Server) keepStderr(r *os.File) {
	buf := make([]byte, 4096)
	for {
		n, err := r.Read(buf)
		if n > 0 {
			s.mu.Lock()
			s.stderr = append(s.stderr, buf[:n]...)
			if over := len(s.stderr) - serverStderrKeep; over > 0 {
				s.stderr = append(s.stderr[:0], s.stderr[over:]...)
			}
			s.mu.Unlock()
		}
		if err != nil {
			return
		}
	}
}

// Stdin is the server's standard input; Kill closes it.
func (s *Server) Stdin() *os.File { return s.stdin }

// Stdout is the server's standard output. The caller closes it when done
// reading; it ends (EOF) when the server's group is gone.
func (s *Server) Stdout() *os.File { return s.stdout }

// Done is closed once the server has exited, by itself or killed, and its
// whole group is gone.
func (s *Server) Done() <-chan struct{} { return s.done }

// Pid is the server's process id, which is also its process group's id.
func (s *Server) Pid() int { return s.p.cmd.Process.Pid }

// Stderr returns the last few kilobytes the server wrote to stderr, as safe
// text.
func (s *Server) Stderr() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return Safe(s.stderr)
}

// ExitStatus describes how the server ended ("exit status 2", "signal
// SIGKILL"), or "" while it runs.
func (s *Server) ExitStatus() string {
	select {
	case <-s.done:
	default:
		return ""
	}
	code, sig := s.p.exitStatus()
	if sig != "" {
		return "signal " + sig
	}
	return fmt.Sprintf("exit status %d", code)
}

// Kill ends the server's whole group (SIGTERM, then SIGKILL after the
// Manager's grace) and waits until it is gone. Calling it again, or after
// the server died, is harmless.
func (s *Server) Kill() {
	s.p.requestKill()
	<-s.done
}

// Signal sends sig to the server's group while it runs; for tests that
// need a server to die the way a crash kills it.
func (s *Server) Signal(sig syscall.Signal) { s.p.signal(sig) }
