package coord

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
)

// Subjects: each loop answers queries on hands.coord.<id>.query and takes
// shared data on hands.coord.<id>.share (both request/reply, so the sender
// knows it was delivered); every loop says it is alive on
// hands.coord.presence every Heartbeat, and "bye" when it leaves.
const (
	subjectPrefix   = "hands.coord."
	presenceSubject = subjectPrefix + "presence"
)

// Heartbeat is how often a NATS member says it is alive; a member silent
// for three heartbeats has ended.
var Heartbeat = 500 * time.Millisecond

// validID reports whether id is what an execution id may hold over NATS,
// one subject token: 1 to 128 of A-Z, a-z, 0-9, _ and -. (A function, not
// the regexp ^[A-Za-z0-9_-]{1,128}$: compiling that at start-up cost every
// process 1,700 allocations.)
func validID(id string) bool {
	if len(id) == 0 || len(id) > 128 {
		return false
	}
	for i := 0; i < len(id); i++ {
		switch c := id[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '_', c == '-':
		default:
			return false
		}
	}
	return true
}

// NATS connects loops through a NATS server.
type NATS struct {
	nc      *nats.Conn
	mu      sync.Mutex
	seen    map[string]presence // every loop heard of, and when
	members map[string]*natsMember
	presSub *nats.Subscription
	seq     atomic.Uint64
	stop    chan struct{}
	wg      sync.WaitGroup
}

type presence struct {
	last time.Time
	bye  bool
}

type wire struct {
	From     string          `json:"from"`
	ID       string          `json:"id,omitempty"`
	Question string          `json:"question,omitempty"`
	DataType string          `json:"data_type,omitempty"`
	Data     json.RawMessage `json:"data,omitempty"`
	// Answer or Error reply to a query or share; State is a heartbeat's.
	Answer string `json:"answer,omitempty"`
	Error  string `json:"error,omitempty"`
	State  string `json:"state,omitempty"`
}

// DialNATS connects to the NATS server at url (nats://host:4222).
func DialNATS(url string) (*NATS, error) {
	nc, err := nats.Connect(url, nats.Name("hands"), nats.MaxReconnects(-1))
	if err != nil {
		return nil, fmt.Errorf("coord: connecting to %s: %w", url, err)
	}
	n := &NATS{nc: nc, seen: map[string]presence{}, members: map[string]*natsMember{}, stop: make(chan struct{})}
	n.presSub, err = nc.Subscribe(presenceSubject, func(m *nats.Msg) {
		var w wire
		if json.Unmarshal(m.Data, &w) != nil || !validID(w.From) {
			return
		}
		n.mu.Lock()
		n.seen[w.From] = presence{last: time.Now(), bye: w.State == "bye"}
		n.mu.Unlock()
	})
	if err != nil {
		nc.Close()
		return nil, err
	}
	n.wg.Add(1)
	go n.beat()
	return n, nil
}

// beat says every member of this connection is alive, each Heartbeat.
func (n *NATS) beat() {
	defer n.wg.Done()
	t := time.NewTicker(Heartbeat)
	defer t.Stop()
	for {
		select {
		case <-n.stop:
			return
		case <-t.C:
			n.mu.Lock()
			ids := make([]string, 0, len(n.members))
			for id := range n.members {
				ids = append(ids, id)
			}
			n.mu.Unlock()
			for _, id := range ids {
				n.announce(id, "up")
			}
		}
	}
}

func (n *NATS) announce(id, state string) {
	b, _ := json.Marshal(wire{From: id, State: state})
	_ = n.nc.Publish(presenceSubject, b)
}

// status says whether a loop is known and whether it has ended.
func (n *NATS) status(id string) (known, ended bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	p, ok := n.seen[id]
	if !ok {
		return false, false
	}
	return true, p.bye || time.Since(p.last) > 3*Heartbeat
}

// Join implements Coordinator.
func (n *NATS) Join(ctx context.Context, execID string) (Member, error) {
	if !validID(execID) {
		return nil, fmt.Errorf("coord: execution id %q cannot be used over NATS: use 1 to 128 letters, digits, '-' or '_'", execID)
	}
	// Someone answering on the id's subject is a loop already running.
	pctx, cancel := context.WithTimeout(ctx, 2*Heartbeat)
	_, err := n.nc.RequestWithContext(pctx, subjectPrefix+execID+".share", []byte(`{"state":"ping"}`))
	cancel()
	if err == nil {
		return nil, fmt.Errorf("coord: a loop with execution id %q is already running", execID)
	}
	m := &natsMember{n: n, mailbox: newMailbox(execID)}
	for _, kind := range []string{"query", "share"} {
		sub, err := n.nc.Subscribe(subjectPrefix+execID+"."+kind, m.receive)
		if err != nil {
			m.unsubscribe()
			return nil, err
		}
		m.subs = append(m.subs, sub)
	}
	if err := n.nc.Flush(); err != nil {
		m.unsubscribe()
		return nil, err
	}
	n.mu.Lock()
	n.members[execID] = m
	n.seen[execID] = presence{last: time.Now()}
	n.mu.Unlock()
	n.announce(execID, "up")
	return m, nil
}

// Close implements Coordinator.
func (n *NATS) Close() error {
	n.mu.Lock()
	ms := make([]*natsMember, 0, len(n.members))
	for _, m := range n.members {
		ms = append(ms, m)
	}
	n.mu.Unlock()
	for _, m := range ms {
		m.Leave()
	}
	select {
	case <-n.stop:
	default:
		close(n.stop)
	}
	n.wg.Wait()
	_ = n.nc.Drain()
	n.nc.Close()
	return nil
}

