package coord

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// Local connects the loops of one process.
type Local struct {
	mu      sync.Mutex
	members map[string]*localMember
	ended   map[string]bool
	closed  bool
	seq     atomic.Uint64
}

// NewLocal returns a coordinator for the loops of this process.
func NewLocal() *Local {
	return &Local{members: map[string]*localMember{}, ended: map[string]bool{}}
}

// Join implements Coordinator.
func (l *Local) Join(_ context.Context, execID string) (Member, error) {
	if execID == "" {
		return nil, fmt.Errorf("coord: an execution id is needed to join")
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return nil, ErrClosed
	}
	if _, ok := l.members[execID]; ok {
		return nil, fmt.Errorf("coord: a loop with execution id %q is already running", execID)
	}
	m := &localMember{l: l, mailbox: newMailbox(execID)}
	l.members[execID] = m
	delete(l.ended, execID)
	return m, nil
}

// Close implements Coordinator.
func (l *Local) Close() error {
	l.mu.Lock()
	ms := make([]*localMember, 0, len(l.members))
	for _, m := range l.members {
		ms = append(ms, m)
	}
	l.closed = true
	l.mu.Unlock()
	for _, m := range ms {
		m.Leave()
	}
	return nil
}

// target finds a running member, or says why there is none.
func (l *Local) target(id string) (*localMember, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if m, ok := l.members[id]; ok {
		return m, nil
	}
	if l.ended[id] {
		return nil, targetErr(ErrEnded, id, "")
	}
	return nil, targetErr(ErrUnknown, id, "")
}

type localMember struct {
	l *Local
	mailbox
}

func (m *localMember) Query(ctx context.Context, to, question string, timeout time.Duration) (string, error) {
	if m.isLeft() {
		return "", ErrClosed
	}
	t, err := m.l.target(to)
	if err != nil {
		return "", err
	}
	id := m.id + "-" + strconv.FormatUint(m.l.seq.Add(1), 10)
	reply := make(chan string, 1)
	var once sync.Once
	msg := Message{Kind: KindQuery, From: m.id, ID: id, Question: question, Reply: func(a string) error {
		sent := false
		once.Do(func() { reply <- a; sent = true })
		if !sent {
			return fmt.Errorf("coord: query %s was already answered", id)
		}
		return nil
	}}
	if err := t.deliver(msg); err != nil {
		return "", err
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case a := <-reply:
		return a, nil
	case <-t.done:
		return "", targetErr(ErrEnded, to, "it ended while the query waited")
	case <-timer.C:
		return "", targetErr(ErrTimeout, to, "no answer within "+timeout.String())
	case <-ctx.Done():
		return "", ctx.Err()
	case <-m.done:
		return "", ErrClosed
	}
}

func (m *localMember) Share(_ context.Context, to []string, dataType string, data json.RawMessage) error {
	if m.isLeft() {
		return ErrClosed
	}
	targets := make([]*localMember, 0, len(to))
	for _, id := range to {
		t, err := m.l.target(id)
		if err != nil {
			return err
		}
		targets = append(targets, t)
	}
	for _, t := range targets {
		if err := t.deliver(Message{Kind: KindShare, From: m.id, DataType: dataType, Data: data}); err != nil {
			return err
		}
	}
	return nil
}

func (m *localMember) Leave() error {
	if !m.close() {
		return nil
	}
	m.l.mu.Lock()
	if m.l.members[m.id] == m {
		delete(m.l.members, m.id)
		m.l.ended[m.id] = true
	}
	m.l.mu.Unlock()
	return nil
}
