package coord

import (
	"fmt"
	"sync"
)

// mailbox is what every member has, whatever carries its messages: the
// queue of what was sent to it, and whether it has left.
type mailbox struct {
	id   string
	in   chan Message
	done chan struct{} // closed when the member leaves
	mu   sync.Mutex
	left bool
}

func newMailbox(id string) mailbox {
	return mailbox{id: id, in: make(chan Message, queueSize), done: make(chan struct{})}
}

// ID implements Member.
func (b *mailbox) ID() string { return b.id }

// Incoming implements Member.
func (b *mailbox) Incoming() <-chan Message { return b.in }

// deliver queues msg, unless the member has left (ErrEnded) or its queue
// is full.
func (b *mailbox) deliver(msg Message) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.left {
		return targetErr(ErrEnded, b.id, "")
	}
	select {
	case b.in <- msg:
		return nil
	default:
		return fmt.Errorf("coord: loop %s has %d messages waiting and takes no more", b.id, queueSize)
	}
}

func (b *mailbox) isLeft() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.left
}

// close marks the member as left and closes its queue; it reports whether
// this call did (false when it had left already).
func (b *mailbox) close() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.left {
		return false
	}
	b.left = true
	close(b.done)
	close(b.in)
	return true
}