type natsMember struct {
	n    *NATS
	subs []*nats.Subscription
	mailbox
}

func (m *natsMember) unsubscribe() {
	for _, s := range m.subs {
		_ = s.Unsubscribe()
	}
}

// receive takes a query or shared data from the wire.
func (m *natsMember) receive(msg *nats.Msg) {
	var w wire
	if err := json.Unmarshal(msg.Data, &w); err != nil {
		respond(msg, wire{Error: "malformed message: " + err.Error()})
		return
	}
	if w.State == "ping" {
		respond(msg, wire{Answer: "running"})
		return
	}
	var in Message
	if msg.Subject == subjectPrefix+m.id+".query" {
		var once sync.Once
		in = Message{Kind: KindQuery, From: w.From, ID: w.ID, Question: w.Question, Reply: func(a string) error {
			err := fmt.Errorf("coord: query %s was already answered", w.ID)
			once.Do(func() { err = respond(msg, wire{Answer: a}) })
			return err
		}}
	} else {
		in = Message{Kind: KindShare, From: w.From, DataType: w.DataType, Data: w.Data}
	}
	switch err := m.deliver(in); {
	case errors.Is(err, ErrEnded):
		respond(msg, wire{Error: ErrEnded.Error()})
	case err != nil:
		respond(msg, wire{Error: err.Error()})
	case in.Kind == KindShare:
		respond(msg, wire{Answer: "delivered"})
	}
}

func respond(msg *nats.Msg, w wire) error {
	b, _ := json.Marshal(w)
	return msg.Respond(b)
}

// request sends w to a loop's subject and waits for the reply, failing
// with ErrEnded as soon as the loop stops saying it is alive.
func (m *natsMember) request(ctx context.Context, to, kind string, w wire, timeout time.Duration) (wire, error) {
	if m.isLeft() {
		return wire{}, ErrClosed
	}
	if !validID(to) {
		return wire{}, targetErr(ErrUnknown, to, "not an execution id (1 to 128 letters, digits, '-' or '_')")
	}
	if known, ended := m.n.status(to); known && ended {
		return wire{}, targetErr(ErrEnded, to, "")
	}
	b, _ := json.Marshal(w)
	rctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	type answer struct {
		msg *nats.Msg
		err error
	}
	got := make(chan answer, 1)
	go func() {
		r, err := m.n.nc.RequestWithContext(rctx, subjectPrefix+to+"."+kind, b)
		got <- answer{r, err}
	}()
	watch := time.NewTicker(Heartbeat)
	defer watch.Stop()
	for {
		select {
		case a := <-got:
			switch {
			case errors.Is(a.err, nats.ErrNoResponders):
				if known, _ := m.n.status(to); known {
					return wire{}, targetErr(ErrEnded, to, "")
				}
				return wire{}, targetErr(ErrUnknown, to, "")
			case errors.Is(a.err, context.DeadlineExceeded) && ctx.Err() == nil:
				return wire{}, targetErr(ErrTimeout, to, "no answer within "+timeout.String())
			case a.err != nil:
				return wire{}, a.err
			}
			var r wire
			if err := json.Unmarshal(a.msg.Data, &r); err != nil {
				return wire{}, fmt.Errorf("coord: malformed reply from %s: %w", to, err)
			}
			if r.Error != "" {
				if r.Error == ErrEnded.Error() {
					return wire{}, targetErr(ErrEnded, to, "")
				}
				return wire{}, fmt.Errorf("coord: %s: %s", to, r.Error)
			}
			return r, nil
		case <-watch.C:
			if known, ended := m.n.status(to); known && ended {
				return wire{}, targetErr(ErrEnded, to, "it ended while the query waited")
			}
		case <-m.done:
			return wire{}, ErrClosed
		}
	}
}

func (m *natsMember) Query(ctx context.Context, to, question string, timeout time.Duration) (string, error) {
	id := m.id + "-" + strconv.FormatUint(m.n.seq.Add(1), 10)
	r, err := m.request(ctx, to, "query", wire{From: m.id, ID: id, Question: question}, timeout)
	if err != nil {
		return "", err
	}
	return r.Answer, nil
}

// shareTimeout bounds the wait for a loop to take shared data.
const shareTimeout = 10 * time.Second

func (m *natsMember) Share(ctx context.Context, to []string, dataType string, data json.RawMessage) error {
	for _, t := range to {
		if !validID(t) {
			return targetErr(ErrUnknown, t, "not an execution id (1 to 128 letters, digits, '-' or '_')")
		}
		if known, ended := m.n.status(t); known && ended {
			return targetErr(ErrEnded, t, "")
		}
	}
	for _, t := range to {
		if _, err := m.request(ctx, t, "share", wire{From: m.id, DataType: dataType, Data: data}, shareTimeout); err != nil {
			return err
		}
	}
	return nil
}

func (m *natsMember) Leave() error {
	if !m.close() {
		return nil
	}
	m.unsubscribe()
	m.n.mu.Lock()
	delete(m.n.members, m.id)
	m.n.seen[m.id] = presence{last: time.Now(), bye: true}
	m.n.mu.Unlock()
	m.n.announce(m.id, "bye")
	return m.n.nc.Flush()
}
