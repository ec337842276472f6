package lsp

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/hands-dev/hands/internal/jobs"
)

// Defaults of a Manager's bounds.
const (
	DefaultStartTimeout = 60 * time.Second
	DefaultReadyTimeout = 60 * time.Second
	DefaultCloseTimeout = 3 * time.Second
)

// ErrClosed is the error of a Manager used after Close.
var ErrClosed = errors.New("the language servers are shut down: the session is closing")

// Manager runs one session's language servers: one per table entry and
// workspace root, started on first use, kept warm, started anew on the
// call after one died, and shut down by Close. Its methods are safe for
// concurrent use.
type Manager struct {
	// Table is the servers by file extension, first match wins.
	Table []Server
	// Jobs returns the session's job manager, whose process groups,
	// watchdog and Close end the servers with the session and with Hands.
	Jobs func() (*jobs.Manager, error)
	// StartTimeout bounds starting and initializing a server;
	// ReadyTimeout bounds the wait for a server still loading the
	// workspace; CloseTimeout bounds a server's orderly shutdown. Zero
	// means the defaults.
	StartTimeout, ReadyTimeout, CloseTimeout time.Duration

	mu     sync.Mutex
	slots  map[string]*slot
	closed bool
}

// slot holds one server; its lock is held while the server starts, so
// concurrent first calls start it once.
type slot struct {
	mu sync.Mutex
	c  *Client
}

// Client returns the running client of srv for root, starting it (or
// starting it anew after it died). ext is the file extension asked for,
// for the error of a server that is not installed.
func (m *Manager) Client(ctx context.Context, srv Server, root, ext string) (*Client, error) {
	argv, err := srv.argv(ext)
	if err != nil {
		return nil, err
	}
	key := srv.Name + "\x00" + root
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil, ErrClosed
	}
	if m.slots == nil {
		m.slots = map[string]*slot{}
	}
	s := m.slots[key]
	if s == nil {
		s = &slot{}
		m.slots[key] = s
	}
	m.mu.Unlock()

	s.mu.Lock()
	defer s.mu.Unlock()
	if s.c != nil && !s.c.Dead() {
		return s.c, nil
	}
	if s.c != nil {
		s.c.Close(0)
		s.c = nil
	}
	jm, err := m.Jobs()
	if err != nil {
		return nil, fmt.Errorf("starting %s: %w", srv.Name, err)
	}
	sctx, cancel := context.WithTimeout(ctx, or(m.StartTimeout, DefaultStartTimeout))
	defer cancel()
	c, err := start(sctx, jm, srv, argv, root)
	if err != nil {
		if errors.Is(err, jobs.ErrClosed) {
			return nil, ErrClosed
		}
		return nil, fmt.Errorf("starting the language server %s (%s) in %s: %w", srv.Name, strings.Join(argv, " "), root, err)
	}
	m.mu.Lock()
	closed := m.closed
	m.mu.Unlock()
	if closed {
		c.Close(0)
		return nil, ErrClosed
	}
	s.c = c
	return c, nil
}

// ReadyTimeout returns the bound of the wait for a loading server.
func (m *Manager) readyTimeout() time.Duration { return or(m.ReadyTimeout, DefaultReadyTimeout) }

// WaitReady waits (bounded by ReadyTimeout) until c is not loading.
func (m *Manager) WaitReady(ctx context.Context, c *Client) bool {
	return c.WaitReady(ctx, m.readyTimeout())
}

// For returns the table entry for path, its language id, and the
// extension.
func (m *Manager) For(path string) (Server, string, string, bool) {
	s, lang, ok := For(m.Table, path)
	return s, lang, strings.ToLower(filepath.Ext(path)), ok
}

// Running returns the clients whose servers run now.
func (m *Manager) Running() []*Client {
	m.mu.Lock()
	slots := make([]*slot, 0, len(m.slots))
	for _, s := range m.slots {
		slots = append(slots, s)
	}
	m.mu.Unlock()
	var out []*Client
	for _, s := range slots {
		s.mu.Lock()
		if s.c != nil && !s.c.Dead() {
			out = append(out, s.c)
		}
		s.mu.Unlock()
	}
	return out
}

// Close shuts every server down (shutdown and exit, then its group is
// killed) and refuses later calls.
func (m *Manager) Close() {
	m.mu.Lock()
	m.closed = true
	slots := m.slots
	m.slots = nil
	m.mu.Unlock()
	var wg sync.WaitGroup
	for _, s := range slots {
		wg.Go(func() {
			s.mu.Lock()
			defer s.mu.Unlock()
			if s.c != nil {
				s.c.Close(or(m.CloseTimeout, DefaultCloseTimeout))
			}
		})
	}
	wg.Wait()
}

func or(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}
