package coord_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/hands-dev/hands/coord"
	"github.com/nats-io/nats-server/v2/server"
)

// natsURL starts an embedded NATS server on a free loopback port.
func natsURL(t *testing.T) string {
	t.Helper()
	s, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: -1, NoLog: true, NoSigs: true})
	if err != nil {
		t.Fatal(err)
	}
	go s.Start()
	if !s.ReadyForConnections(10 * time.Second) {
		t.Fatal("nats-server did not start")
	}
	t.Cleanup(s.Shutdown)
	return s.ClientURL()
}

// both runs f against the in-process coordinator and against two NATS
// connections to one server (so every message crosses the wire).
func both(t *testing.T, f func(t *testing.T, a, b coord.Coordinator)) {
	t.Run("local", func(t *testing.T) {
		l := coord.NewLocal()
		t.Cleanup(func() { l.Close() })
		f(t, l, l)
	})
	t.Run("nats", func(t *testing.T) {
		url := natsURL(t)
		a, err := coord.DialNATS(url)
		if err != nil {
			t.Fatal(err)
		}
		b, err := coord.DialNATS(url)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { a.Close(); b.Close() })
		f(t, a, b)
	})
}

func join(t *testing.T, c coord.Coordinator, id string) coord.Member {
	t.Helper()
	m, err := c.Join(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// answer replies to every query m receives with prefix+question, and
// sends shared data to shared.
func answer(m coord.Member, prefix string, shared chan<- coord.Message) {
	go func() {
		for msg := range m.Incoming() {
			switch msg.Kind {
			case coord.KindQuery:
				msg.Reply(prefix + msg.Question)
			case coord.KindShare:
				if shared != nil {
					shared <- msg
				}
			}
		}
	}()
}

func TestQueryAndShare(t *testing.T) {
	both(t, func(t *testing.T, ca, cb coord.Coordinator) {
		a, b := join(t, ca, "loop-a"), join(t, cb, "loop-b")
		shared := make(chan coord.Message, 4)
		answer(b, "b says: ", shared)
		got, err := a.Query(context.Background(), "loop-b", "which port?", 10*time.Second)
		if err != nil || got != "b says: which port?" {
			t.Fatalf("query: %q, %v", got, err)
		}
		if err := a.Share(context.Background(), []string{"loop-b"}, "config", json.RawMessage(`{"port":8080}`)); err != nil {
			t.Fatal(err)
		}
		msg := <-shared
		if msg.From != "loop-a" || msg.DataType != "config" || string(msg.Data) != `{"port":8080}` {
			t.Fatalf("shared %+v", msg)
		}
	})
}

func TestQueryErrorsAreDistinct(t *testing.T) {
	both(t, func(t *testing.T, ca, cb coord.Coordinator) {
		a := join(t, ca, "asker")
		if _, err := a.Query(context.Background(), "nobody", "q", 5*time.Second); !errors.Is(err, coord.ErrUnknown) {
			t.Errorf("unknown target: %v", err)
		}
		silent := join(t, cb, "silent") // takes queries, never answers
		if _, err := a.Query(context.Background(), "silent", "q", 300*time.Millisecond); !errors.Is(err, coord.ErrTimeout) {
			t.Errorf("timeout: %v", err)
		}
		// Ends while a query waits.
		done := make(chan error, 1)
		go func() {
			_, err := a.Query(context.Background(), "silent", "q", 30*time.Second)
			done <- err
		}()
		<-silent.Incoming()
		<-silent.Incoming()
		silent.Leave()
		if err := <-done; !errors.Is(err, coord.ErrEnded) {
			t.Errorf("ended mid-query: %v", err)
		}
		if _, err := a.Query(context.Background(), "silent", "q", 5*time.Second); !errors.Is(err, coord.ErrEnded) {
			t.Errorf("ended: %v", err)
		}
		if err := a.Share(context.Background(), []string{"silent"}, "t", json.RawMessage(`1`)); !errors.Is(err, coord.ErrEnded) {
			t.Errorf("share to an ended loop: %v", err)
		}
	})
}

func TestJoinRefusesARunningID(t *testing.T) {
	both(t, func(t *testing.T, ca, cb coord.Coordinator) {
		join(t, ca, "same")
		if _, err := cb.Join(context.Background(), "same"); err == nil || !strings.Contains(err.Error(), "already running") {
			t.Errorf("second join: %v", err)
		}
	})
}

// TestNATSSubjectInjection: an execution id cannot name other subjects.
func TestNATSSubjectInjection(t *testing.T) {
	c, err := coord.DialNATS(natsURL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, id := range []string{"a.b", "*", ">", "a b", "", strings.Repeat("x", 129)} {
		if _, err := c.Join(context.Background(), id); err == nil {
			t.Errorf("joined as %q", id)
		}
	}
	a := join(t, c, "ok")
	for _, id := range []string{"loop.>", "*"} {
		if _, err := a.Query(context.Background(), id, "q", time.Second); !errors.Is(err, coord.ErrUnknown) {
			t.Errorf("query to %q: %v", id, err)
		}
	}
}
