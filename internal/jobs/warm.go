package jobs

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
)

// A warm shell is the next foreground command's shell, started as soon as
// the last one ended, so that a command costs no fork, exec or shell
// start-up of its own (most of a short command's time): it waits, with
// its output pipes made and in the directory the next command starts in,
// until Run hands it the command. It is started as a command would be,
// with the same program, arguments but the command, environment,
// descriptors and confinement; only the wrapper's first steps differ: it
// reads the command from a memfd on descriptor warmTextFD once a line
// comes down the pipe on warmGateFD, closes both, and goes on as the
// wrapper does, so the command finds the shell as a fresh one would be
// (its SECONDS start then). A shell that is not bash, an environment that
// a shell reads at its start (BASH_ENV, ENV) or sets a clock with
// (SECONDS), a command over warmMaxCommand bytes, a directory other than
// the one it waits in, and Options.Unconfined take a new shell instead.
type warm struct {
	p     *proc
	dir   string
	dirFI os.FileInfo
	gate  *os.File // the write end of the pipe the shell waits on, or nil when a spawner holds it (Gated)
	text  *os.File // the command's memfd, the shell's descriptor warmTextFD
	ready chan struct{}
	err   error // why the shell did not start; read after ready
}

// Descriptors of a warm shell: the command's text and the gate, below
// cwdFD and above what scripts reach for first.
const (
	warmTextFD = 7
	warmGateFD = 8
)

// warmMaxCommand bounds the commands a warm shell takes: a longer one gets
// a new shell, whose argument limit (E2BIG) applies as before.
const warmMaxCommand = 64 << 10

// warmScript is wrapper with the command read from warmTextFD once a line
// comes on warmGateFD, instead of from $1; the trap stays the last step
// before the eval, as in wrapper, so $_ and $? are what they would be.
func warmScript(wrapper string) string {
	t, g := string(rune('0'+warmTextFD)), string(rune('0'+warmGateFD))
	return `builtin read -r __hands_go <&` + g + ` || builtin exit 0; ` +
		`IFS= builtin read -r -d '' __hands_cmd <&` + t + `; ` +
		`exec ` + t + `<&- ` + g + `<&-; builtin unset __hands_go; SECONDS=0; ` +
		strings.TrimPrefix(wrapper, `__hands_cmd=$1; `)
}

// warmable reports whether the Manager's commands may get warm shells.
func (m *Manager) warmable() bool {
	if !warmSupported || m.cfg.NoWarm || m.shellName() != "bash" {
		return false
	}
	for _, kv := range m.env {
		for _, name := range []string{"BASH_ENV=", "ENV=", "SECONDS="} {
			if strings.HasPrefix(kv, name) {
				return false
			}
		}
	}
	return true
}

// prewarm starts the next command's shell in the working directory, if
// there is none and the Manager is open.
func (m *Manager) prewarm() {
	if !m.warmOK {
		return
	}
	m.mu.Lock()
	if m.closed || m.warm != nil {
		m.mu.Unlock()
		return
	}
	dir := m.cwd
	w := &warm{dir: dir, ready: make(chan struct{})}
	m.warm = w
	m.mu.Unlock()
	go func() {
		w.err = m.startWarm(w)
		close(w.ready)
		if w.err != nil {
			m.mu.Lock()
			if m.warm == w {
				m.warm = nil
			}
			m.mu.Unlock()
		}
	}()
}

// startWarm starts w's shell.
func (m *Manager) startWarm(w *warm) error {
	fi, err := os.Stat(w.dir)
	if err != nil {
		return err
	}
	w.dirFI = fi
	text, err := commandFile()
	if err != nil {
		return err
	}
	extra := make([]*os.File, warmGateFD-2)
	extra[warmTextFD-3] = text
	var gateR, gateW *os.File
	if m.cfg.Spawner == nil { // else the spawner makes the gate
		if gateR, gateW, err = os.Pipe(); err != nil {
			text.Close()
			return err
		}
		extra[warmGateFD-3] = gateR
	}
	name := m.argv0()
	cmd := &exec.Cmd{Path: m.shell, Args: []string{name, "-c", m.warmWrapper, name}, Dir: w.dir, Env: m.env}
	p, err := launch(cmd, m.cfg.MergeStreams, &m.watch, m.confine(Options{}), m.cfg.Spawner, true, extra)
	if gateR != nil {
		gateR.Close()
	}
	if err != nil {
		text.Close()
		if gateW != nil {
			gateW.Close()
		}
		return err
	}
	w.p, w.gate, w.text = p, gateW, text
	return nil
}

// takeWarm returns the warm shell, given command and draining into s, if
// one is there for a command of o starting in dir; else nil, and the
// caller starts a new shell. A warm shell it cannot use is dropped.
func (m *Manager) takeWarm(command, dir string, o Options, s *sink) *proc {
	if o.Unconfined || len(command) > warmMaxCommand || strings.IndexByte(command, 0) >= 0 {
		return nil
	}
	m.mu.Lock()
	w := m.warm
	if w != nil && w.dir == dir {
		m.warm = nil
	}
	m.mu.Unlock()
	if w == nil {
		return nil
	}
	if w.dir != dir {
		if o.Dir == "" { // the working directory moved: it waits in vain
			m.dropWarmIf(w)
		}
		return nil
	}
	<-w.ready
	if w.err != nil {
		return nil
	}
	if fi, err := os.Stat(dir); err != nil || !os.SameFile(fi, w.dirFI) {
		go w.drop(m)
		return nil
	}
	if err := w.give(command); err != nil {
		go w.drop(m)
		return nil
	}
	w.p.drainInto(s, m.cfg.MergeStreams)
	return w.p
}

// give writes command where w's shell reads it and lets the shell go on:
// down its gate, or through the spawner that holds the gate, which first
// brings the sandbox up to date (Gated). The shell must still be waiting.
func (w *warm) give(command string) error {
	defer w.text.Close()
	select {
	case <-w.p.exited:
		return errors.New("the warm shell has exited")
	default:
	}
	if _, err := w.text.WriteAt([]byte(command), 0); err != nil {
		return err
	}
	if w.gate == nil {
		return w.p.sp.(Gated).Open()
	}
	_, err := w.gate.Write([]byte{'\n'})
	w.gate.Close()
	return err // EPIPE: the shell is gone; it never had the command
}

// drop ends a warm shell that no command will take.
func (w *warm) drop(m *Manager) {
	<-w.ready
	if w.err != nil {
		return
	}
	if w.gate != nil {
		w.gate.Close()
	}
	w.text.Close()
	w.p.drainDiscard()
	w.p.signal(syscall.SIGKILL)
	<-w.p.exited
	w.p.finish(0, false)
}

// drainDiscard reads p's pipes to their end and drops what it reads.
func (p *proc) drainDiscard() {
	var readers sync.WaitGroup
	for _, f := range p.pipes {
		readers.Go(func() { io.Copy(io.Discard, f) })
	}
	go func() {
		readers.Wait()
		close(p.drained)
	}()
}

// dropWarmIf drops w, in the background, if it is the warm shell.
func (m *Manager) dropWarmIf(w *warm) {
	m.mu.Lock()
	if m.warm != w {
		m.mu.Unlock()
		return
	}
	m.warm = nil
	m.mu.Unlock()
	go w.drop(m)
}

// dropWarm drops the warm shell, if any, and waits until it is gone.
func (m *Manager) dropWarm() {
	m.mu.Lock()
	w := m.warm
	m.warm = nil
	m.mu.Unlock()
	if w != nil {
		w.drop(m)
	}
}
