// Package coord lets agent loops talk to each other: a loop asks another
// a question and waits for its reply (query), hands it data (share), and
// the other loop receives both as messages. Loops are named by execution
// id. [NewLocal] connects the loops of one process; [DialNATS] connects
// loops in different processes or machines through a NATS server.
package coord

import (
	"context"
	"encoding/json"
	"errors"
	"time"
)

// The errors a query or share reports, told apart with errors.Is.
var (
	// ErrUnknown: no loop with that execution id has been seen.
	ErrUnknown = errors.New("no loop with this execution id is running")
	// ErrEnded: the loop was running and has ended (or vanished).
	ErrEnded = errors.New("the loop has ended")
	// ErrTimeout: the loop did not reply in time.
	ErrTimeout = errors.New("the loop did not reply in time")
	// ErrClosed: this loop has left the coordinator.
	ErrClosed = errors.New("this loop has left the coordinator")
)

// Coordinator connects loops.
type Coordinator interface {
	// Join registers a running loop under execID and returns its handle;
	// an id already running is refused.
	Join(ctx context.Context, execID string) (Member, error)
	// Close leaves every member and releases the connection.
	Close() error
}

// Member is one loop's handle on a coordinator.
type Member interface {
	// ID is the loop's execution id.
	ID() string
	// Query asks the loop to a question and waits for its reply, at most
	// timeout.
	Query(ctx context.Context, to, question string, timeout time.Duration) (string, error)
	// Share delivers data of a type to each loop of to, in order, and
	// fails naming the first target that cannot take it (the in-process
	// coordinator checks every target before delivering to any).
	Share(ctx context.Context, to []string, dataType string, data json.RawMessage) error
	// Incoming gives the queries and shared data sent to this loop; it is
	// closed when the member leaves.
	Incoming() <-chan Message
	// Leave ends the loop's membership: queries to it fail with ErrEnded.
	Leave() error
}

// Kind tells a query from shared data.
type Kind string

// The kinds of message.
const (
	KindQuery Kind = "query"
	KindShare Kind = "share"
)

// Message is a query or shared data sent to a loop.
type Message struct {
	Kind Kind   `json:"kind"`
	From string `json:"from"`
	// ID names a query, for its reply.
	ID string `json:"id,omitempty"`
	// Question is a query's question.
	Question string `json:"question,omitempty"`
	// DataType and Data are shared data.
	DataType string          `json:"data_type,omitempty"`
	Data     json.RawMessage `json:"data,omitempty"`
	// Reply answers a query (nil for shared data); the first reply counts.
	Reply func(answer string) error `json:"-"`
}

// queueSize bounds the messages waiting for a loop to take them.
const queueSize = 256

// TargetError is an error about one target loop; errors.Is tells its
// kind (ErrUnknown, ErrEnded, ErrTimeout).
type TargetError struct {
	Target string
	Kind   error
	Detail string
}

func (e *TargetError) Error() string {
	if e.Detail != "" {
		return e.Kind.Error() + ": " + e.Target + ": " + e.Detail
	}
	return e.Kind.Error() + ": " + e.Target
}

// Unwrap returns the kind.
func (e *TargetError) Unwrap() error { return e.Kind }

func targetErr(kind error, to, detail string) error {
	return &TargetError{Target: to, Kind: kind, Detail: detail}
}
